import { formatMoney } from "../../../src/kernel/money.ts";
import type { Balance } from "../../lib/api.ts";
import type { Resource } from "../../lib/resource.ts";
import { Status } from "../pages/shared.tsx";

/** The current world's available balance, a card per currency (Balance and Payouts show it). */
export function AvailableBalance(props: { balance: Resource<Balance>; title: string }) {
  const { balance } = props;
  return (
    <section aria-labelledby="available-title">
      <h2 id="available-title">{props.title}</h2>
      {balance.state === "loaded" ? (
        <div class="cards">
          {balance.value.available.map((entry) => (
            <div class="card balance" key={entry.currency} data-testid={`available-${entry.currency}`}>
              <p class="muted">
                {entry.currency} · {balance.value.livemode ? "LIVE" : "TEST"}
              </p>
              <p class="figure">{formatMoney(entry.currency, entry.amount_cents)}</p>
            </div>
          ))}
        </div>
      ) : (
        <Status resource={balance} />
      )}
    </section>
  );
}
