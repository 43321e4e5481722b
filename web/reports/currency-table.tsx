import { type Currency, currencies } from "../../src/kernel/money.ts";

/** A row of figures: its label, and its cell in each currency. */
export type CurrencyRow<Figures> = {
  label: string;
  key: string;
  text: (figures: Figures) => string;
  /** A total's row, set off from the rows above it. */
  total?: boolean;
  /** A cell's own class beside `numeric` (over or short). */
  cellClass?: (figures: Figures) => string | undefined;
};

/**
 * Figures per currency, USD and ZWG side by side (a currency without figures shows "—"): a shift's
 * drawer and a day's net sales. Each cell carries `data-figure="<prefix><row>-<currency>"` (the
 * browser tests compare the till's and the dashboard's with each other and with the API).
 */
export function CurrencyTable<Figures extends { currency: Currency }>(props: {
  caption: string;
  corner: string;
  figures: readonly Figures[];
  rows: readonly CurrencyRow<Figures>[];
  figurePrefix?: string;
}) {
  const byCurrency = new Map(props.figures.map((figures) => [figures.currency, figures]));
  return (
    <div class="table-scroll">
      <table class="cash-figures">
        <caption>{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col">{props.corner}</th>
            {currencies.map((currency) => (
              <th key={currency} scope="col" class="numeric">
                {currency}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr key={row.key} class={row.total === true ? "total-row" : undefined}>
              <th scope="row">{row.label}</th>
              {currencies.map((currency) => {
                const figures = byCurrency.get(currency);
                const own = figures === undefined ? undefined : row.cellClass?.(figures);
                return (
                  <td
                    key={currency}
                    class={own === undefined ? "numeric" : `numeric ${own}`}
                    data-figure={`${props.figurePrefix ?? ""}${row.key}-${currency}`}
                  >
                    {figures === undefined ? "—" : row.text(figures)}
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
