import { useState } from "preact/hooks";
import { type Currency, currencies, formatMoney } from "../../../src/kernel/money.ts";
import { ApiError, newIdempotencyKey, type Page } from "../../lib/api.ts";
import { centsFromMajorUnits, formatDateTime } from "../../lib/format.ts";
import { useResource } from "../../lib/resource.ts";
import { api } from "../../lib/session.ts";
import { Button, Field, SelectField, Table, toast } from "../../ui/index.ts";
import { AvailableBalance, type Balance } from "../components/available-balance.tsx";
import { usePolled } from "../components/polled.ts";
import { useStepUp } from "../components/step-up.tsx";
import { Status } from "./shared.tsx";

type Payout = {
  id: string;
  status: "requested" | "submitted" | "confirmed" | "failed" | "reversed";
  amount_cents: number;
  currency: Currency;
  destination_account: string;
  failure_reason: string | null;
  created_at: string;
};

type Profile = { payout_destination: { msisdn: string | null; verified: boolean } };

/** A payout the processor still works on: its status changes without the merchant doing anything. */
const unsettled = (page: Page<Payout>) =>
  page.data.some((payout) => payout.status === "requested" || payout.status === "submitted");

/**
 * The current world's available balance, a request for a payout to the merchant's verified wallet
 * (step-up), and the payouts, whose statuses update on their own while any is still on its way.
 */
export function PayoutsPage() {
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors.at(-1);
  const load = () => api.get<Page<Payout>>("/v1/payouts", { query: { limit: 20, cursor } });
  const [loaded, reload] = useResource(load, [cursor]);
  const payouts = usePolled(loaded, load, unsettled);
  const [profile] = useResource(() => api.get<Profile>("/v1/me"), []);
  const [balance, reloadBalance] = useResource(() => api.get<Balance>("/v1/balance"), []);
  return (
    <>
      <h1>Payouts</h1>
      <AvailableBalance balance={balance} title="Available to pay out" />
      {profile.state === "loaded" ? (
        <RequestPayout
          destination={profile.value.payout_destination}
          onRequested={() => {
            setCursors([undefined]);
            reload();
            reloadBalance();
          }}
        />
      ) : (
        <Status resource={profile} />
      )}
      <section aria-labelledby="payouts-title">
        <h2 id="payouts-title">Your payouts</h2>
        {payouts.state === "loaded" ? (
          <>
            <Table
              caption={`Payouts, page ${cursors.length}`}
              rows={payouts.value.data}
              rowKey={(payout) => payout.id}
              empty="No payouts yet."
              columns={[
                { header: "Requested", cell: (payout) => formatDateTime(payout.created_at) },
                { header: "Status", cell: (payout) => <span class="status">{payout.status}</span> },
                {
                  header: "Amount",
                  numeric: true,
                  cell: (payout) => formatMoney(payout.currency, payout.amount_cents),
                },
                { header: "To", cell: (payout) => payout.destination_account },
                { header: "Note", cell: (payout) => payout.failure_reason ?? "—" },
                { header: "ID", cell: (payout) => <code>{payout.id}</code> },
              ]}
            />
            <div class="pager">
              <Button disabled={cursors.length === 1} onClick={() => setCursors(cursors.slice(0, -1))}>
                Previous page
              </Button>
              <Button
                disabled={!payouts.value.has_more}
                onClick={() => setCursors([...cursors, payouts.value.next_cursor ?? undefined])}
              >
                Next page
              </Button>
            </div>
          </>
        ) : (
          <Status resource={payouts} />
        )}
      </section>
    </>
  );
}

function RequestPayout(props: { destination: Profile["payout_destination"]; onRequested: () => void }) {
  const [amount, setAmount] = useState("");
  const [currency, setCurrency] = useState<Currency>("USD");
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const stepUp = useStepUp("A payout moves money out of your balance.");
  const { msisdn, verified } = props.destination;
  if (msisdn === null || !verified) {
    return (
      <p class="card">
        Payouts go to your verified wallet. None is verified yet: ask the platform operator to verify your payout
        wallet.
      </p>
    );
  }
  return (
    <section aria-labelledby="request-title">
      <h2 id="request-title">Request a payout</h2>
      <form
        class="card"
        onSubmit={async (event) => {
          event.preventDefault();
          const cents = centsFromMajorUnits(amount);
          if (cents === undefined) {
            setError("Enter an amount such as 25 or 25.50.");
            return;
          }
          setError(undefined);
          setBusy(true);
          // A step-up refusal is stored against its Idempotency-Key: each attempt gets its own.
          await stepUp.run(async () => {
            try {
              const payout = await api.post<Payout>(
                "/v1/payouts",
                { amount_cents: cents, currency },
                { idempotencyKey: newIdempotencyKey() },
              );
              setAmount("");
              toast(`Payout of ${formatMoney(payout.currency, payout.amount_cents)} requested.`);
              props.onRequested();
            } catch (caught) {
              // A refusal (not enough money, a limit) stays under the field until the form changes.
              if (!(caught instanceof ApiError) || caught.code === "step_up_required") throw caught;
              setError(caught.message);
            }
          });
          setBusy(false);
        }}
      >
        <p>
          To your verified wallet <strong>{msisdn}</strong>.
        </p>
        <div class="row">
          <Field
            label="Amount"
            inputMode="decimal"
            required
            value={amount}
            onValue={(value) => {
              setAmount(value);
              setError(undefined);
            }}
            error={error}
            hint="In major units, e.g. 25.50"
          />
          <SelectField
            label="Currency"
            value={currency}
            onValue={(value) => {
              setCurrency(value as Currency);
              setError(undefined);
            }}
            options={currencies.map((code) => ({ value: code, label: code }))}
          />
        </div>
        <Button type="submit" variant="primary" busy={busy}>
          Request payout
        </Button>
      </form>
      {stepUp.dialog}
    </section>
  );
}
