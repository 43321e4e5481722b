import { useState } from "preact/hooks";
import { type Currency, formatMoney } from "../../../src/kernel/money.ts";
import { useAction } from "../../lib/use-action.ts";
import { Button, Dialog, Field, FormError } from "../../ui/index.ts";
import { parseAmountCents, quickTenders } from "../money.ts";
import { cartCurrency, cartTotalCents } from "./cart.ts";
import { keepCashSale } from "./keep-cash-sale.ts";
import type { Completed } from "./sale-api.ts";

/**
 * Cash: the amount handed over (typed, or a quick-tender button: exact or the next notes up), the
 * change due, and the sale completed at once (kept in the offline outbox: `keep-cash-sale.ts`).
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
    if (tenderedCents === undefined || changeCents === undefined || changeCents < 0) return;
    await run(async () => {
      const change = { currency, amountCents: changeCents };
      props.onCompleted(await keepCashSale({ tender: "cash", tendered_cents: tenderedCents }, change));
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
        <QuickTenders currency={currency} totalCents={total} onPick={setTendered} />
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

/** Exact, and the next amounts the notes make (`onPick` gets the amount as typed). */
function QuickTenders(props: { currency: Currency; totalCents: number; onPick: (typed: string) => void }) {
  const { currency, totalCents } = props;
  return (
    <fieldset class="quick-tenders">
      <legend class="visually-hidden">Quick amounts</legend>
      <Button onClick={() => props.onPick((totalCents / 100).toFixed(2))}>Exact</Button>
      {quickTenders(totalCents, currency).map((amount) => (
        <Button key={amount} onClick={() => props.onPick((amount / 100).toFixed(2))}>
          {formatMoney(currency, amount)}
        </Button>
      ))}
    </fieldset>
  );
}
