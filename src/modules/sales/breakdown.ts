import { Readable } from "node:stream";
import { stringify } from "csv-stringify";
import { type Currency, currencies } from "../../kernel/money.ts";
import type { World } from "../../kernel/world.ts";
import type { Queryable } from "../../platform/db/pool.ts";
import * as queries from "./breakdown-queries.ts";
import type { BreakdownDimension, BreakdownRow, PeriodBound } from "./breakdown-schemas.ts";
import { selectTenderBreakdown } from "./breakdown-tender-queries.ts";
import { checkedPeriod } from "./report-period.ts";
import { selectDayStarts } from "./report-queries.ts";

type Figures = Omit<BreakdownRow, "key" | "label">;

/** A sales breakdown: the period's rows for one dimension and their totals per currency. */
export type SalesBreakdown = {
  dimension: BreakdownDimension;
  timezone: string;
  from: Date;
  to: Date;
  rows: BreakdownRow[];
  totals: Figures[];
};

const withNet = <Row extends { gross_cents: number; discount_cents: number; refund_cents: number }>(row: Row) => ({
  ...row,
  net_cents: row.gross_cents - row.discount_cents - row.refund_cents,
});

/** The rows' sums per currency, each of `inCurrencies` listed. */
export function breakdownTotals(
  rows: readonly Omit<Figures, "net_cents">[],
  inCurrencies: readonly Currency[],
): Figures[] {
  return inCurrencies.map((currency) => {
    const inCurrency = rows.filter((row) => row.currency === currency);
    const sum = (field: "count" | "gross_cents" | "discount_cents" | "refund_cents" | "tax_cents") =>
      inCurrency.reduce((total, row) => total + row[field], 0);
    return withNet({
      currency,
      count: sum("count"),
      gross_cents: sum("gross_cents"),
      discount_cents: sum("discount_cents"),
      refund_cents: sum("refund_cents"),
      tax_cents: sum("tax_cents"),
    });
  });
}

/**
 * Gross, discounts, refunds, tax and net of a period grouped by `dimension` (breakdown-queries.ts says
 * what counts where). Dates are days in the merchant's time zone; the default period is today there.
 */
export async function salesBreakdown(
  database: Queryable,
  request: World & {
    timezone: string;
    dimension: BreakdownDimension;
    from: PeriodBound | undefined;
    to: PeriodBound | undefined;
    currency: Currency | undefined;
  },
): Promise<SalesBreakdown> {
  const bounds = [request.from, request.to];
  const dates = bounds.flatMap((bound) => (bound !== undefined && "date" in bound ? [bound.date] : []));
  const days = await selectDayStarts(database, request.timezone, dates);
  const instant = (bound: PeriodBound | undefined) =>
    bound === undefined ? undefined : "instant" in bound ? bound.instant : days.starts[dates.indexOf(bound.date)];
  const { from, to } = checkedPeriod({
    from: instant(request.from) ?? days.today_start,
    to: instant(request.to) ?? days.today_end,
  });
  const period = { merchantId: request.merchantId, livemode: request.livemode, timezone: request.timezone, from, to };
  const { dimension } = request;
  const rows = (
    dimension === "item" || dimension === "category"
      ? await queries.selectLineBreakdown(database, period, dimension)
      : dimension === "tender"
        ? await selectTenderBreakdown(database, period)
        : await queries.selectSaleBreakdown(database, period, dimension)
  )
    .filter((row) => request.currency === undefined || row.currency === request.currency)
    .map(withNet);
  const totals = breakdownTotals(
    rows,
    currencies.filter((currency) => request.currency === undefined || currency === request.currency),
  );
  return { dimension, timezone: request.timezone, from, to, rows, totals };
}

export const BREAKDOWN_CSV_COLUMNS = [
  "dimension",
  "key",
  "label",
  "currency",
  "count",
  "gross",
  "discounts",
  "refunds",
  "tax",
  "net",
  "gross_cents",
  "discount_cents",
  "refund_cents",
  "tax_cents",
  "net_cents",
] as const;

const toMajorUnits = (cents: number) => (cents / 100).toFixed(2);

/**
 * A breakdown as CSV (RFC 4180, CRLF, UTF-8 with a byte-order mark, formula-like text escaped, as the
 * statement is): one row per breakdown row, then a `total` row per currency. Amounts twice: in major
 * units for people, in exact cents.
 */
export function breakdownCsv(breakdown: SalesBreakdown): Readable {
  const csv = stringify({
    header: true,
    columns: [...BREAKDOWN_CSV_COLUMNS],
    bom: true,
    record_delimiter: "windows",
    escape_formulas: true,
  });
  const record = (row: Omit<BreakdownRow, "key" | "label"> & { key: string | null; label: string }) => ({
    dimension: breakdown.dimension,
    key: row.key ?? "",
    label: row.label,
    currency: row.currency,
    count: row.count,
    gross: toMajorUnits(row.gross_cents),
    discounts: toMajorUnits(row.discount_cents),
    refunds: toMajorUnits(row.refund_cents),
    tax: toMajorUnits(row.tax_cents),
    net: toMajorUnits(row.net_cents),
    gross_cents: row.gross_cents,
    discount_cents: row.discount_cents,
    refund_cents: row.refund_cents,
    tax_cents: row.tax_cents,
    net_cents: row.net_cents,
  });
  const records = [
    ...breakdown.rows.map(record),
    ...breakdown.totals.map((total) => record({ ...total, key: null, label: "Total" })),
  ];
  return Readable.from(records).pipe(csv);
}
