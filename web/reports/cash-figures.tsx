import { formatMoney } from "../../src/kernel/money.ts";
import type { Shift, ShiftCash } from "../lib/api.ts";
import { type CurrencyRow, CurrencyTable } from "./currency-table.tsx";
import { overShort, overShortClass } from "./over-short.ts";

type Figure = CurrencyRow<ShiftCash> & { closedOnly?: boolean };

const money = (pick: (cash: ShiftCash) => number) => (cash: ShiftCash) => formatMoney(cash.currency, pick(cash));

/** The drawer's figures, one row per line of the Z report; refunds and pay-outs shown as money out (negative). */
const FIGURES: readonly Figure[] = [
  { label: "Opening float", key: "float", text: money((cash) => cash.float_cents) },
  { label: "Cash sales", key: "sales", text: money((cash) => cash.cash_sales_cents) },
  { label: "Number of cash sales", key: "sales-count", text: (cash) => String(cash.cash_sales_count) },
  { label: "Refunds", key: "refunds", text: money((cash) => -cash.refunds_cents) },
  { label: "Number of refunds", key: "refunds-count", text: (cash) => String(cash.refunds_count) },
  { label: "Pay-ins", key: "pay-ins", text: money((cash) => cash.pay_ins_cents) },
  { label: "Pay-outs", key: "pay-outs", text: money((cash) => -cash.pay_outs_cents) },
  { label: "Expected in drawer", key: "expected", text: money((cash) => cash.expected_cents), total: true },
  { label: "Counted", key: "counted", text: money((cash) => cash.counted_cents ?? 0), closedOnly: true },
  {
    label: "Over/short",
    key: "over-short",
    text: overShort,
    closedOnly: true,
    total: true,
    cellClass: (cash) => overShortClass(cash) ?? "",
  },
];

/**
 * A shift's drawer, USD and ZWG side by side: what went in and out and, once closed, the count and the
 * difference. Each figure carries `data-figure="<row>-<currency>"` (the browser tests compare the
 * till's and the dashboard's with each other and with the database).
 */
export function CashFigures(props: { shift: Shift; caption: string }) {
  const rows = FIGURES.filter((figure) => props.shift.status === "closed" || figure.closedOnly !== true);
  return <CurrencyTable caption={props.caption} corner="Cash" figures={props.shift.cash} rows={rows} />;
}
