import { useState } from "preact/hooks";
import { formatMoney } from "../../../src/kernel/money.ts";
import { formatDateTime } from "../../lib/format.ts";
import { Button, Dialog, toast } from "../../ui/index.ts";
import { networkUp } from "./network.ts";
import {
  approveAwaitingSale,
  dismissRefused,
  drain,
  exportOutbox,
  queuedSales,
  refusedSales,
  salesAwaitingManager,
  unsyncedSales,
} from "./outbox.ts";
import type { OutboxEntry } from "./store.ts";

const describe = (entry: OutboxEntry) =>
  `${formatMoney(entry.currency, entry.total_cents)} cash, taken ${formatDateTime(entry.taken_at)}`;

/**
 * The header's "n unsynced" badge (announced politely when it changes, with "offline" while the API
 * cannot be reached) and the list it opens: sales waiting to be sent, sales waiting for a manager's
 * approval, and sales the server refused, with its message, which the cashier exports and then dismisses.
 */
export function OutboxBadge() {
  const [open, setOpen] = useState(false);
  const count = unsyncedSales.value;
  const attention = refusedSales.value.length + salesAwaitingManager.value.length;
  const online = networkUp.value;
  const label = attention > 0 ? `${count} unsynced (${attention} need attention)` : `${count} unsynced`;
  return (
    <>
      {online ? null : <span class="offline-pill">Offline</span>}
      <button
        type="button"
        class={`button outbox-badge${count > 0 ? " outbox-badge-pending" : ""}${attention > 0 ? " outbox-badge-refused" : ""}`}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        {label}
      </button>
      <span class="visually-hidden" role="status">
        {online ? label : `Offline: ${label}; cash sales are kept and sent later`}
      </span>
      <OutboxDialog open={open} onClose={() => setOpen(false)} />
    </>
  );
}

function OutboxDialog(props: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={props.open} title="Unsynced sales" onClose={props.onClose}>
      <QueuedSales />
      <AwaitingManager />
      <RefusedSales />
      <OutboxActions onClose={props.onClose} />
    </Dialog>
  );
}

function QueuedSales() {
  const queued = queuedSales.value;
  return (
    <>
      <h3>Waiting to be sent ({queued.length})</h3>
      {queued.length === 0 ? (
        <p class="muted">
          {unsyncedSales.value === 0
            ? "Every sale taken here is on the server."
            : "Nothing else is waiting to be sent."}
        </p>
      ) : (
        <>
          <p class="muted">
            {networkUp.value
              ? "Sending, oldest first."
              : "The till is offline: these cash sales are kept in this browser and sent, oldest first, when the network is back."}
          </p>
          <ul class="outbox-list">
            {queued.map((entry) => (
              <li key={entry.seq}>
                {describe(entry)}
                {entry.last_error === undefined ? null : <span class="muted small"> · {entry.last_error}</span>}
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}

/** Sales the server takes once a manager approves them (a discount over the shop's limit). */
function AwaitingManager() {
  const awaiting = salesAwaitingManager.value;
  if (awaiting.length === 0) return null;
  return (
    <section aria-labelledby="outbox-manager">
      <h3 id="outbox-manager">Needs a manager ({awaiting.length})</h3>
      <p class="muted">
        The server takes these sales once a manager approves them with their PIN; they are sent again then.
      </p>
      <ul class="outbox-list">
        {awaiting.map((entry) => (
          <li key={entry.seq} class="outbox-refused">
            <span>
              {describe(entry)}: <strong>{entry.awaiting_manager?.message}</strong>
            </span>
            <Button
              variant="primary"
              disabled={!networkUp.value}
              aria-label={`Approve ${describe(entry)}`}
              onClick={() => void approveAwaitingSale(entry.seq)}
            >
              Approve
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}

function RefusedSales() {
  const refused = refusedSales.value;
  if (refused.length === 0) return null;
  return (
    <section aria-labelledby="outbox-refused">
      <h3 id="outbox-refused">Needs attention ({refused.length})</h3>
      <p class="muted">
        The server refused these sales, so they are not recorded. Export them, settle each by hand (ring it up again, or
        tell the owner), then dismiss it.
      </p>
      <ul class="outbox-list">
        {refused.map((entry) => (
          <li key={entry.seq} class="outbox-refused">
            <span>
              {describe(entry)}: <strong>{entry.refused?.message}</strong>
              <span class="muted small"> ({entry.refused?.code})</span>
            </span>
            <Button
              variant="danger"
              disabled={entry.exported_at === undefined}
              aria-label={`Dismiss ${describe(entry)}`}
              onClick={() => void dismissRefused(entry.seq)}
            >
              Dismiss
            </Button>
            {entry.exported_at === undefined ? <span class="muted small">Export it first.</span> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

function OutboxActions(props: { onClose: () => void }) {
  const [busy, setBusy] = useState(false);
  const exportAll = async () => {
    setBusy(true);
    try {
      await exportOutbox();
    } catch (error) {
      toast(error instanceof Error ? error.message : "The export failed.", "error");
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="dialog-actions">
      <Button busy={busy} disabled={unsyncedSales.value === 0} onClick={exportAll}>
        Export (JSON)
      </Button>
      <Button disabled={queuedSales.value.length === 0 || !networkUp.value} onClick={() => void drain()}>
        Send now
      </Button>
      <Button onClick={props.onClose}>Close</Button>
    </div>
  );
}
