import { computed, effect, signal } from "@preact/signals";
import type { Currency } from "../../../src/kernel/money.ts";
import { ApiError, createSale, type NewSale, newIdempotencyKey, type WorldName } from "../../lib/api.ts";
import { saveFile } from "../../lib/download.ts";
import { apiReachable, session } from "../../lib/session.ts";
import { toast } from "../../ui/index.ts";
import { askManager } from "../cashier/manager-approval.ts";
import { refreshSession, sessionIsKept } from "./kept-session.ts";
import { browserOnline, networkUp } from "./network.ts";
import { type OutboxEntry, type OutboxStore, openOutboxStore, type Refusal } from "./store.ts";

/**
 * The outbox every cash sale goes through: written to the browser first (with its Idempotency-Key, a
 * client_sale_id and the time it was rung up), shown as complete at once, then sent. Sends go oldest
 * first, one at a time, at once when a sale is queued, when the browser comes online, at start and on a
 * retry timer with backoff. A passing failure (no network, 5xx, 429, still in flight, the session to
 * renew) keeps the sale queued; a refusal no retry can change (another 4xx) moves it to "needs
 * attention", where it stays until the cashier exports it and dismisses it. A sale refused for want
 * of a manager (a discount over the shop's limit, 403 `manager_required`) waits aside until a manager's
 * PIN approves it, then goes again under its key with the approval. The server records each sale once
 * however often it is sent: the key within 48 hours, the client_sale_id for ever.
 */

/**
 * The backoff between retries after a passing failure: 1 s, doubling, at most 30 s. It is also how soon
 * the till notices the API is back when the browser never said it was offline (the server was down,
 * or a network that drops beyond the router), so it stays short.
 */
const RETRY_DELAY_MS_MIN = 1_000;
const RETRY_DELAY_MS_MAX = 30_000;

export const outboxEntries = signal<readonly OutboxEntry[]>([]);
export const queuedSales = computed(() =>
  outboxEntries.value.filter((entry) => entry.refused === undefined && entry.awaiting_manager === undefined),
);
export const refusedSales = computed(() => outboxEntries.value.filter((entry) => entry.refused !== undefined));
/** Sales the server will take with a manager's approval (a discount over the limit). */
export const salesAwaitingManager = computed(() =>
  outboxEntries.value.filter((entry) => entry.awaiting_manager !== undefined),
);

/**
 * Managers' approvals by the entry's seq, for its next send: an approval lasts 120 s and is bound to
 * this session, so it is kept in memory only; a send that fails for a passing reason keeps it for the
 * retry (the API leaves an approval unused when the request fails).
 */
const approvals = new Map<number, string>();
/**
 * Sales queued while the network was up (sent at once): a manager is asked for at once when such a sale
 * needs one, the cashier and the customer being at the counter. One taken offline waits in the list.
 */
const askAtOnce = new Set<string>();

/**
 * Sales taken at this till and not yet on the server (queued plus needing attention). Screens that end
 * a cashier's work (sign-out, switching cashier, closing the shift) refuse while it is above zero,
 * unless the cashier exports the queue first.
 */
export const unsyncedSales = signal(0);
effect(() => {
  unsyncedSales.value = outboxEntries.value.length;
});

/**
 * The receipt links of the sales this page has sent, by client_sale_id: the completed screen shows a
 * cash sale's receipt once the server has recorded it. Only the latest few are kept.
 */
export const recordedReceiptUrls = signal<ReadonlyMap<string, string | null>>(new Map());
const RECEIPTS_KEPT = 20;

function rememberReceipt(clientSaleId: string, receiptUrl: string | null): void {
  const kept = [...recordedReceiptUrls.value].slice(-(RECEIPTS_KEPT - 1));
  recordedReceiptUrls.value = new Map([...kept, [clientSaleId, receiptUrl]]);
}

let opened: { merchantId: string; store: Promise<OutboxStore> } | undefined;
let draining: Promise<void> | undefined;
let drainWanted = false;
let failures = 0;
let retryTimer: ReturnType<typeof setTimeout> | undefined;

/** Opens the signed-in merchant's outbox, sends what it holds, and keeps sending; returns the stop. */
export function startOutbox(merchantId: string): () => void {
  const current = { merchantId, store: openOutboxStore(merchantId) };
  opened = current;
  void current.store.then(async (store) => {
    const entries = await store.all();
    if (opened !== current) return;
    outboxEntries.value = entries;
    await drain();
  });
  const online = () => {
    // The network is back: the backoff starts afresh.
    failures = 0;
    void drain();
  };
  addEventListener("online", online);
  // The API stopped answering (a catalog read failed, say): ask again on the retry timer, so the till
  // notices it is back (and offers wallet payments again) without waiting for a sale. Answering again
  // while the till runs on the browser's copy of the session: get the real one (its CSRF token) now.
  const stopWatching = effect(() => {
    const reachable = apiReachable.value;
    const kept = sessionIsKept.value;
    if (draining !== undefined) return;
    if (!reachable && retryTimer === undefined) scheduleRetry(undefined);
    // Outside the effect, so the signals the drain reads do not become this effect's.
    if (reachable && kept) queueMicrotask(() => void drain());
  });
  return () => {
    removeEventListener("online", online);
    stopWatching();
    if (opened === current) opened = undefined;
    outboxEntries.value = [];
    clearTimeout(retryTimer);
    retryTimer = undefined;
    failures = 0;
  };
}

