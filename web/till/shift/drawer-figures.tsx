import { type Currency, currencies, formatMoney } from "../../../src/kernel/money.ts";
import type { Shift, ShiftCash } from "./shift-api.ts";

type Row = { label: string; key: string; value: (cash: ShiftCash) => number | null };

const ROWS: readonly Row[] = [
  { label: "Opening float", key: "float", value: (cash) => cash.float_cents },
  { label: "Cash sales", key: "sales", value: (cash) => cash.cash_sales_cents },
  { label: "Pay-ins", key: "pay-ins", value: (cash) => cash.pay_ins_cents },
  { label: "Refunds (returns)", key: "refunds", value: (cash) => -cash.refunds_cents },
  { label: "Pay-outs", key: "pay-outs", value: (cash) => -cash.pay_outs_cents },
  { label: "Expected in the drawer", key: "expected", value: (cash) => cash.expected_cents },
  { label: "Counted", key: "counted", value: (cash) => cash.counted_cents },
  { label: "Over (+) / short (−)", key: "over-short", value: (cash) => cash.over_short_cents },
];

function signed(currency: Currency, cents: number): string {
  return cents > 0
    ? `+${formatMoney(currency, cents)}`
    : cents < 0
      ? `−${formatMoney(currency, -cents)}`
      : formatMoney(currency, 0);
}

/**
 * A shift's drawer, USD and ZWG side by side: what went in and out and, once closed, the count and
 * the difference. Each figure carries `data-figure="<row>-<currency>"` (the browser tests compare
 * them with the database).
 */
export function DrawerFigures(props: { shift: Shift; caption: string }) {
  const byCurrency = new Map(props.shift.cash.map((cash) => [cash.currency, cash]));
  const rows = ROWS.filter(
    (row) => props.shift.status === "closed" || (row.key !== "counted" && row.key !== "over-short"),
  );
  return (
    <div class="table-scroll">
      <table class="drawer-figures">
        <caption>{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col">Cash</th>
            {currencies.map((currency) => (
              <th key={currency} scope="col" class="numeric">
                {currency}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key} class={row.key === "expected" || row.key === "over-short" ? "total-row" : undefined}>
              <th scope="row">{row.label}</th>
              {currencies.map((currency) => {
                const cash = byCurrency.get(currency);
                const value = cash === undefined ? null : row.value(cash);
                return (
                  <td key={currency} class="numeric" data-figure={`${row.key}-${currency}`}>
                    {value === null
                      ? "—"
                      : row.key === "over-short"
                        ? signed(currency, value)
                        : formatMoney(currency, value)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
