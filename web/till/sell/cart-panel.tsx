import { Fragment } from "preact";
import { useEffect, useState } from "preact/hooks";
import { type Currency, formatMoney } from "../../../src/kernel/money.ts";
import { Button } from "../../ui/index.ts";
import { networkUp } from "../offline/index.ts";
import {
  type CartLine,
  cart,
  cartCurrency,
  cartDiscount,
  cartHeldBy,
  cartTotalCents,
  pricedCart,
  removeLine,
  setLineDiscount,
  setQty,
} from "./cart.ts";
import { DiscountDialog } from "./discount-dialog.tsx";
import { parkedHere } from "./parked.ts";
import { CancelPaymentButton, groupCode } from "./wallet-dialog.tsx";
import { heldSale } from "./wallet-hold.ts";

/**
 * The cart: a line per product and price with − / + / typed quantity, remove, line totals, total, pay;
 * park it to serve the next customer, and see the parked ones.
 */
export function CartPanel(props: {
  onPay: (tender: "cash" | "wallet") => void;
  onPark: () => void;
  onShowParked: () => void;
  onEditDone: () => void;
}) {
  const lines = cart.value;
  const currency = cartCurrency.value;
  const parkedCount = parkedHere.value.length;
  const held = cartHeldBy.value !== undefined;
  // The line whose discount is being given ("cart": the whole cart); undefined: no dialog.
  const [discounting, setDiscounting] = useState<string | undefined>(undefined);
  const discountedLine = lines.find((line) => line.key === discounting);
  return (
    <div class="cart">
      <DiscountDialog
        target={discounting === "cart" ? "the cart" : discountedLine?.product.name}
        given={discounting === "cart" ? cartDiscount.value : discountedLine?.discount}
        currency={currency ?? "USD"}
        onApply={(given) => {
          if (discounting === "cart") cartDiscount.value = given;
          else if (discounting !== undefined) setLineDiscount(discounting, given);
          setDiscounting(undefined);
        }}
        onClose={() => setDiscounting(undefined)}
      />
      <div class="cart-head">
        <h2>Cart</h2>
        <Button disabled={lines.length === 0 || held} onClick={props.onPark}>
          Park
        </Button>
        <Button onClick={props.onShowParked}>Parked ({parkedCount})</Button>
      </div>
      {lines.length === 0 ? (
        <p class="muted cart-empty">Scan an item or tap a product.</p>
      ) : (
        <ul class="cart-lines">
          {lines.map((line) => (
            <Line
              key={line.key}
              line={line}
              locked={held}
              onEditDone={props.onEditDone}
              onDiscount={() => setDiscounting(line.key)}
            />
          ))}
        </ul>
      )}
      <div class="cart-pay">
        {held ? <WaitingPayment onShow={() => props.onPay("wallet")} /> : null}
        <Button disabled={lines.length === 0 || held} onClick={() => setDiscounting("cart")}>
          {cartDiscount.value === undefined ? "Discount cart" : "Change cart discount"}
        </Button>
        <CartFigures currency={currency ?? "USD"} />
        <p class="cart-total">
          <span>Total</span>
          <output data-testid="cart-total">{formatMoney(currency ?? "USD", cartTotalCents.value)}</output>
        </p>
        <div class="pay-buttons">
          <Button variant="primary" disabled={lines.length === 0 || held} onClick={() => props.onPay("cash")}>
            Pay cash
          </Button>
          <Button
            variant="primary"
            disabled={lines.length === 0 || cartTotalCents.value < 1 || !networkUp.value}
            aria-describedby={networkUp.value ? undefined : "wallet-offline"}
            onClick={() => props.onPay("wallet")}
          >
            Pay wallet
          </Button>
        </div>
        {networkUp.value ? null : (
          // A wallet payment is confirmed by the server; offline only cash can be taken (and queued).
          <p id="wallet-offline" class="muted">
            Wallet payments need the network — take cash or wait
          </p>
        )}
      </div>
    </div>
  );
}

/** The wallet payment the cart is locked to: its code, to show again, or to cancel to change the basket. */
function WaitingPayment(props: { onShow: () => void }) {
  const sale = heldSale.value;
  if (sale === undefined) return null;
  return (
    <div class="cart-held" role="status" data-testid="cart-held">
      <p>
        Waiting for wallet payment of <strong>{formatMoney(sale.currency, sale.total_cents)}</strong>
        {sale.payment === null ? null : ` · code ${groupCode(sale.payment.code)}`}. The basket is locked until it is
        paid, expires or is cancelled.
      </p>
      <div class="cart-held-actions">
        <Button onClick={props.onShow}>Show payment</Button>
        <CancelPaymentButton />
      </div>
    </div>
  );
}