async function currentStore(): Promise<OutboxStore> {
  if (opened === undefined) throw new Error("The till is not signed in.");
  return opened.store;
}

/**
 * Queues a cash sale, `body` being the POST /v1/sales request the sell screen built: it gets its
 * client_sale_id and taken_at (now, by this device's clock) and is stored before this resolves. The
 * caller shows the sale as complete then; sending is not awaited.
 */
export async function queueSale(sale: {
  world: WorldName;
  body: NewSale;
  totalCents: number;
  currency: Currency;
}): Promise<OutboxEntry> {
  const store = await currentStore();
  const clientSaleId = crypto.randomUUID();
  const takenAt = new Date().toISOString();
  const entry = await store.add({
    client_sale_id: clientSaleId,
    idempotency_key: newIdempotencyKey(),
    world: sale.world,
    body: { ...sale.body, client_sale_id: clientSaleId, taken_at: takenAt },
    taken_at: takenAt,
    total_cents: sale.totalCents,
    currency: sale.currency,
    attempts: 0,
    last_error: undefined,
    refused: undefined,
    awaiting_manager: undefined,
    exported_at: undefined,
  });
  if (networkUp.value) askAtOnce.add(clientSaleId);
  outboxEntries.value = [...outboxEntries.value, entry];
  void drain();
  return entry;
}

/** Sends the queue now (one run at a time; a call during a run makes it look again before it ends). */
export function drain(): Promise<void> {
  drainWanted = true;
  draining ??= (async () => {
    try {
      while (drainWanted) {
        drainWanted = false;
        await sendQueued();
      }
    } finally {
      draining = undefined;
    }
  })();
  return draining;
}

type Outcome =
  | { kind: "recorded"; receiptUrl: string | null }
  | { kind: "refused"; refusal: Refusal }
  | { kind: "manager"; refusal: Refusal }
  | { kind: "retry"; reason: string; retryAfterMs: number | undefined };

async function sendQueued(): Promise<void> {
  clearTimeout(retryTimer);
  retryTimer = undefined;
  // Offline for sure: the "online" event wakes the outbox; trying now would only fail.
  if (opened === undefined || !browserOnline.value || session.value == null) return;
  const store = await opened.store;
  if (sessionIsKept.value || !apiReachable.value) {
    // Back from offline: confirm the session (and get its CSRF token) before sending a sale with it.
    const confirmed = await refreshSession().then(
      () => undefined,
      (error: unknown) => retryOutcome(error),
    );
    if (confirmed !== undefined) {
      scheduleRetry(confirmed.retryAfterMs);
      return;
    }
    // Signed out meanwhile: the queue waits in the browser for the next sign-in.
    if (session.value === null) return;
  }
  for (;;) {
    const next = queuedSales.value[0];
    if (next === undefined || opened === undefined || (await opened.store) !== store) {
      failures = 0;
      return;
    }
    const outcome = await send(next);
    if (outcome.kind !== "retry") approvals.delete(next.seq);
    if (outcome.kind === "manager") {
      await holdForManager(store, next, outcome.refusal);
    } else if (outcome.kind === "recorded") {
      failures = 0;
      rememberReceipt(next.client_sale_id, outcome.receiptUrl);
      await store.delete(next.seq);
      outboxEntries.value = outboxEntries.value.filter((entry) => entry.seq !== next.seq);
    } else if (outcome.kind === "refused") {
      await update(store, { ...next, refused: outcome.refusal });
      toast(`The server refused a cash sale: ${outcome.refusal.message} Tap "unsynced" to settle it.`, "error");
    } else {
      await update(store, { ...next, attempts: next.attempts + 1, last_error: outcome.reason });
      scheduleRetry(outcome.retryAfterMs);
      return;
    }
  }
}

async function send(entry: OutboxEntry): Promise<Outcome> {
  try {
    const sale = await createSale(entry.body, {
      idempotencyKey: entry.idempotency_key,
      world: entry.world,
      managerApproval: approvals.get(entry.seq),
    });
    return { kind: "recorded", receiptUrl: sale.receipt_url };
  } catch (error) {
    // A 403 that is about the sale, not the session: it waits for a manager, the rest of the queue goes on.
    if (error instanceof ApiError && error.code === "manager_required") {
      return { kind: "manager", refusal: refusalOf(error).refusal };
    }
    return retryOutcome(error) ?? refusalOf(error as ApiError);
  }
}

