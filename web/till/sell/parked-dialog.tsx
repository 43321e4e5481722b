import { formatMoney } from "../../../src/kernel/money.ts";
import { formatDateTime } from "../../lib/format.ts";
import { Button, Dialog } from "../../ui/index.ts";
import { cart } from "./cart.ts";
import { discardParked, parkedHere, resumeCart } from "./parked.ts";

/** The carts parked on this till in this world: resume one into the empty cart, or discard it. */
export function ParkedDialog(props: { open: boolean; onClose: () => void }) {
  const parked = parkedHere.value;
  const cartInUse = cart.value.length > 0;
  return (
    <Dialog open={props.open} title="Parked carts" onClose={props.onClose}>
      {parked.length === 0 ? <p class="muted">No parked carts.</p> : null}
      {cartInUse && parked.length > 0 ? <p class="muted">Finish or park the current cart to resume another.</p> : null}
      <ul class="parked-list">
        {parked.map((each) => {
          const currency = each.lines[0]?.product.currency ?? "USD";
          const totalCents = each.lines.reduce((sum, line) => sum + line.qty * line.unit_cents, 0);
          const units = each.lines.reduce((sum, line) => sum + line.qty, 0);
          const label = `${formatMoney(currency, totalCents)}, ${units} ${units === 1 ? "item" : "items"}, parked ${formatDateTime(each.parkedAt)}`;
          return (
            <li key={each.id} class="parked-cart">
              <span>{label}</span>
              <span class="parked-actions">
                <Button
                  variant="primary"
                  disabled={cartInUse}
                  aria-label={`Resume ${label}`}
                  onClick={() => {
                    if (resumeCart(each.id)) props.onClose();
                  }}
                >
                  Resume
                </Button>
                <Button variant="danger" aria-label={`Discard ${label}`} onClick={() => discardParked(each.id)}>
                  Discard
                </Button>
              </span>
            </li>
          );
        })}
      </ul>
      <div class="dialog-actions">
        <Button onClick={props.onClose}>Close</Button>
      </div>
    </Dialog>
  );
}
