import { type Currency, currencies } from "../../kernel/money.ts";
import type { CashTotalRow, ShiftCountRow, ShiftRow } from "./schemas.ts";

/** A shift's cash per currency, as the journal of its moves and its close's counts give it. */
export type ShiftCash = {
  currency: Currency;
  float_cents: number;
  cash_sales_cents: number;
  cash_sales_count: number;
  refunds_cents: number;
  refunds_count: number;
  pay_ins_cents: number;
  pay_outs_cents: number;
  expected_cents: number;
  counted_cents: number | null;
  over_short_cents: number | null;
};

export type ShiftView = { shift: ShiftRow; cash: ShiftCash[] };

export function sumOf(
  totals: readonly CashTotalRow[],
  currency: Currency,
  kind: (row: CashTotalRow) => boolean,
): number {
  return totals
    .filter((total) => total.currency === currency && kind(total))
    .reduce((sum, total) => sum + total.amount_cents, 0);
}

export function countOf(totals: readonly CashTotalRow[], currency: Currency, kind: CashTotalRow["kind"]): number {
  return totals
    .filter((total) => total.currency === currency && total.kind === kind)
    .reduce((sum, total) => sum + total.count, 0);
}

/** A shift's cash per currency (both, always): open from its moves, closed from its frozen counts. */
export function present(shift: ShiftRow, totals: readonly CashTotalRow[], counts: readonly ShiftCountRow[]): ShiftView {
  const cash = currencies.map((currency): ShiftCash => {
    const ofKind = (kind: CashTotalRow["kind"]) => sumOf(totals, currency, (row) => row.kind === kind);
    const count = counts.find((row) => row.currency === currency);
    const closed = shift.status === "closed";
    const expected = closed ? (count?.expected_cents ?? 0) : sumOf(totals, currency, () => true);
    const countedCents = closed ? (count?.counted_cents ?? 0) : null;
    return {
      currency,
      float_cents: ofKind("float"),
      // Net of the change split sales gave and of what cancelled split sales gave back.
      cash_sales_cents: ofKind("sale") + ofKind("change") + ofKind("sale_cancel"),
      cash_sales_count: countOf(totals, currency, "sale"),
      refunds_cents: -ofKind("return"),
      refunds_count: countOf(totals, currency, "return"),
      pay_ins_cents: ofKind("pay_in"),
      pay_outs_cents: -ofKind("pay_out"),
      expected_cents: expected,
      counted_cents: countedCents,
      over_short_cents: countedCents === null ? null : countedCents - expected,
    };
  });
  return { shift, cash };
}
