import { type Currency, currencies } from "../../kernel/money.ts";
import type { World } from "../../kernel/world.ts";
import type { Queryable } from "../../platform/db/pool.ts";
import { breakdownTotals } from "./breakdown.ts";
import { selectSaleBreakdown } from "./breakdown-queries.ts";
import { checkedPeriod } from "./report-period.ts";
import * as queries from "./report-queries.ts";
import { type SaleTender, saleTenders } from "./schemas.ts";

/** Counts and takings per currency, every currency listed. */
type CurrencyTotals = { currency: Currency; count: number; total_cents: number }[];

/** The takings of a period, as `presentSalesReport` shows them. */
export type SalesReport = {
  timezone: string;
  from: Date;
  to: Date;
  count: number;
  byCurrency: CurrencyTotals;
  byTender: { tender: SaleTender; count: number; byCurrency: CurrencyTotals }[];
  topProducts: Awaited<ReturnType<typeof queries.selectTopProducts>>;
  /** Gross, discounts, refunds (paid in the period), tax and net per currency: what Today and Home show. */
  net: ReturnType<typeof breakdownTotals>;
};

/**
 * Takings of completed sales in a period (by completion time): totals, per tender, best sellers.
 * Default period: today in the merchant's time zone. Both currencies and tenders are always listed.
 */
export async function salesReport(
  database: Queryable,
  request: World & {
    timezone: string;
    from: Date | undefined;
    to: Date | undefined;
    top: number;
    cashierId: string | undefined;
  },
): Promise<SalesReport> {
  let { from, to } = request;
  if (from === undefined || to === undefined) {
    const today = await queries.selectDayStarts(database, request.timezone, []);
    from ??= today.today_start;
    to ??= today.today_end;
  }
  const period = {
    merchantId: request.merchantId,
    livemode: request.livemode,
    ...checkedPeriod({ from, to }),
    cashierId: request.cashierId,
  };
  const [tenderRows, topProducts, netRows] = await Promise.all([
    queries.selectTenderTotals(database, period),
    queries.selectTopProducts(database, { ...period, top: request.top }),
    // The sales' figures in their baskets' currencies (by tender they are the money taken per currency).
    selectSaleBreakdown(database, { ...period, timezone: request.timezone }, "till"),
  ]);
  const byCurrency = (rows: readonly { currency: Currency; count: number; total_cents: number }[]) =>
    currencies.map((currency) => {
      const matching = rows.filter((row) => row.currency === currency);
      return {
        currency,
        count: matching.reduce((sum, row) => sum + row.count, 0),
        total_cents: matching.reduce((sum, row) => sum + row.total_cents, 0),
      };
    });
  return {
    timezone: request.timezone,
    from: period.from,
    to: period.to,
    count: tenderRows.reduce((sum, row) => sum + row.count, 0),
    byCurrency: byCurrency(tenderRows),
    byTender: saleTenders.map((tender) => {
      const rows = tenderRows.filter((row) => row.tender === tender);
      return { tender, count: rows.reduce((sum, row) => sum + row.count, 0), byCurrency: byCurrency(rows) };
    }),
    topProducts,
    net: breakdownTotals(netRows, currencies),
  };
}
