import { currencies, formatMoney } from "../../src/kernel/money.ts";
import type { Shift, ShiftCash } from "../lib/api.ts";
import { overShort, overShortClass } from "./over-short.ts";

type Figure = { label: string; key: string; text: (cash: ShiftCash) => string; closedOnly?: boolean };

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
  { label: "Expected in drawer", key: "expected", text: money((cash) => cash.expected_cents) },
  { label: "Counted", key: "counted", text: money((cash) => cash.counted_cents ?? 0), closedOnly: true },
  { label: "Over/short", key: "over-short", text: overShort, closedOnly: true },
];

/**
 * A shift's drawer, USD and ZWG side by side: what went in and out and, once closed, the count and the
 * difference. Each figure carries `data-figure="<row>-<currency>"` (the browser tests compare the
 * till's and the dashboard's with each other and with the database).
 */
export function CashFigures(props: { shift: Shift; caption: string }) {
  const byCurrency = new Map(props.shift.cash.map((cash) => [cash.currency, cash]));
  const figures = FIGURES.filter((figure) => props.shift.status === "closed" || figure.closedOnly !== true);
  return (
    <div class="table-scroll">
      <table class="cash-figures">
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
          {figures.map((figure) => (
            <tr
              key={figure.key}
              class={figure.key === "expected" || figure.key === "over-short" ? "total-row" : undefined}
            >
              <th scope="row">{figure.label}</th>
              {currencies.map((currency) => {
                const cash = byCurrency.get(currency);
                return (
                  <td
                    key={currency}
                    class={
                      figure.key === "over-short" && cash !== undefined
                        ? `numeric ${overShortClass(cash) ?? ""}`
                        : "numeric"
                    }
                    data-figure={`${figure.key}-${currency}`}
                  >
                    {cash === undefined ? "—" : figure.text(cash)}
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
