import { useState } from "preact/hooks";
import { formatMoney } from "../../../src/kernel/money.ts";
import { useAction } from "../../lib/use-action.ts";
import { Button, Dialog, Field, FormError } from "../../ui/index.ts";
import { parseAmountCents, quickTenders } from "../money.ts";
import { queueSale } from "../offline/index.ts";
import { printedCart } from "../receipt/printable.ts";
import { withTillId } from "../shift/till-id.ts";
import { activeWorld } from "../world.ts";
import {
  cart,
  cartCurrency,
  cartDiscount,
  cartTotalCents,
  clearCart,
  pricedCart,
  saleDiscount,
  saleItems,
} from "./cart.ts";
import type { Completed } from "./sale-api.ts";

/**
 * Cash: the amount handed over (typed, or a quick-tender button: exact or the next notes up), the
 * change due, and the sale completed at once. The sale goes into the offline outbox, which keeps it in
 * the browser with its Idempotency-Key, client_sale_id and time and sends it (now, or when the network
 * is back): a cash sale never waits for the network, and the server records it once.
 */
export function CashDialog(props: { open: boolean; onCompleted: (result: Completed) => void; onClose: () => void }) {
  // The form is mounted afresh at each opening (the dialog renders its content only while open), so the
  // amount starts empty without an effect that could clear what was typed after the dialog appeared.
  return (
    <Dialog open={props.open} title="Pay cash" onClose={props.onClose}>
      <CashForm onCompleted={props.onCompleted} onClose={props.onClose} />
    </Dialog>
  );
}

function CashForm(props: { onCompleted: (result: Completed) => void; onClose: () => void }) {
  const [tendered, setTendered] = useState("");
  // Only the browser's storage can fail here (the network is the outbox's business, with its own key).
  const { busy, error, run } = useAction("The sale could not be kept.");
  const total = cartTotalCents.value;
  const currency = cartCurrency.value ?? "USD";
  const tenderedCents = parseAmountCents(tendered);
  const changeCents = tenderedCents === undefined ? undefined : tenderedCents - total;
  const complete = async () => {
    if (changeCents === undefined || changeCents < 0) return;
    await run(async () => {
      const world = activeWorld();
      const lines = cart.value;
      const printed = printedCart(lines, pricedCart.value, cartDiscount.value);
      const queued = await queueSale({
        world,
        // What was handed over goes with the sale, so its receipt shows tendered and change.
        body: withTillId({
          tender: "cash",
          currency,
          items: saleItems(lines),
          ...saleDiscount(),
          tendered_cents: tenderedCents,
        }),
        totalCents: total,
        currency,
      });
      clearCart();
      props.onCompleted({
        sale: { tender: "cash", currency, total_cents: total },
        changeCents,
        clientSaleId: queued.client_sale_id,
        receipt: {
          kind: "sale",
          livemode: world === "live",
          at: queued.taken_at,
          currency,
          ...printed,
          totalCents: total,
          tender: "cash",
          tenderedCents: tenderedCents ?? null,
        },
      });
    });
  };
  return (
    <>
      <p class="pay-total">
        Total <strong>{formatMoney(currency, total)}</strong>
      </p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void complete();
        }}
      >
        <Field
          label={`Amount tendered (${currency})`}
          inputMode="decimal"
          autoFocus
          value={tendered}
          onValue={setTendered}
        />
        <fieldset class="quick-tenders">
          <legend class="visually-hidden">Quick amounts</legend>
          <Button onClick={() => setTendered((total / 100).toFixed(2))}>Exact</Button>
          {quickTenders(total, currency).map((amount) => (
            <Button key={amount} onClick={() => setTendered((amount / 100).toFixed(2))}>
              {formatMoney(currency, amount)}
            </Button>
          ))}
        </fieldset>
        <p class="change-due" aria-live="polite">
          {changeCents === undefined
            ? "Type the amount handed over."
            : changeCents < 0
              ? `${formatMoney(currency, -changeCents)} still to pay`
              : `Change due ${formatMoney(currency, changeCents)}`}
        </p>
        <FormError error={error} />
        <div class="dialog-actions">
          <Button onClick={props.onClose}>Back</Button>
          <Button type="submit" variant="primary" busy={busy} disabled={changeCents === undefined || changeCents < 0}>
            Complete sale
          </Button>
        </div>
      </form>
    </>
  );
}