/** Subtotal, discounts and each tax rate's tax, when the cart has any of them. */
function CartFigures(props: { currency: Currency }) {
  const priced = pricedCart.value;
  const money = (cents: number) => formatMoney(props.currency, cents);
  if (priced.discountCents === 0 && priced.taxCents === 0) return null;
  return (
    <dl class="cart-figures" data-testid="cart-figures">
      <dt>Subtotal</dt>
      <dd>{money(priced.subtotalCents)}</dd>
      {priced.discountCents === 0 ? null : (
        <>
          <dt>Discounts</dt>
          <dd data-testid="cart-discount">−{money(priced.discountCents)}</dd>
        </>
      )}
      {priced.taxes
        .filter((tax) => tax.rateBasisPoints > 0)
        .map((tax) => (
          <Fragment key={tax.rateBasisPoints}>
            <dt>Tax {tax.rateBasisPoints / 100} %</dt>
            <dd data-testid={`cart-tax-${tax.rateBasisPoints}`}>{money(tax.taxCents)}</dd>
          </Fragment>
        ))}
    </dl>
  );
}

function Line(props: { line: CartLine; locked: boolean; onEditDone: () => void; onDiscount: () => void }) {
  const { line, locked } = props;
  const [draft, setDraft] = useState(String(line.qty));
  const [refused, setRefused] = useState<string | undefined>(undefined);
  useEffect(() => setDraft(String(line.qty)), [line.qty]);
  const commit = () => {
    const qty = Number(draft.trim().replace(",", "."));
    if (draft.trim() !== "" && Number.isInteger(qty) && qty >= 0) {
      setRefused(undefined);
      setQty(line.key, qty);
    } else {
      // Sales count whole units end to end (the API's qty is an integer): 1.5 kg cut to 1 without a
      // word sold the wrong amount, so the line keeps its quantity and says why.
      setRefused(`${draft.trim() || "Nothing"} is not a whole number: the quantity stays ${line.qty}.`);
      setDraft(String(line.qty));
    }
  };
  const label = line.product.name;
  // A line's buttons vanish with it: the focus goes back to the scan box at once rather than to the page.
  const removeThisLine = () => {
    removeLine(line.key);
    props.onEditDone();
  };
  return (
    <li class="cart-line" data-product-id={line.product.id}>
      <span class="line-name">{label}</span>
      <span class="line-unit muted">{formatMoney(line.product.currency, line.unit_cents)}</span>
      <span class="line-qty">
        <Button
          aria-label={`One less ${label}`}
          disabled={locked}
          onClick={() => (line.qty > 1 ? setQty(line.key, line.qty - 1) : removeThisLine())}
        >
          −
        </Button>
        <input
          class="qty-input"
          aria-label={`Quantity of ${label}`}
          aria-invalid={refused === undefined ? undefined : true}
          aria-describedby={refused === undefined ? undefined : `qty-error-${line.key}`}
          inputMode="numeric"
          disabled={locked}
          value={draft}
          onInput={(event) => setDraft(event.currentTarget.value)}
          onBlur={commit}
          onKeyDown={(event) => {
            if (event.key === "Enter") {
              commit();
              props.onEditDone();
            }
          }}
        />
        <Button aria-label={`One more ${label}`} disabled={locked} onClick={() => setQty(line.key, line.qty + 1)}>
          +
        </Button>
      </span>
      <span class="line-total">{formatMoney(line.product.currency, line.qty * line.unit_cents)}</span>
      <span class="line-discount-button">
        <Button aria-label={`Discount on ${label}`} disabled={locked} onClick={props.onDiscount}>
          %
        </Button>
      </span>
      {line.discount === undefined ? null : (
        <span class="line-discount muted">
          {line.discount.discount.kind === "percent"
            ? `−${line.discount.discount.basisPoints / 100} %`
            : `−${formatMoney(line.product.currency, line.discount.discount.cents)}`}
          {line.discount.reason === "" ? "" : ` (${line.discount.reason})`}
        </span>
      )}
      <Button variant="danger" aria-label={`Remove ${label}`} disabled={locked} onClick={removeThisLine}>
        ×
      </Button>
      {refused === undefined ? null : (
        <p id={`qty-error-${line.key}`} class="line-error field-error" role="alert">
          {refused}
        </p>
      )}
    </li>
  );
}
