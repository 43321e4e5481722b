import { useState } from "preact/hooks";
import { listEndpointDeliveries, recoverWebhooks, retryDelivery } from "../../../../lib/api/webhook-endpoints.ts";
import type { WebhookDelivery, WebhookEndpoint } from "../../../../lib/api.ts";
import { dateTimeInputValue, formatDateTime } from "../../../../lib/format.ts";
import { useResource } from "../../../../lib/resource.ts";
import { Button, Field, Pager, Table, toast, useCursorPages } from "../../../../ui/index.ts";
import { Status } from "../../shared.tsx";
import { AttemptList } from "./attempts.tsx";

/** A recovery is done in bounded batches: call again while the API says more remain, up to this many. */
const RECOVERY_CALLS_MAX = 20;

/**
 * One endpoint's deliveries, newest first, each with every attempt and the next attempt's time;
 * resend one, or recover every failed (dead) delivery since a chosen time in one action.
 */
export function DeliveryLog(props: { endpoint: WebhookEndpoint; refreshKey: number }) {
  const pages = useCursorPages();
  const [deliveries, reload] = useResource(
    () => listEndpointDeliveries(props.endpoint.id, { limit: 20, cursor: pages.cursor }),
    [props.endpoint.id, pages.cursor, props.refreshKey],
  );
  return (
    <section aria-labelledby="log-title">
      <h2 id="log-title">Delivery log</h2>
      <p class="muted">
        Deliveries to <code>{props.endpoint.url}</code>
      </p>
      <RecoverForm endpoint={props.endpoint} onRecovered={reload} />
      <div class="row">
        <Button onClick={reload}>Refresh log</Button>
      </div>
      {deliveries.state === "loaded" ? (
        <>
          <DeliveryTable
            caption={`Deliveries to ${props.endpoint.url}, page ${pages.number}`}
            deliveries={deliveries.value.data}
            onResent={reload}
          />
          <Pager {...pages.pagerOf(deliveries.value)} />
        </>
      ) : (
        <Status resource={deliveries} />
      )}
    </section>
  );
}

/** The deliveries of a page, each with its attempts and a button that sends it again. */
function DeliveryTable(props: { caption: string; deliveries: WebhookDelivery[]; onResent: () => void }) {
  return (
    <Table
      caption={props.caption}
      rows={props.deliveries}
      rowKey={(delivery) => delivery.id}
      empty="No deliveries yet."
      columns={[
        { header: "Created", cell: (delivery) => formatDateTime(delivery.created_at) },
        {
          header: "Event",
          cell: (delivery) => (
            <>
              {delivery.event_type} <code>{delivery.event_id}</code>
            </>
          ),
        },
        {
          header: "Status",
          cell: (delivery) => (
            <span class={`status delivery-${delivery.status}`} data-testid="delivery-status">
              {delivery.status}
            </span>
          ),
        },
        { header: "Attempts", cell: (delivery) => <AttemptList delivery={delivery} /> },
        { header: "Next attempt", cell: (delivery) => formatDateTime(delivery.next_attempt_at) },
        {
          header: "Action",
          cell: (delivery) => (
            <Button
              aria-label={`Resend delivery ${delivery.id}`}
              onClick={async () => {
                try {
                  await retryDelivery(delivery.id);
                  toast("Delivery scheduled again.");
                  props.onResent();
                } catch (caught) {
                  toast(caught instanceof Error ? caught.message : "It could not be resent.", "error");
                }
              }}
            >
              Resend
            </Button>
          ),
        },
      ]}
    />
  );
}

function RecoverForm(props: { endpoint: WebhookEndpoint; onRecovered: () => void }) {
  const [since, setSince] = useState(dateTimeInputValue(new Date(Date.now() - 24 * 3600 * 1000)));
  const [busy, setBusy] = useState(false);
  return (
    <form
      class="row card"
      aria-label="Recover failed deliveries"
      onSubmit={async (event) => {
        event.preventDefault();
        setBusy(true);
        try {
          const sinceIso = new Date(since).toISOString();
          let recovered = 0;
          for (let call = 0; call < RECOVERY_CALLS_MAX; call += 1) {
            const answer = await recoverWebhooks(props.endpoint.id, { since: sinceIso });
            recovered += answer.recovered_count;
            if (!answer.has_more) break;
          }
          toast(`${recovered} failed ${recovered === 1 ? "delivery" : "deliveries"} scheduled again.`);
          props.onRecovered();
        } catch (caught) {
          toast(caught instanceof Error ? caught.message : "The recovery did not work.", "error");
        } finally {
          setBusy(false);
        }
      }}
    >
      <Field label="Recover failed deliveries since" type="datetime-local" required value={since} onValue={setSince} />
      <Button type="submit" busy={busy}>
        Recover
      </Button>
    </form>
  );
}
