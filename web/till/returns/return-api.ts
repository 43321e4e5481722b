import type { Currency } from "../../../src/kernel/money.ts";
import { postOnce, type Sale } from "../sell/sale-api.ts";
import { withTillId } from "../shift/till-id.ts";

/** A return as the API answers it: the lines that came back (by the sale's line position) and the refund. */
export type SaleReturn = {
  id: string;
  sale_id: string;
  currency: Currency;
  refund_cents: number;
  items: { line: number; name: string; qty: number; unit_cents: number; line_total_cents: number }[];
  reason: string | null;
  receipt_url: string | null;
  created_at: string;
};

/** A sale with what the till shows beyond the sell screen: its returns and its receipt link. */
export type SaleWithReturns = Sale & { returns: SaleReturn[]; receipt_url: string | null };

/** Per line of the sale (by position): units returned over all its returns so far. */
export function returnedPerLine(sale: SaleWithReturns): number[] {
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
 * the till. `idempotencyKey` is made once per return, when the cashier starts it.
 */
export async function returnItems(
  sale: SaleWithReturns,
  input: { items: { line: number; qty: number }[]; reason: string },
  idempotencyKey: string,
): Promise<{ sale_return: SaleReturn; sale: SaleWithReturns }> {
  const reason = input.reason.trim();
  return postOnce(
    `/v1/sales/${encodeURIComponent(sale.id)}/returns`,
    withTillId(reason === "" ? { items: input.items } : { items: input.items, reason }),
    idempotencyKey,
  );
}
