import { returnSale, type Sale, type SaleReturn } from "../../lib/api.ts";
import { postOnce } from "../sell/sale-api.ts";
import { withTillId } from "../shift/till-id.ts";

export type { SaleReturn };

/** Per line of the sale (by position): units returned over all its returns so far. */
export function returnedPerLine(sale: Sale): number[] {
  const returned = sale.items.map(() => 0);
  for (const saleReturn of sale.returns) {
    for (const item of saleReturn.items) {
      returned[item.line] = (returned[item.line] ?? 0) + item.qty;
    }
  }
  return returned;
}

/**
 * Takes units of lines back (each line at most once, never more than remains: the server refuses that
 * with return_exceeds_sale). The refund is paid in cash out of this till's drawer, so the body names
 * the till. `idempotencyKey` is the return's (web/lib/use-action.ts).
 */
export async function returnItems(
  sale: Sale,
  input: { items: { line: number; qty: number }[]; reason: string },
  idempotencyKey: string,
) {
  const reason = input.reason.trim();
  const body = withTillId(reason === "" ? { items: input.items } : { items: input.items, reason });
  return postOnce((managerApproval) => returnSale(sale.id, body, { idempotencyKey, managerApproval }), "return");
}
