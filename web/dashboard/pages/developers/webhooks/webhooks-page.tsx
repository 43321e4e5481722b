import { useState } from "preact/hooks";
import {
  deleteWebhookEndpoint,
  listWebhookEndpoints,
  rollWebhookSecret,
  sendTestWebhook,
} from "../../../../lib/api/webhook-endpoints.ts";
import type { WebhookEndpoint } from "../../../../lib/api.ts";
import { formatDateTime } from "../../../../lib/format.ts";
import { useResource } from "../../../../lib/resource.ts";
import { Button, ConfirmDialog, Dialog, SelectField, Table, toast } from "../../../../ui/index.ts";
import { OVERLAP_CHOICES } from "../../../components/overlaps.ts";
import { SecretDialog } from "../../../components/secret-dialog.tsx";
import { useStepUp } from "../../../components/step-up.tsx";
import { Status } from "../../shared.tsx";
import { CreateEndpointForm } from "./create-endpoint-form.tsx";
import { DeliveryLog } from "./delivery-log.tsx";

/**
 * The current world's webhook endpoints: create one (its signing secret shown once), disable it,
 * send it a test event, roll its secret with an overlap (step-up), and open its delivery log.
 */
export function WebhooksPage() {
  const [endpoints, reload] = useResource(() => listWebhookEndpoints({ limit: 100 }), []);
  const [secret, setSecret] = useState<string | undefined>(undefined);
  const [selectedId, setSelectedId] = useState<string | undefined>(undefined);
  const [rolling, setRolling] = useState<WebhookEndpoint | undefined>(undefined);
  const [disabling, setDisabling] = useState<WebhookEndpoint | undefined>(undefined);
  // Bumped after an action that adds a delivery, so the open log loads again.
  const [logGeneration, setLogGeneration] = useState(0);
  const stepUp = useStepUp("A new signing secret changes what your server must verify.");
  const selected =
    endpoints.state === "loaded" ? endpoints.value.data.find((item) => item.id === selectedId) : undefined;

  const sendTest = (endpoint: WebhookEndpoint) =>
    act(async () => {
      await sendTestWebhook(endpoint.id);
      toast("Test event sent.");
      setSelectedId(endpoint.id);
      setLogGeneration((value) => value + 1);
    }, "The test event could not be sent.");

  return (
    <>
      <h1>Webhooks</h1>
      <CreateEndpointForm
        onCreated={(created) => {
          setSecret(created.secret);
          setSelectedId(created.id);
          reload();
        }}
      />
      <section aria-labelledby="endpoints-title">
        <h2 id="endpoints-title">Endpoints</h2>
        {endpoints.state === "loaded" ? (
          <EndpointTable
            endpoints={endpoints.value.data}
            selectedId={selectedId}
            onSelect={setSelectedId}
            onTest={sendTest}
            onRoll={setRolling}
            onDisable={setDisabling}
          />
        ) : (
          <Status resource={endpoints} />
        )}
      </section>
      {selected === undefined ? null : <DeliveryLog endpoint={selected} refreshKey={logGeneration} />}
      <SecretDialog
        title="Your signing secret"
        secret={secret}
        note="This is the only time the signing secret is shown. Copy it into your server's configuration to verify the X-Pos-Signature header of each delivery."
        onClose={() => setSecret(undefined)}
      />
      <RollSecretDialog
        endpoint={rolling}
        onClose={() => setRolling(undefined)}
        onRoll={(endpoint, overlapSeconds) => {
          setRolling(undefined);
          void stepUp.run(async () => {
            const rolled = await rollWebhookSecret(endpoint.id, { expires_in_seconds: overlapSeconds });
            setSecret(rolled.secret);
            reload();
          });
        }}
      />
      <DisableDialog endpoint={disabling} onClose={() => setDisabling(undefined)} onDisabled={reload} />
      {stepUp.dialog}
    </>
  );
}

/** A failed action's message, or the page's own words for it, in an error toast. */
async function act(action: () => Promise<void>, failure: string) {
  try {
    await action();
  } catch (caught) {
    toast(caught instanceof Error ? caught.message : failure, "error");
  }
}

