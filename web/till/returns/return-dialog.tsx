import { useState } from "preact/hooks";
import { formatMoney } from "../../../src/kernel/money.ts";
import { paidPerLine, unitsRefundCents } from "../../../src/kernel/refunds.ts";
import { perCurrencyText } from "../../../src/kernel/tender-text.ts";
import type { Sale } from "../../lib/api.ts";
import { useAction } from "../../lib/use-action.ts";
import { Button, Dialog, Field, FormError } from "../../ui/index.ts";
import { ReceiptPanelBody as ReceiptPanel } from "../receipt/receipt-panel-body.tsx";
import { returnedPerLine, returnItems, type SaleReturn } from "./return-api.ts";

/**
 * Takes goods back from a completed sale: per line, how many were sold and returned already, and how
 * many come back now (never more than remain); a reason; then the refund due in cash and the return's
 * receipt. One Idempotency-Key per return (useAction): a retry of this return records it once.
 */
export function ReturnDialog(props: { sale: Sale | undefined; onReturned: (sale: Sale) => void; onClose: () => void }) {
  // Mounted afresh for each sale, so the quantities, reason and key start anew without an effect that
  // could clear what was typed after the dialog appeared.
  return props.sale === undefined ? null : (
    <ReturnForm key={props.sale.id} sale={props.sale} onReturned={props.onReturned} onClose={props.onClose} />
  );
}

function ReturnForm(props: { sale: Sale; onReturned: (sale: Sale) => void; onClose: () => void }) {
  const { sale } = props;
  const [quantities, setQuantities] = useState<string[]>(() => sale.items.map(() => "0"));
  const [reason, setReason] = useState("");
  const { busy, error, run } = useAction("The return could not be recorded.");
  const [done, setDone] = useState<SaleReturn | undefined>(undefined);
  const returned = returnedPerLine(sale);
  const chosen = sale.items
    .map((item, line) => ({ line, qty: Number(quantities[line] ?? "0"), item }))
    .filter((row) => Number.isInteger(row.qty) && row.qty > 0);
  const tooMany = chosen.some((row) => row.qty > row.item.qty - (returned[row.line] ?? 0));
  // What the API will refund: each line's paid share after discounts (and its tax when added on top).
  const paid = paidPerLine({ ...sale, tax_cents: sale.tax_cents ?? 0, taxes: sale.taxes ?? [] });
  const refundCents = chosen.reduce(
    (sum, row) => sum + unitsRefundCents(paid[row.line] ?? 0, row.item.qty, returned[row.line] ?? 0, row.qty),
    0,
  );
  const submit = async () => {
    if (chosen.length === 0 || tooMany) return;
    await run(async (key) => {
      const result = await returnItems(sale, { items: chosen.map(({ line, qty }) => ({ line, qty })), reason }, key);
      setDone(result.sale_return);
      props.onReturned(result.sale);
    });
  };
  return (
    <Dialog open={true} title="Return items" onClose={props.onClose}>
      {done !== undefined ? (
        <ReturnDone sale={sale} done={done} onClose={props.onClose} />
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <ReturnLines sale={sale} returned={returned} quantities={quantities} onQuantities={setQuantities} />
          <Field label="Reason (optional)" value={reason} maxLength={500} onValue={setReason} />
          <p class="pay-total" aria-live="polite">
            {tooMany
              ? "More than remains to return on a line."
              : `Refund in cash ${formatMoney(sale.currency, refundCents)}`}
          </p>
          <FormError error={error} />
          <div class="dialog-actions">
            <Button onClick={props.onClose}>Back</Button>
            <Button type="submit" variant="primary" busy={busy} disabled={chosen.length === 0 || tooMany}>
              Return and refund
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

/** The return recorded: the refund due in cash and the return's receipt. */
function ReturnDone(props: { sale: Sale; done: SaleReturn; onClose: () => void }) {
  return (
    <>
      <p class="sale-done" role="status">
        Return recorded. Refund due in cash:{" "}
        <strong>
          {props.done.refunds.length === 0
            ? formatMoney(props.done.currency, props.done.refund_cents)
            : perCurrencyText(props.done.refunds)}
        </strong>
      </p>
      <ReceiptPanel
        receiptUrl={props.done.receipt_url}
        what="return"
        receipt={{
          kind: "return",
          livemode: props.sale.livemode,
          at: props.done.created_at,
          currency: props.done.currency,
          items: props.done.items,
          totalCents: props.done.refund_cents,
          tender: "cash",
          tenderedCents: null,
          refunds: props.done.refunds,
        }}
      />
      <div class="dialog-actions">
        <Button variant="primary" onClick={props.onClose}>
          Done
        </Button>
      </div>
    </>
  );
}

/** Per line of the sale: sold, returned already, and how many come back now (never more than remain). */
function ReturnLines(props: {
  sale: Sale;
  returned: number[];
  quantities: string[];
  onQuantities: (quantities: string[]) => void;
}) {
  return (
    <div class="table-scroll">
      <table>
        <caption>Lines of the sale</caption>
        <thead>
          <tr>
            <th scope="col">Item</th>
            <th scope="col" class="numeric">
              Sold
            </th>
            <th scope="col" class="numeric">
              Returned
            </th>
            <th scope="col">Return now</th>
          </tr>
        </thead>
        <tbody>
          {props.sale.items.map((item, line) => {
            const remaining = item.qty - (props.returned[line] ?? 0);
            return (
              <tr key={`${line}`}>
                <th scope="row">{item.name}</th>
                <td class="numeric">{item.qty}</td>
                <td class="numeric">{props.returned[line] ?? 0}</td>
                <td>
                  <input
                    class="qty-input"
                    type="number"
                    min={0}
                    max={remaining}
                    step={1}
                    aria-label={`Units of ${item.name} to return (at most ${remaining})`}
                    value={props.quantities[line] ?? "0"}
                    disabled={remaining === 0}
                    onInput={(event) => {
                      const next = [...props.quantities];
                      next[line] = event.currentTarget.value;
                      props.onQuantities(next);
                    }}
                  />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
