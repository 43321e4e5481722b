import { Fragment } from "preact";
import { useEffect, useState } from "preact/hooks";
import { type Currency, formatMoney } from "../../../src/kernel/money.ts";
import { Button, lazyPage } from "../../ui/index.ts";
import { networkUp } from "../offline/index.ts";
import {
  type CartLine,
  cart,
  cartCurrency,
  cartDiscount,
  cartHeldBy,
  cartTotalCents,
  type DiscountGiven,
  otherCurrency,
  pricedCart,
  removeLine,
  setLineDiscount,
  setQty,
} from "./cart.ts";
import type { DiscountDialog as Discount } from "./discount-dialog.tsx";
import { parkedHere } from "./parked.ts";
import { groupCode } from "./wallet-code.tsx";
import { CancelPaymentButton } from "./wallet-dialog.tsx";
import { heldSale } from "./wallet-hold.ts";

// Opened now and then: loaded on demand with the occasional screens (web/till/occasional-screens.ts).
const DiscountDialog = lazyPage<Parameters<typeof Discount>[0]>(
  async () => (await import("../occasional-screens.ts")).DiscountDialog,
);

/** How a cart is paid: cash alone, a wallet alone, or the Pay step's several tenders and currencies. */
export type Tender = "cash" | "wallet" | "split";

/**
 * The cart: a line per product and price with − / + / typed quantity, remove, line totals, total, pay;
 * park it to serve the next customer, and see the parked ones.
 */
export function CartPanel(props: {
  onPay: (tender: Tender) => void;
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
      {discounting === undefined ? null : (
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
      )}
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
        <PayButtons empty={lines.length === 0} held={held} onPay={props.onPay} />
      </div>
    </div>
  );
}

/**
 * Pay cash, Pay wallet (a held payment shows again), and the Pay step for a split or the other
 * currency (which shows a held split sale again).
 */
function PayButtons(props: { empty: boolean; held: boolean; onPay: (tender: Tender) => void }) {
  const { empty, held } = props;
  const total = cartTotalCents.value;
  const split = heldSale.value?.tender === "split";
  return (
    <>
      <div class="pay-buttons">
        <Button variant="primary" disabled={empty || held} onClick={() => props.onPay("cash")}>
          Pay cash
        </Button>
        <Button
          variant="primary"
          disabled={empty || total < 1 || !networkUp.value}
          aria-describedby={networkUp.value ? undefined : "wallet-offline"}
          onClick={() => props.onPay("wallet")}
        >
          Pay wallet
        </Button>
        <Button disabled={empty || total < 1 || (held && !split)} onClick={() => props.onPay("split")}>
          Split or {otherCurrency(cartCurrency.value ?? "USD")}
        </Button>
      </div>
      {networkUp.value ? null : (
        // A wallet payment is confirmed by the server; offline only cash can be taken (and queued).
        <p id="wallet-offline" class="muted">
          Wallet payments need the network — take cash or wait
        </p>
      )}
    </>
  );
}

/** The wallet payment the cart is locked to: its code, to show again, or to cancel to change the basket. */
function WaitingPayment(props: { onShow: () => void }) {
  const sale = heldSale.value;
  if (sale === undefined) return null;
  const split = sale.tender === "split";
  return (
    <div class="cart-held" role="status" data-testid="cart-held">
      <p>
        {split ? "Split sale waiting: paid " : "Waiting for wallet payment of "}
        <strong>{formatMoney(sale.currency, split ? sale.paid_cents : sale.total_cents)}</strong>
        {split ? ` of ${formatMoney(sale.currency, sale.total_cents)}` : null}
        {sale.payment === null || (split && !sale.tenders.some((tender) => tender.status === "pending"))
          ? null
          : ` · code ${groupCode(sale.payment.code)}`}
        . The basket is locked until it is
        {split ? " paid or cancelled." : " paid, expires or is cancelled."}
      </p>
      <div class="cart-held-actions">
        <Button onClick={props.onShow}>Show payment</Button>
        {/* A split sale is cancelled in its Pay step, which says what to give back. */}
        {split ? null : <CancelPaymentButton />}
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
  const label = line.product.name;
  const [refused, setRefused] = useState<string | undefined>(undefined);
  // A line's buttons vanish with it: the focus goes back to the scan box at once rather than to the page.
  const removeThisLine = () => {
    removeLine(line.key);
    props.onEditDone();
  };
  return (
    <li class="cart-line" data-product-id={line.product.id}>
      <span class="line-name">{label}</span>
      <span class="line-unit muted">{formatMoney(line.product.currency, line.unit_cents)}</span>
      <QtyControl
        line={line}
        locked={locked}
        onRefused={setRefused}
        onRemove={removeThisLine}
        onEditDone={props.onEditDone}
      />
      <span class="line-total">{formatMoney(line.product.currency, line.qty * line.unit_cents)}</span>
      <span class="line-discount-button">
        <Button aria-label={`Discount on ${label}`} disabled={locked} onClick={props.onDiscount}>
          %
        </Button>
      </span>
      {line.discount === undefined ? null : <LineDiscount line={line} given={line.discount} />}
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

/** − / typed quantity / +: a typed quantity that is not a whole number is refused (`onRefused` says why). */
function QtyControl(props: {
  line: CartLine;
  locked: boolean;
  onRefused: (why: string | undefined) => void;
  onRemove: () => void;
  onEditDone: () => void;
}) {
  const { line, locked } = props;
  const label = line.product.name;
  const [draft, setDraft] = useState(String(line.qty));
  const [invalid, setInvalid] = useState(false);
  useEffect(() => setDraft(String(line.qty)), [line.qty]);
  const commit = () => {
    const qty = Number(draft.trim().replace(",", "."));
    const whole = draft.trim() !== "" && Number.isInteger(qty) && qty >= 0;
    setInvalid(!whole);
    // Sales count whole units end to end (the API's qty is an integer): 1.5 kg cut to 1 without a
    // word sold the wrong amount, so the line keeps its quantity and says why.
    props.onRefused(
      whole ? undefined : `${draft.trim() || "Nothing"} is not a whole number: the quantity stays ${line.qty}.`,
    );
    if (whole) setQty(line.key, qty);
    else setDraft(String(line.qty));
  };
  return (
    <span class="line-qty">
      <Button
        aria-label={`One less ${label}`}
        disabled={locked}
        onClick={() => (line.qty > 1 ? setQty(line.key, line.qty - 1) : props.onRemove())}
      >
        −
      </Button>
      <input
        class="qty-input"
        aria-label={`Quantity of ${label}`}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={invalid ? `qty-error-${line.key}` : undefined}
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
  );
}

/** A line's discount as given: the percentage or amount off, and the reason. */
function LineDiscount(props: { line: CartLine; given: DiscountGiven }) {
  const { discount, reason } = props.given;
  return (
    <span class="line-discount muted">
      {discount.kind === "percent"
        ? `−${discount.basisPoints / 100} %`
        : `−${formatMoney(props.line.product.currency, discount.cents)}`}
      {reason === "" ? "" : ` (${reason})`}
    </span>
  );
}
