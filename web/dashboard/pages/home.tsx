import { formatMoney } from "../../../src/kernel/money.ts";
import { getBalance, listPayments, salesReport } from "../../lib/api.ts";
import { startOfDay } from "../../lib/format.ts";
import { useResource } from "../../lib/resource.ts";
import { liveAvailable } from "../../lib/session.ts";
import { NetFiguresTable } from "../../reports/index.ts";
import { PaymentTable } from "../components/payment-table.tsx";
import { dailyTotalsCents, TakingsChart } from "../components/takings-chart.tsx";
import { type Payment, Status } from "./shared.tsx";

const DAYS = 7;

/**
 * Balances in both worlds; today's net sales in the current world, cash and wallet (the till's Today
 * shows the same table from the same report); the last 7 days' wallet takings and the latest payments.
 */
export function HomePage() {
  const [balances] = useResource(
    () =>
      Promise.all([
        getBalance({ world: "test" }),
        liveAvailable.value ? getBalance({ world: "live" }) : Promise.resolve(null),
      ]),
    [],
  );
  const [today] = useResource(() => salesReport({}), []);
  const [takings] = useResource(() => paidSince(startOfDay(DAYS - 1)), []);
  const [recent] = useResource(() => listPayments({ limit: 5 }), []);
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
                      <p class="figure">{formatMoney(entry.currency, entry.amount_cents)}</p>
                    </div>
                  )),
            )}
          </div>
        ) : (
          <Status resource={balances} />
        )}
      </section>
      <section aria-labelledby="today-title">
        <h2 id="today-title">Sales today</h2>
        {today.state === "loaded" ? (
          <NetFiguresTable
            figures={today.value.net.by_currency}
            caption="Net sales today: cash and wallet, less discounts and refunds paid today"
          />
        ) : (
          <Status resource={today} />
        )}
      </section>
      <section aria-labelledby="takings-title">
        <h2 id="takings-title">Wallet takings, last {DAYS} days</h2>
        {takings.state === "loaded" ? <Takings payments={takings.value} /> : <Status resource={takings} />}
      </section>
      <section aria-labelledby="recent-title">
        <h2 id="recent-title">Recent payments</h2>
        {recent.state === "loaded" ? (
          <PaymentTable caption="The five latest payments" payments={recent.value.data} empty="No payments yet." />
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
    const result = await listPayments({ status: "paid", from: from.toISOString(), limit: 100, cursor });
    payments.push(...result.data);
    if (!result.has_more || result.next_cursor === null) break;
    cursor = result.next_cursor;
  }
  return payments;
}

/** A chart per currency taken in the last days (none when nothing was paid). */
function Takings(props: { payments: Payment[] }) {
  const days = Array.from({ length: DAYS }, (_, index) => startOfDay(DAYS - 1 - index));
  const currencies = [...new Set(props.payments.map((payment) => payment.currency))].sort();
  if (currencies.length === 0) {
    return <p class="muted">No takings in the last {DAYS} days.</p>;
  }
  return (
    <>
      {currencies.map((currency) => (
        <TakingsChart
          key={currency}
          currency={currency}
          days={days}
          totalsCents={dailyTotalsCents(props.payments, currency, days)}
        />
      ))}
    </>
  );
}
