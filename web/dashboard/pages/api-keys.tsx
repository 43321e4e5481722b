import { useState } from "preact/hooks";
import { ApiError, type Page } from "../../lib/api.ts";
import { formatDateTime } from "../../lib/format.ts";
import { useResource } from "../../lib/resource.ts";
import { api, stepUp } from "../../lib/session.ts";
import { Button, Dialog, Field, SelectField, Table, toast } from "../../ui/index.ts";
import { Status } from "./shared.tsx";

/** The public key list's shape (GET /v1/api_keys); the secret is never in it. */
type ApiKey = {
  id: string;
  object: "api_key";
  livemode: boolean;
  prefix?: string;
  last4: string;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
  revoked_at: string | null;
  secret_key?: string;
};

const OVERLAPS = [
  { value: "0", label: "Now" },
  { value: "3600", label: "In 1 hour" },
  { value: "86400", label: "In 24 hours" },
  { value: "604800", label: "In 7 days" },
];

type Pending = { kind: "mint"; livemode: boolean } | { kind: "roll"; key: ApiKey; overlapSeconds: number };

/**
 * Keys: the list, minting (a live key asks for the password again unless it was entered in the last
 * 5 minutes), the secret shown once with a copy button, rolling with an overlap, revoking. The secret
 * lives only in this component's state: a reload forgets it.
 */
export function ApiKeysPage() {
  const [keys, reload] = useResource(() => api.get<Page<ApiKey>>("/v1/api_keys", { query: { limit: 100 } }), []);
  const [secret, setSecret] = useState<ApiKey | undefined>(undefined);
  const [stepUpFor, setStepUpFor] = useState<Pending | undefined>(undefined);
  const [rolling, setRolling] = useState<ApiKey | undefined>(undefined);

  const run = async (action: Pending) => {
    try {
      const minted =
        action.kind === "mint"
          ? await api.post<ApiKey>("/v1/api_keys", { livemode: action.livemode })
          : (
              await api.post<{ key: ApiKey }>(`/v1/api_keys/${action.key.id}/roll`, {
                expires_in_seconds: action.overlapSeconds,
              })
            ).key;
      setSecret(minted);
      reload();
    } catch (caught) {
      if (caught instanceof ApiError && caught.code === "step_up_required") {
        setStepUpFor(action);
        return;
      }
      toast(caught instanceof Error ? caught.message : "The key could not be made.", "error");
    }
  };

  return (
    <>
      <h1>API keys</h1>
      <p class="muted">
        Secret keys let your server call the API. Each secret is shown once, right after it is made: copy it into your
        server's configuration.
      </p>
      <div class="row">
        <Button variant="primary" onClick={() => run({ kind: "mint", livemode: true })}>
          Create live key
        </Button>
        <Button onClick={() => run({ kind: "mint", livemode: false })}>Create test key</Button>
      </div>
      <h2>Your keys</h2>
      {keys.state === "loaded" ? (
        <Table
          caption="Secret keys (both worlds)"
          rows={keys.value.data}
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
                    <Button aria-label={`Roll key ending ${key.last4}`} onClick={() => setRolling(key)}>
                      Roll
                    </Button>
                    <Button
                      variant="danger"
                      aria-label={`Revoke key ending ${key.last4}`}
                      onClick={async () => {
                        if (!confirm(`Revoke the key ending ${key.last4}? Requests with it fail at once.`)) return;
                        await api.delete(`/v1/api_keys/${key.id}`);
                        toast("Key revoked.");
                        reload();
                      }}
                    >
                      Revoke
                    </Button>
                  </div>
                ),
            },
          ]}
        />
      ) : keys.state === "failed" && keys.error.status === 404 ? (
        <p class="muted">The key list is not available on this server yet; new keys still appear below once made.</p>
      ) : (
        <Status resource={keys} />
      )}
      <SecretDialog minted={secret} onClose={() => setSecret(undefined)} />
      <RollDialog
        keyToRoll={rolling}
        onClose={() => setRolling(undefined)}
        onRoll={(key, overlapSeconds) => {
          setRolling(undefined);
          void run({ kind: "roll", key, overlapSeconds });
        }}
      />
      <StepUpDialog
        pending={stepUpFor}
        onClose={() => setStepUpFor(undefined)}
        onConfirmed={(pending) => {
          setStepUpFor(undefined);
          void run(pending);
        }}
      />
    </>
  );
}

function SecretDialog(props: { minted: ApiKey | undefined; onClose: () => void }) {
  const [copied, setCopied] = useState(false);
  const secret = props.minted?.secret_key ?? "";
  return (
    <Dialog open={props.minted !== undefined} title="Your new secret key" onClose={props.onClose}>
      <p>
        This is the only time the secret is shown. Copy it now and keep it on your server; it is never sent to a browser
        again.
      </p>
      <div class="secret-box">
        <code class="secret" data-testid="new-secret">
          {secret}
        </code>
        <Button
          onClick={async () => {
            await navigator.clipboard.writeText(secret).catch(() => undefined);
            setCopied(true);
          }}
        >
          {copied ? "Copied" : "Copy"}
        </Button>
      </div>
      <div class="dialog-actions">
        <Button variant="primary" onClick={props.onClose}>
          Done
        </Button>
      </div>
    </Dialog>
  );
}

function RollDialog(props: {
  keyToRoll: ApiKey | undefined;
  onClose: () => void;
  onRoll: (key: ApiKey, overlapSeconds: number) => void;
}) {
  const [overlap, setOverlap] = useState("3600");
  return (
    <Dialog open={props.keyToRoll !== undefined} title="Roll key" onClose={props.onClose}>
      <p>A new key replaces this one. Choose when the old key stops working.</p>
      <SelectField label="Old key stops working" value={overlap} onValue={setOverlap} options={OVERLAPS} />
      <div class="dialog-actions">
        <Button onClick={props.onClose}>Cancel</Button>
        <Button
          variant="primary"
          onClick={() => props.keyToRoll !== undefined && props.onRoll(props.keyToRoll, Number(overlap))}
        >
          Roll key
        </Button>
      </div>
    </Dialog>
  );
}

function StepUpDialog(props: {
  pending: Pending | undefined;
  onClose: () => void;
  onConfirmed: (pending: Pending) => void;
}) {
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  return (
    <Dialog open={props.pending !== undefined} title="Confirm your password" onClose={props.onClose}>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          setBusy(true);
          setError(undefined);
          try {
            await stepUp(password);
            setPassword("");
            if (props.pending !== undefined) props.onConfirmed(props.pending);
          } catch (caught) {
            setError(
              caught instanceof ApiError && caught.status === 401 ? "The password is not correct." : "Try again.",
            );
          } finally {
            setBusy(false);
          }
        }}
      >
        <p>Live keys move real money: enter your password again to continue.</p>
        <Field
          label="Password"
          type="password"
          autocomplete="current-password"
          required
          value={password}
          onValue={setPassword}
          error={error}
        />
        <div class="dialog-actions">
          <Button onClick={props.onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={busy}>
            Confirm
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
