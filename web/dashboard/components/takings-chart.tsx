import { type Currency, formatMoney } from "../../../src/kernel/money.ts";
import { formatDay } from "../../lib/format.ts";

// Wide enough for a day label ("Wed 25") at the chart's font size, so neighbouring labels never touch.
const BAR_SLOT_WIDTH = 56;
const BAR_AREA_HEIGHT = 100;

/**
 * One bar per day of a currency's takings, as an SVG drawn from the figures (no chart library). The
 * SVG is one image to assistive technology; the same figures follow it as a table that only screen
 * readers see, so no number exists in the picture alone.
 */
export function TakingsChart(props: { currency: Currency; days: readonly Date[]; totalsCents: readonly number[] }) {
  const max = Math.max(1, ...props.totalsCents);
  const total = props.totalsCents.reduce((sum, cents) => sum + cents, 0);
  const count = props.days.length;
  return (
    <figure class="card">
      <figcaption>
        {props.currency}: {formatMoney(props.currency, total)} in {count} days
      </figcaption>
      <svg
        class="chart"
        viewBox={`0 0 ${count * BAR_SLOT_WIDTH} 140`}
        role="img"
        aria-label={`Daily takings in ${props.currency}, ${formatMoney(props.currency, total)} in ${count} days`}
      >
        {props.days.map((day, index) => {
          const cents = props.totalsCents[index] ?? 0;
          const height = Math.round((cents / max) * BAR_AREA_HEIGHT);
          return (
            <g key={day.toISOString()}>
              <rect
                class="bar"
                x={index * BAR_SLOT_WIDTH + 6}
                y={110 - height}
                width={BAR_SLOT_WIDTH - 12}
                height={height}
              />
              <text x={index * BAR_SLOT_WIDTH + BAR_SLOT_WIDTH / 2} y={130} text-anchor="middle">
                {formatDay(day)}
              </text>
            </g>
          );
        })}
      </svg>
      <table class="visually-hidden">
        <caption>Takings per day in {props.currency}</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Takings</th>
          </tr>
        </thead>
        <tbody>
          {props.days.map((day, index) => (
            <tr key={day.toISOString()}>
              <td>{formatDay(day)}</td>
              <td>{formatMoney(props.currency, props.totalsCents[index] ?? 0)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

/** Sums paid payments into local days: `days` are the days' starts, oldest first. */
export function dailyTotalsCents(
  payments: readonly { currency: Currency; amount_cents: number; paid_at: string | null; created_at: string }[],
  currency: Currency,
  days: readonly Date[],
): number[] {
  return days.map((day, index) => {
    const end = days[index + 1]?.getTime() ?? Number.POSITIVE_INFINITY;
    return payments
      .filter((payment) => payment.currency === currency)
      .filter((payment) => {
        const at = new Date(payment.paid_at ?? payment.created_at).getTime();
        return at >= day.getTime() && at < end;
      })
      .reduce((sum, payment) => sum + payment.amount_cents, 0);
  });
}
