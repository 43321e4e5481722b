import type { Page } from "../../lib/api.ts";
import { formatDateTime, formatDay, formatMoney, startOfDay } from "../../lib/format.ts";
import { useResource } from "../../lib/resource.ts";
import { api, liveAvailable } from "../../lib/session.ts";
import { Table } from "../../ui/index.ts";
import { type Payment, PaymentStatus, Status } from "./shared.tsx";

type Balance = { object: "balance"; livemode: boolean; available: { currency: string; amount_cents: number }[] };

const DAYS = 7;

/** Balances in both worlds, the last 7 days' takings in the current world, and its latest payments. */
export function HomePage() {
  const [balances] = useResource(
    () =>
      Promise.all([
        api.get<Balance>("/v1/balance", { world: "test" }),
        liveAvailable.value ? api.get<Balance>("/v1/balance", { world: "live" }) : Promise.resolve(null),
      ]),
    [],
  );
  const [takings] = useResource(() => paidSince(startOfDay(DAYS - 1)), []);
  const [recent] = useResource(() => api.get<Page<Payment>>("/v1/payments", { query: { limit: 5 } }), []);
  return (
    <>
      <h1>Home</h1>
      <section aria-labelledby="balances-title">
        <h2 id="balances-title">Balance</h2>
        {balances.state === "loaded" ? (
          <div class="cards">
            {balances.value.flatMap((balance) =>
              balance === null
                ? []
                : balance.available.map((entry) => (
                    <div class="card balance" key={`${balance.livemode}-${entry.currency}`}>
                      <p class="muted">
                        {entry.currency} · {balance.livemode ? "LIVE" : "TEST"}
                      </p>
                      <p class="figure">{formatMoney(entry.amount_cents, entry.currency)}</p>
                    </div>
                  )),
            )}
          </div>
        ) : (
          <Status resource={balances} />
        )}
      </section>
      <section aria-labelledby="takings-title">
        <h2 id="takings-title">Takings, last {DAYS} days</h2>
        {takings.state === "loaded" ? <TakingsChart payments={takings.value} /> : <Status resource={takings} />}
      </section>
      <section aria-labelledby="recent-title">
        <h2 id="recent-title">Recent payments</h2>
        {recent.state === "loaded" ? (
          <Table
            caption="The five latest payments"
            rows={recent.value.data}
            rowKey={(payment) => payment.id}
            empty="No payments yet."
            columns={[
              { header: "Created", cell: (payment) => formatDateTime(payment.created_at) },
              { header: "Status", cell: (payment) => <PaymentStatus status={payment.status} /> },
              {
                header: "Amount",
                numeric: true,
                cell: (payment) => formatMoney(payment.amount_cents, payment.currency),
              },
            ]}
          />
        ) : (
          <Status resource={recent} />
        )}
      </section>
    </>
  );
}

/** Paid payments since `from`, at most 5 pages of 100 (a chart, not a statement). */
async function paidSince(from: Date): Promise<Payment[]> {
  const payments: Payment[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 5; page += 1) {
    const result = await api.get<Page<Payment>>("/v1/payments", {
      query: { status: "paid", from: from.toISOString(), limit: 100, cursor },
    });
    payments.push(...result.data);
    if (!result.has_more || result.next_cursor === null) break;
    cursor = result.next_cursor;
  }
  return payments;
}

/** One bar per day per currency's total, as an SVG with a text table for screen readers. */
function TakingsChart(props: { payments: Payment[] }) {
  const days = Array.from({ length: DAYS }, (_, index) => startOfDay(DAYS - 1 - index));
  const currencies = [...new Set(props.payments.map((payment) => payment.currency))].sort();
  if (currencies.length === 0) {
    return <p class="muted">No takings in the last {DAYS} days.</p>;
  }
  return (
    <>
      {currencies.map((currency) => {
        const totals = days.map((day, index) => {
          const end = days[index + 1]?.getTime() ?? Number.POSITIVE_INFINITY;
          return props.payments
            .filter((payment) => payment.currency === currency)
            .filter((payment) => {
              const at = new Date(payment.paid_at ?? payment.created_at).getTime();
              return at >= day.getTime() && at < end;
            })
            .reduce((sum, payment) => sum + payment.amount_cents, 0);
        });
        const max = Math.max(1, ...totals);
        const width = 40;
        return (
          <figure key={currency} class="card">
            <figcaption>
              {currency}:{" "}
              {formatMoney(
                totals.reduce((sum, total) => sum + total, 0),
                currency,
              )}{" "}
              in {DAYS} days
            </figcaption>
            <svg
              class="chart"
              viewBox={`0 0 ${DAYS * width} 140`}
              role="img"
              aria-label={`Daily takings in ${currency}`}
            >
              {totals.map((total, index) => {
                const height = Math.round((total / max) * 100);
                const day = days[index] ?? new Date();
                return (
                  <g key={day.toISOString()}>
                    <rect class="bar" x={index * width + 6} y={110 - height} width={width - 12} height={height}>
                      <title>
                        {formatDay(day)}: {formatMoney(total, currency)}
                      </title>
                    </rect>
                    <text x={index * width + width / 2} y={130} text-anchor="middle">
                      {formatDay(day)}
                    </text>
                  </g>
                );
              })}
            </svg>
          </figure>
        );
      })}
    </>
  );
}
