import { useState } from "preact/hooks";
import { type Currency, currencies, formatMoney } from "../../../src/kernel/money.ts";
import {
  createPayout,
  getMerchantProfile,
  listPayouts,
  type MerchantProfile,
  type Payout,
} from "../../lib/api/payouts.ts";
import { ApiError, getBalance, type Page } from "../../lib/api.ts";
import { centsFromMajorUnits, formatDateTime } from "../../lib/format.ts";
import { useResource } from "../../lib/resource.ts";
import { useAction } from "../../lib/use-action.ts";
import { Button, Field, Pager, SelectField, Table, toast, useCursorPages } from "../../ui/index.ts";
import { AvailableBalance } from "../components/available-balance.tsx";
import { usePolled } from "../components/polled.ts";
import { useStepUp } from "../components/step-up.tsx";
import { Status } from "./shared.tsx";

/** A payout the processor still works on: its status changes without the merchant doing anything. */
const unsettled = (page: Page<Payout>) =>
  page.data.some((payout) => payout.status === "requested" || payout.status === "submitted");

/**
 * The current world's available balance, a request for a payout to the merchant's verified wallet
 * (step-up), and the payouts, whose statuses update on their own while any is still on its way.
 */
export function PayoutsPage() {
  const pages = useCursorPages();
  const load = () => listPayouts({ limit: 20, cursor: pages.cursor });
  const [loaded, reload] = useResource(load, [pages.cursor]);
  const payouts = usePolled(loaded, load, unsettled);
  const [profile] = useResource(() => getMerchantProfile(), []);
  const [balance, reloadBalance] = useResource(() => getBalance(), []);
  return (
    <>
      <h1>Payouts</h1>
      <AvailableBalance balance={balance} title="Available to pay out" />
      {profile.state === "loaded" ? (
        <RequestPayout
          destination={profile.value.payout_destination}
          onRequested={() => {
            pages.restart();
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
              caption={`Payouts, page ${pages.number}`}
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
            <Pager {...pages.pagerOf(payouts.value)} />
          </>
        ) : (
          <Status resource={payouts} />
        )}
      </section>
    </>
  );
}

function RequestPayout(props: { destination: MerchantProfile["payout_destination"]; onRequested: () => void }) {
  const [amount, setAmount] = useState("");
  const [currency, setCurrency] = useState<Currency>("USD");
  const { busy, error, fail, run } = useAction();
  const stepUp = useStepUp("A payout moves money out of your balance.");
  const { msisdn, verified } = props.destination;
  if (msisdn === null || !verified) return <NoVerifiedWallet />;
  return (
    <section aria-labelledby="request-title">
      <h2 id="request-title">Request a payout</h2>
      <form
        class="card"
        onSubmit={async (event) => {
          event.preventDefault();
          const cents = centsFromMajorUnits(amount);
          if (cents === undefined) {
            fail("Enter an amount such as 25 or 25.50.");
            return;
          }
          // A refusal (not enough money, a limit) stays under the field until the form changes; a
          // step-up refusal renews the key like any 4xx, and the step-up dialog runs the action again.
          await stepUp.run(async () => {
            await run(
              async (idempotencyKey) => {
                const payout = await createPayout({ amount_cents: cents, currency }, { idempotencyKey });
                setAmount("");
                toast(`Payout of ${formatMoney(payout.currency, payout.amount_cents)} requested.`);
                props.onRequested();
              },
              (caught) => caught instanceof ApiError && caught.code === "step_up_required",
            );
          });
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
              fail(undefined);
            }}
            error={error}
            hint="In major units, e.g. 25.50"
          />
          <SelectField
            label="Currency"
            value={currency}
            onValue={(value) => {
              setCurrency(value as Currency);
              fail(undefined);
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

/** Said instead of the form while the merchant has no verified payout wallet. */
function NoVerifiedWallet() {
  return (
    <p class="card">
      Payouts go to your verified wallet. None is verified yet: ask the platform operator to verify your payout wallet.
    </p>
  );
}
