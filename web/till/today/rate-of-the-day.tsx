import { useState } from "preact/hooks";
import {
  currentExchangeRates,
  type ExchangeRate,
  RATE_PAIRS,
  rateText,
  setExchangeRate,
} from "../../lib/api/exchange-rates.ts";
import { ApiError } from "../../lib/api.ts";
import { useResource } from "../../lib/resource.ts";
import { Button, Dialog, Field, SelectField } from "../../ui/index.ts";
import { cashiers } from "../cashier/cashiers.ts";
import { postOnce } from "../sell/sale-api.ts";

export const timeOf = (iso: string) =>
  new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });

/** Who set a rate: the cashier switched in, by name; else the owner or a rate feed's API key. */
export function setter(rate: ExchangeRate): string {
  const cashier = cashiers.value?.find((candidate) => candidate.id === rate.set_by.id);
  return cashier?.name ?? (rate.set_by.type === "api_key" ? "a rate feed" : "the owner");
}

/**
 * The rate of the day as the cashier reads it ("USD 1 = ZWG 26.7843, set 08:12 by Ben"), and *Set rate*:
 * a manager sets it; a cashier's request answers `manager_required` and postOnce asks for a manager's PIN.
 */
export function RateOfTheDay() {
  const [current, reload] = useResource(currentExchangeRates, []);
  const [setting, setSetting] = useState(false);
  return (
    <section aria-labelledby="rate-title">
      <h2 id="rate-title">Rate of the day</h2>
      {/* The API answers the newest rate of each direction set, none when none is. */}
      <ul>
        {(current.state === "loaded" ? current.value.data : []).map((rate) => (
          <li key={rate.id}>
            {rate.base} 1 = {rate.other} {rate.rate}, set {timeOf(rate.created_at)} by {setter(rate)}
          </li>
        ))}
      </ul>
      <Button onClick={() => setSetting(true)}>Set rate</Button>
      {setting ? (
        <SetRateDialog
          onClose={() => {
            setSetting(false);
            reload();
          }}
        />
      ) : null}
    </section>
  );
}

function SetRateDialog(props: { onClose: () => void }) {
  const [pairIndex, setPairIndex] = useState("0");
  const [typed, setTyped] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  async function save(event: Event) {
    event.preventDefault();
    const rate = rateText(typed);
    setError(rate === undefined ? "A rate above zero like 26.7843 (at most 6 decimals)." : undefined);
    if (rate === undefined) return;
    setBusy(true);
    try {
      // A cashier's setting is refused with manager_required: postOnce asks for a manager's PIN and
      // sends it again with the approval.
      const pair = RATE_PAIRS[Number(pairIndex) === 1 ? 1 : 0];
      await postOnce((managerApproval) => setExchangeRate({ ...pair, rate }, { managerApproval }), "exchange_rate");
      props.onClose();
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : String(caught));
    } finally {
      setBusy(false);
    }
  }
  return (
    <Dialog open title="Set the rate of the day" onClose={props.onClose}>
      <form onSubmit={save} noValidate>
        <SelectField
          label="Direction"
          value={pairIndex}
          onValue={setPairIndex}
          options={RATE_PAIRS.map((pair, index) => ({ value: String(index), label: `${pair.base} → ${pair.other}` }))}
        />
        <Field label="Rate" inputMode="decimal" value={typed} onValue={setTyped} error={error} />
        <div class="dialog-actions">
          <Button type="button" onClick={props.onClose}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" busy={busy}>
            Set rate
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
