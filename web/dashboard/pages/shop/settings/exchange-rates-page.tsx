import { useState } from "preact/hooks";
import {
  currentExchangeRates,
  type ExchangeRate,
  listExchangeRates,
  RATE_PAIRS,
  type RatePair,
  rateFor,
  rateText,
  setExchangeRate,
} from "../../../../lib/api/exchange-rates.ts";
import { ApiError } from "../../../../lib/api.ts";
import { formatDateTime } from "../../../../lib/format.ts";
import { useResource } from "../../../../lib/resource.ts";
import { Button, Field, SelectField, Table, toast } from "../../../../ui/index.ts";
import { Status } from "../../shared.tsx";
import { useActorNames } from "../actors.tsx";

const pairLabel = (pair: RatePair) => `${pair.base} → ${pair.other}`;
const rateLine = (rate: ExchangeRate) => `${rate.base} 1 = ${rate.other} ${rate.rate}`;

/**
 * Shop → Rate of the day: the rate in force for each direction (USD → ZWG and ZWG → USD, each its own,
 * so a shop may buy and sell at different rates), a form to set a new one, and every rate set before
 * with who set it and when. Rates are per world, like sales.
 */
export function ExchangeRatesPage() {
  const [current, reload] = useResource(currentExchangeRates, []);
  const nameOf = useActorNames();
  const [historyPair, setHistoryPair] = useState(0);
  // Bumped by each rate set here: the history starts again from its newest page.
  const [rateSets, setRateSets] = useState(0);
  return (
    <>
      <h1>Rate of the day</h1>
      <p>
        The rate the tills use when a customer pays in the other currency. Set it each morning; earlier rates stay in
        the history below.
      </p>
      <section aria-labelledby="current-rates">
        <h2 id="current-rates">In force</h2>
        {current.state === "loaded" ? (
          <ul class="rates-now">
            {RATE_PAIRS.map((pair) => {
              const rate = rateFor(current.value.data, pair);
              return (
                <li key={pairLabel(pair)}>
                  {rate === undefined
                    ? `${pairLabel(pair)}: not set`
                    : `${rateLine(rate)} · set ${formatDateTime(rate.created_at)} by ${nameOf(rate.set_by)}`}
                </li>
              );
            })}
          </ul>
        ) : (
          <Status resource={current} />
        )}
      </section>
      <RateForm
        onSet={() => {
          reload();
          setRateSets((count) => count + 1);
        }}
      />
      <section aria-labelledby="rate-history">
        <h2 id="rate-history">History</h2>
        <SelectField
          label="History of"
          value={String(historyPair)}
          onValue={(index) => setHistoryPair(Number(index))}
          options={RATE_PAIRS.map((pair, index) => ({ value: String(index), label: pairLabel(pair) }))}
        />
        <RateHistory
          key={`${historyPair}:${rateSets}`}
          pair={RATE_PAIRS[historyPair] ?? RATE_PAIRS[0]}
          nameOf={nameOf}
        />
      </section>
    </>
  );
}

/** Sets a new rate for a direction: the typed rate checked as the API checks it before sending. */
function RateForm(props: { onSet: () => void }) {
  const [pairIndex, setPairIndex] = useState("0");
  const [typed, setTyped] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  async function save(event: Event) {
    event.preventDefault();
    const rate = rateText(typed);
    const pair = RATE_PAIRS[Number(pairIndex)] ?? RATE_PAIRS[0];
    setError(rate === undefined ? "A rate above zero like 26.7843 (at most 6 decimals)." : undefined);
    if (rate === undefined) return;
    setSaving(true);
    try {
      const saved = await setExchangeRate({ ...pair, rate });
      toast(`Rate of the day set: ${rateLine(saved)}.`);
      setTyped("");
      props.onSet();
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : String(caught));
    } finally {
      setSaving(false);
    }
  }
  return (
    <form onSubmit={save} noValidate aria-labelledby="set-rate">
      <h2 id="set-rate">Set a new rate</h2>
      <div class="row">
        <SelectField
          label="Direction"
          value={pairIndex}
          onValue={setPairIndex}
          options={RATE_PAIRS.map((pair, index) => ({ value: String(index), label: pairLabel(pair) }))}
        />
        <Field
          label="Rate"
          inputMode="decimal"
          hint="How many of the second currency 1 of the first buys"
          value={typed}
          onValue={setTyped}
          error={error}
        />
      </div>
      <Button type="submit" variant="primary" busy={saving}>
        Set rate
      </Button>
    </form>
  );
}

/** The rates set for a direction, newest first, 20 a page. */
function RateHistory(props: { pair: RatePair; nameOf: (actor: ExchangeRate["set_by"]) => string }) {
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors.at(-1);
  const [rates] = useResource(() => listExchangeRates({ ...props.pair, cursor, limit: 20 }), [cursor]);
  if (rates.state !== "loaded") return <Status resource={rates} />;
  return (
    <>
      <Table
        caption={`${pairLabel(props.pair)} rates, page ${cursors.length}`}
        rows={rates.value.data}
        rowKey={(rate) => rate.id}
        empty="No rate set yet."
        columns={[
          { header: "Set", cell: (rate) => formatDateTime(rate.created_at) },
          { header: "Rate", numeric: true, cell: rateLine },
          { header: "By", cell: (rate) => props.nameOf(rate.set_by) },
        ]}
      />
      <div class="pager">
        <Button disabled={cursors.length === 1} onClick={() => setCursors(cursors.slice(0, -1))}>
          Previous page
        </Button>
        <Button
          disabled={!rates.value.has_more}
          onClick={() => setCursors([...cursors, rates.value.next_cursor ?? undefined])}
        >
          Next page
        </Button>
      </div>
    </>
  );
}