/** Sets a sale aside for a manager; one rung up online just now asks for the manager's PIN at once. */
async function holdForManager(store: OutboxStore, entry: OutboxEntry, refusal: Refusal): Promise<void> {
  await update(store, { ...entry, awaiting_manager: refusal });
  if (askAtOnce.delete(entry.client_sale_id)) {
    void approveAwaitingSale(entry.seq);
    return;
  }
  toast(`A cash sale needs a manager's approval: ${refusal.message} Tap "unsynced" to approve it.`, "error");
}

/**
 * A manager approves a sale waiting for one (the manager dialog: choose the manager, type the PIN);
 * the sale goes back to the queue and is sent at once, under its Idempotency-Key, with the approval.
 * Cancelled, it keeps waiting.
 */
export async function approveAwaitingSale(seq: number): Promise<void> {
  const entry = outboxEntries.value.find((each) => each.seq === seq);
  const refusal = entry?.awaiting_manager;
  if (entry === undefined || refusal === undefined) return;
  let approval: string;
  try {
    approval = await askManager(
      "discount",
      new ApiError({ status: refusal.status, type: "auth_error", code: refusal.code, message: refusal.message }),
    );
  } catch {
    return;
  }
  approvals.set(seq, approval);
  // Read again: the entry may have changed while the manager typed (an export marks it).
  const current = outboxEntries.value.find((each) => each.seq === seq) ?? entry;
  await update(await currentStore(), { ...current, awaiting_manager: undefined });
  await drain();
}

/** A failure that passes (the network, the server, the session), or undefined for a refusal of the sale. */
function retryOutcome(error: unknown): (Outcome & { kind: "retry" }) | undefined {
  if (!(error instanceof ApiError)) {
    return { kind: "retry", reason: String(error), retryAfterMs: undefined };
  }
  const retryAfterMs = error.retryAfterSeconds === undefined ? undefined : error.retryAfterSeconds * 1000;
  if (error.status === 401 || error.status === 403) {
    // The session, not the sale: the 401 shows the sign-in screen, and a refreshed session is asked for first.
    sessionIsKept.value = true;
    return { kind: "retry", reason: error.message, retryAfterMs };
  }
  if (
    error.type === "network_error" ||
    error.status >= 500 ||
    error.status === 429 ||
    error.code === "idempotency_in_flight"
  ) {
    return { kind: "retry", reason: error.message, retryAfterMs };
  }
  return undefined;
}

function refusalOf(error: ApiError): Outcome & { kind: "refused" } {
  return {
    kind: "refused",
    refusal: { status: error.status, code: error.code, message: error.message, at: new Date().toISOString() },
  };
}

function scheduleRetry(retryAfterMs: number | undefined): void {
  failures += 1;
  const backoffMs = Math.min(RETRY_DELAY_MS_MIN * 2 ** (failures - 1), RETRY_DELAY_MS_MAX);
  clearTimeout(retryTimer);
  retryTimer = setTimeout(
    () => {
      retryTimer = undefined;
      void drain();
    },
    Math.max(retryAfterMs ?? 0, backoffMs),
  );
}

async function update(store: OutboxStore, entry: OutboxEntry): Promise<void> {
  await store.put(entry);
  outboxEntries.value = outboxEntries.value.map((each) => (each.seq === entry.seq ? entry : each));
}

/**
 * Downloads every unsynced sale (queued and needing attention) as JSON, each with the exact request
 * that records it, and marks them exported. Nothing leaves the outbox: queued sales still send.
 */
export async function exportOutbox(): Promise<void> {
  const store = await currentStore();
  const exportedAt = new Date().toISOString();
  const entries = outboxEntries.value;
  const merchant = session.value?.merchant;
  const document = {
    exported_at: exportedAt,
    merchant: merchant === undefined ? null : { id: merchant.id, name: merchant.name },
    sales: entries.map((entry) => ({
      client_sale_id: entry.client_sale_id,
      world: entry.world,
      taken_at: entry.taken_at,
      total_cents: entry.total_cents,
      currency: entry.currency,
      status:
        entry.refused !== undefined
          ? "needs_attention"
          : entry.awaiting_manager !== undefined
            ? "needs_manager"
            : "queued",
      refused: entry.refused ?? entry.awaiting_manager ?? null,
      request: { method: "POST", path: "/v1/sales", idempotency_key: entry.idempotency_key, body: entry.body },
    })),
  };
  saveFile({
    blob: new Blob([`${JSON.stringify(document, null, 2)}\n`], { type: "application/json" }),
    filename: `unsynced-sales-${exportedAt.slice(0, 19).replaceAll(":", "-")}.json`,
  });
  for (const entry of entries) {
    await update(store, { ...entry, exported_at: exportedAt });
  }
}

/** Removes a refused sale the cashier has exported (and so can settle by hand); nothing else is dropped. */
export async function dismissRefused(seq: number): Promise<void> {
  const store = await currentStore();
  const entry = outboxEntries.value.find((each) => each.seq === seq);
  if (entry?.refused === undefined || entry.exported_at === undefined) return;
  await store.delete(seq);
  outboxEntries.value = outboxEntries.value.filter((each) => each.seq !== seq);
}
