import { formatMoney } from "../../src/kernel/money.ts";
import type { SalesReport } from "../lib/api.ts";
import { type CurrencyRow, CurrencyTable } from "./currency-table.tsx";

/** A period's figures per currency, as GET /v1/sales/report's `net` and the breakdowns' totals give them. */
export type NetFigures = SalesReport["net"]["by_currency"][number];

const money = (pick: (figures: NetFigures) => number) => (figures: NetFigures) =>
  formatMoney(figures.currency, pick(figures));

/** Money out (discounts, refunds) shown negative, as the Z report shows refunds. */
const ROWS: readonly CurrencyRow<NetFigures>[] = [
  { label: "Gross sales", key: "gross", text: money((figures) => figures.gross_cents) },
  { label: "Discounts", key: "discounts", text: money((figures) => -figures.discount_cents) },
  { label: "Refunds", key: "refunds", text: money((figures) => -figures.refund_cents) },
  { label: "Net sales", key: "net", text: money((figures) => figures.net_cents), total: true },
  { label: "Tax (included)", key: "tax", text: money((figures) => figures.tax_cents) },
];

/**
 * Gross, discounts, refunds, net and tax, USD and ZWG side by side, cash and wallet together: the same
 * table at the till's Today and the dashboard's Home (cells `data-figure="net-<row>-<currency>"`).
 */
export function NetFiguresTable(props: { figures: readonly NetFigures[]; caption: string }) {
  return (
    <CurrencyTable caption={props.caption} corner="Sales" figures={props.figures} rows={ROWS} figurePrefix="net-" />
  );
}
