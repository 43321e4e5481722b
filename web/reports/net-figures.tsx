import { type Currency, currencies, formatMoney } from "../../src/kernel/money.ts";

/** A period's figures per currency, as GET /v1/sales/report's `net` and the breakdowns' totals give them. */
export type NetFigures = {
  currency: Currency;
  count: number;
  gross_cents: number;
  discount_cents: number;
  refund_cents: number;
  tax_cents: number;
  net_cents: number;
};

/** Money out (discounts, refunds) shown negative, as the Z report shows refunds. */
const ROWS: readonly { label: string; key: string; cents: (figures: NetFigures) => number }[] = [
  { label: "Gross sales", key: "gross", cents: (figures) => figures.gross_cents },
  { label: "Discounts", key: "discounts", cents: (figures) => -figures.discount_cents },
  { label: "Refunds", key: "refunds", cents: (figures) => -figures.refund_cents },
  { label: "Net sales", key: "net", cents: (figures) => figures.net_cents },
  { label: "Tax (included)", key: "tax", cents: (figures) => figures.tax_cents },
];

/**
 * Gross, discounts, refunds, net and tax, USD and ZWG side by side, cash and wallet together: the same
 * table at the till's Today and the dashboard's Home. Each cell carries `data-figure="net-<row>-<currency>"`
 * (the browser tests compare them with the API).
 */
export function NetFiguresTable(props: { figures: readonly NetFigures[]; caption: string }) {
  const byCurrency = new Map(props.figures.map((figures) => [figures.currency, figures]));
  return (
    <div class="table-scroll">
      <table class="cash-figures">
        <caption>{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col">Sales</th>
            {currencies.map((currency) => (
              <th key={currency} scope="col" class="numeric">
                {currency}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {ROWS.map((row) => (
            <tr key={row.key} class={row.key === "net" ? "total-row" : undefined}>
              <th scope="row">{row.label}</th>
              {currencies.map((currency) => {
                const figures = byCurrency.get(currency);
                return (
                  <td key={currency} class="numeric" data-figure={`net-${row.key}-${currency}`}>
                    {figures === undefined ? "—" : formatMoney(currency, row.cents(figures))}
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
