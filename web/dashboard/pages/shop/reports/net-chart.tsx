import { type Currency, formatMoney } from "../../../../../src/kernel/money.ts";

const ROW_HEIGHT = 28;
const LABEL_WIDTH = 160;
const BAR_WIDTH_MAX = 300;

/**
 * Net sales per row of one currency, as horizontal SVG bars drawn from the figures (no chart library,
 * nothing scripted: the page's CSP holds). The SVG is one image to assistive technology; the table
 * beside it has every figure.
 */
export function NetChart(props: { currency: Currency; rows: readonly { label: string; net_cents: number }[] }) {
  const max = Math.max(1, ...props.rows.map((row) => Math.abs(row.net_cents)));
  const height = props.rows.length * ROW_HEIGHT;
  return (
    <figure class="card">
      <figcaption>Net sales in {props.currency}</figcaption>
      <svg
        class="chart"
        viewBox={`0 0 ${LABEL_WIDTH + BAR_WIDTH_MAX + 120} ${height}`}
        role="img"
        aria-label={`Net sales in ${props.currency} per row, largest ${formatMoney(props.currency, max)}`}
      >
        {props.rows.map((row, index) => {
          const width = Math.round((Math.abs(row.net_cents) / max) * BAR_WIDTH_MAX);
          const y = index * ROW_HEIGHT;
          return (
            <g key={`${row.label}-${index}`}>
              <text x={0} y={y + 18}>
                {row.label.length > 20 ? `${row.label.slice(0, 19)}…` : row.label}
              </text>
              <rect class="bar" x={LABEL_WIDTH} y={y + 4} width={width} height={ROW_HEIGHT - 8} />
              <text x={LABEL_WIDTH + width + 6} y={y + 18}>
                {formatMoney(props.currency, row.net_cents)}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
