import { spreadByWeight } from "./basket.ts";

/** What the refund arithmetic reads of a sale (the API's sale object has it; so does the till's). */
export type RefundableSale = {
  readonly items: readonly {
    readonly qty: number;
    readonly line_total_cents: number;
    readonly net_cents?: number | undefined;
    readonly tax_rate_bp?: number | undefined;
  }[];
  readonly total_cents: number;
  readonly tax_cents: number;
  readonly taxes: readonly { readonly rate_bp: number; readonly tax_cents: number }[];
};

/**
 * Each line's share of its rate's tax: the rate's tax spread over that rate's lines by their nets
 * (largest remainder, ties to the earlier line, as the basket spreads a cart discount), so the shares
 * sum to the sale's tax exactly. The sales report's item and category rows follow the same rule in SQL
 * (`selectLineBreakdown`, src/modules/sales/breakdown-queries.ts).
 */
export function taxPerLine(sale: Pick<RefundableSale, "items" | "taxes">): number[] {
  const nets = netsOf(sale);
  const shares = nets.map(() => 0);
  for (const tax of sale.taxes) {
    const ofRate = sale.items.map((item, index) => ((item.tax_rate_bp ?? 0) === tax.rate_bp ? (nets[index] ?? 0) : 0));
    spreadByWeight(tax.tax_cents, ofRate).forEach((share, index) => {
      shares[index] = (shares[index] ?? 0) + share;
    });
  }
  return shares;
}

/** Each line's net after its own and the cart's discounts; a line without one (no discount, no tax) its line total. */
const netsOf = (sale: Pick<RefundableSale, "items">) =>
  sale.items.map((item) => item.net_cents ?? item.line_total_cents);

/**
 * What a sale's lines were paid (imports nothing but the basket, so the till's return dialog shows
 * the refund the API will record), and so what returning their units refunds: each line's net after its
 * own and the cart's discounts, plus, when tax was added on top (tax-exclusive prices), its share of
 * its rate's tax (`taxPerLine`). The lines' amounts sum to the sale's total exactly, so a full return
 * refunds exactly what was paid. A line without a net (a sale without discounts or tax) was paid its
 * line total.
 */
export function paidPerLine(sale: RefundableSale): number[] {
  const nets = netsOf(sale);
  const netSum = nets.reduce((sum, net) => sum + net, 0);
  // Tax-inclusive prices: the nets hold the tax already and sum to the total.
  if (sale.tax_cents === 0 || sale.total_cents === netSum) {
    return nets;
  }
  const taxShares = taxPerLine(sale);
  return nets.map((net, index) => net + (taxShares[index] ?? 0));
}

/**
 * What returning `qty` units of a line refunds after `alreadyReturned` units came back: the line's
 * paid amount in proportion to units, counted cumulatively (rounded down at each step) so that all its
 * units returned, in however many returns, refund exactly what the line was paid.
 */
export function unitsRefundCents(linePaidCents: number, lineQty: number, alreadyReturned: number, qty: number): number {
  const upTo = (units: number) => Number((BigInt(linePaidCents) * BigInt(units)) / BigInt(lineQty));
  return upTo(alreadyReturned + qty) - upTo(alreadyReturned);
}
