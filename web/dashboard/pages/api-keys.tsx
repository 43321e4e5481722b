import { useState } from "preact/hooks";
import {
  type ApiKey,
  createApiKey,
  type KeyOverlapSeconds,
  listApiKeys,
  revokeApiKey,
  rollApiKey,
} from "../../lib/api/api-keys.ts";
import type { Page, WorldName } from "../../lib/api.ts";
import { formatDateTime } from "../../lib/format.ts";
import { useResource } from "../../lib/resource.ts";
import { liveAvailable } from "../../lib/session.ts";
import { Button, ConfirmDialog, Dialog, SelectField, Table, toast } from "../../ui/index.ts";
import { OVERLAP_CHOICES } from "../components/overlaps.ts";
import { SecretDialog } from "../components/secret-dialog.tsx";
import { useStepUp } from "../components/step-up.tsx";
import { Status } from "./shared.tsx";

/**
 * Keys: the list, minting (a live key asks for the password again unless it was entered in the last
 * 5 minutes), the secret shown once with a copy button, rolling with an overlap, revoking. The secret
 * lives only in this component's state: a reload forgets it.
 */
export function ApiKeysPage() {
  const [keys, reload] = useResource(bothWorldsKeys, [liveAvailable.value]);
  const [rolling, setRolling] = useState<ApiKey | undefined>(undefined);
  const [revoking, setRevoking] = useState<ApiKey | undefined>(undefined);
  const { secret, setSecret, mint, roll, revoke, stepUp } = useKeyActions(reload);

  return (
    <>
      <h1>API keys</h1>
      <p class="muted">
        Secret keys let your server call the API. Each secret is shown once, right after it is made: copy it into your
        server's configuration.
      </p>
      <div class="row">
        <Button variant="primary" onClick={() => mint(true)}>
          Create live key
        </Button>
        <Button onClick={() => mint(false)}>Create test key</Button>
      </div>
      <h2>Your keys</h2>
      {keys.state === "loaded" ? (
        <KeysTable keys={keys.value.data} onRoll={setRolling} onRevoke={setRevoking} />
      ) : keys.state === "failed" && keys.error.status === 404 ? (
        <p class="muted">The key list is not available on this server yet; new keys still appear below once made.</p>
      ) : (
        <Status resource={keys} />
      )}
      <SecretDialog
        title="Your new secret key"
        secret={secret}
        note="This is the only time the secret is shown. Copy it now and keep it on your server; it is never sent to a browser again."
        onClose={() => setSecret(undefined)}
      />
      <RollDialog
        keyToRoll={rolling}
        onClose={() => setRolling(undefined)}
        onRoll={(key, overlapSeconds) => {
          setRolling(undefined);
          void roll(key, overlapSeconds);
        }}
      />
      <ConfirmDialog
        open={revoking !== undefined}
        title="Revoke key"
        confirmLabel="Revoke key"
        onClose={() => setRevoking(undefined)}
        onConfirm={() => revoking !== undefined && void revoke(revoking)}
      >
        <p>
          Revoke the {revoking?.livemode ? "LIVE" : "TEST"} key ending {revoking?.last4}? Requests with it fail at once.
        </p>
      </ConfirmDialog>
      {stepUp.dialog}
    </>
  );
}

/** Minting, rolling and revoking, each behind the step-up, and the secret a mint or roll shows once. */
function useKeyActions(reload: () => void) {
  const [secret, setSecret] = useState<string | undefined>(undefined);
  const stepUp = useStepUp("Live keys move real money.");

  const mint = (livemode: boolean) =>
    stepUp.run(async () => {
      const minted = await createApiKey({ livemode });
      setSecret(minted.secret_key);
      reload();
    });
  const roll = (key: ApiKey, overlapSeconds: KeyOverlapSeconds) =>
    stepUp.run(async () => {
      const rolled = await rollApiKey(key.id, { expires_in_seconds: overlapSeconds }, { world: worldOf(key) });
      setSecret(rolled.key.secret_key);
      reload();
    });
  const revoke = (key: ApiKey) =>
    stepUp.run(async () => {
      await revokeApiKey(key.id, { world: worldOf(key) });
      toast("Key revoked.");
      reload();
    });
  return { secret, setSecret, mint, roll, revoke, stepUp };
}

/** The keys of both worlds, with a Roll and a Revoke button on each key still in force. */
function KeysTable({
  keys,
  onRoll,
  onRevoke,
}: {
  keys: ApiKey[];
  onRoll: (key: ApiKey) => void;
  onRevoke: (key: ApiKey) => void;
}) {
  return (
    <Table
      caption="Secret keys (both worlds)"
      rows={keys}
      rowKey={(key) => key.id}
      empty="No keys."
      columns={[
        {
          header: "Key",
          cell: (key) => <code>{`${key.prefix ?? (key.livemode ? "sk_live_" : "sk_test_")}…${key.last4}`}</code>,
        },
        { header: "World", cell: (key) => (key.livemode ? "LIVE" : "TEST") },
        { header: "Created", cell: (key) => formatDateTime(key.created_at) },
        { header: "Last used", cell: (key) => formatDateTime(key.last_used_at) },
        {
          header: "Ends",
          cell: (key) =>
            key.revoked_at !== null ? `Revoked ${formatDateTime(key.revoked_at)}` : formatDateTime(key.expires_at),
        },
        {
          header: "Actions",
          cell: (key) =>
            key.revoked_at !== null ? (
              "—"
            ) : (
              <div class="row">
                <Button aria-label={`Roll key ending ${key.last4}`} onClick={() => onRoll(key)}>
                  Roll
                </Button>
                <Button variant="danger" aria-label={`Revoke key ending ${key.last4}`} onClick={() => onRevoke(key)}>
                  Revoke
                </Button>
              </div>
            ),
        },
      ]}
    />
  );
}

/** A key's own world: the /v1 key routes act on the world of the request, so each key goes with its own. */
const worldOf = (key: ApiKey): WorldName => (key.livemode ? "live" : "test");

/**
 * Both worlds' keys, newest first: each world is listed with its own Pos-World header (the routes are
 * world-scoped), LIVE only for a merchant that has it (the API refuses LIVE to a pending merchant).
 */
async function bothWorldsKeys(): Promise<Page<ApiKey>> {
  const list = (world: WorldName) => listApiKeys({ world });
  const pages = await Promise.all(liveAvailable.value ? [list("live"), list("test")] : [list("test")]);
  const data = pages.flatMap((page) => page.data).sort((a, b) => b.created_at.localeCompare(a.created_at));
  return { data, has_more: pages.some((page) => page.has_more), next_cursor: null };
}

function RollDialog(props: {
  keyToRoll: ApiKey | undefined;
  onClose: () => void;
  onRoll: (key: ApiKey, overlapSeconds: KeyOverlapSeconds) => void;
}) {
  const [overlap, setOverlap] = useState("3600");
  return (
    <Dialog open={props.keyToRoll !== undefined} title="Roll key" onClose={props.onClose}>
      <p>A new key replaces this one. Choose when the old key stops working.</p>
      <SelectField label="Old key stops working" value={overlap} onValue={setOverlap} options={OVERLAP_CHOICES} />
      <div class="dialog-actions">
        <Button onClick={props.onClose}>Cancel</Button>
        <Button
          variant="primary"
          onClick={() =>
            props.keyToRoll !== undefined && props.onRoll(props.keyToRoll, Number(overlap) as KeyOverlapSeconds)
          }
        >
          Roll key
        </Button>
      </div>
    </Dialog>
  );
}