/** The endpoints, each with its deliveries button and, while active, test, roll and disable. */
function EndpointTable(props: {
  endpoints: WebhookEndpoint[];
  selectedId: string | undefined;
  onSelect: (id: string) => void;
  onTest: (endpoint: WebhookEndpoint) => void;
  onRoll: (endpoint: WebhookEndpoint) => void;
  onDisable: (endpoint: WebhookEndpoint) => void;
}) {
  return (
    <Table
      caption="Webhook endpoints"
      rows={props.endpoints}
      rowKey={(endpoint) => endpoint.id}
      empty="No endpoints yet."
      columns={[
        { header: "URL", cell: (endpoint) => <code>{endpoint.url}</code> },
        { header: "Events", cell: (endpoint) => endpoint.event_types.join(", ") },
        { header: "State", cell: (endpoint) => (endpoint.active ? "active" : "disabled") },
        {
          header: "Secret",
          cell: (endpoint) =>
            `…${endpoint.secret_last4}${
              endpoint.previous_secret_expires_at === null
                ? ""
                : ` (previous one signs too until ${formatDateTime(endpoint.previous_secret_expires_at)})`
            }`,
        },
        {
          header: "Actions",
          cell: (endpoint) => (
            <div class="row">
              <Button
                aria-label={`Deliveries to ${endpoint.url}`}
                aria-pressed={endpoint.id === props.selectedId}
                onClick={() => props.onSelect(endpoint.id)}
              >
                Deliveries
              </Button>
              {endpoint.active ? (
                <>
                  <Button aria-label={`Send test event to ${endpoint.url}`} onClick={() => props.onTest(endpoint)}>
                    Send test event
                  </Button>
                  <Button aria-label={`Roll secret of ${endpoint.url}`} onClick={() => props.onRoll(endpoint)}>
                    Roll secret
                  </Button>
                  <Button
                    variant="danger"
                    aria-label={`Disable ${endpoint.url}`}
                    onClick={() => props.onDisable(endpoint)}
                  >
                    Disable
                  </Button>
                </>
              ) : null}
            </div>
          ),
        },
      ]}
    />
  );
}

/** Asks before disabling an endpoint, then disables it. */
function DisableDialog(props: { endpoint: WebhookEndpoint | undefined; onClose: () => void; onDisabled: () => void }) {
  return (
    <ConfirmDialog
      open={props.endpoint !== undefined}
      title="Disable endpoint"
      confirmLabel="Disable endpoint"
      onClose={props.onClose}
      onConfirm={() => {
        const endpoint = props.endpoint;
        if (endpoint === undefined) return;
        void act(async () => {
          await deleteWebhookEndpoint(endpoint.id);
          toast("Endpoint disabled.");
          props.onDisabled();
        }, "The endpoint could not be disabled.");
      }}
    >
      <p>
        Disable <code>{props.endpoint?.url}</code>? It gets no more deliveries.
      </p>
    </ConfirmDialog>
  );
}

function RollSecretDialog(props: {
  endpoint: WebhookEndpoint | undefined;
  onClose: () => void;
  onRoll: (endpoint: WebhookEndpoint, overlapSeconds: number) => void;
}) {
  const [overlap, setOverlap] = useState("86400");
  return (
    <Dialog open={props.endpoint !== undefined} title="Roll signing secret" onClose={props.onClose}>
      <p>
        A new secret signs every delivery from now on. Until the old one stops, deliveries carry both signatures, so
        your server can switch without missing any.
      </p>
      <SelectField label="Old secret stops signing" value={overlap} onValue={setOverlap} options={OVERLAP_CHOICES} />
      <div class="dialog-actions">
        <Button onClick={props.onClose}>Cancel</Button>
        <Button
          variant="primary"
          onClick={() => props.endpoint !== undefined && props.onRoll(props.endpoint, Number(overlap))}
        >
          Roll secret
        </Button>
      </div>
    </Dialog>
  );
}
