import type { FragmentSqlToken } from "slonik";
import { z } from "zod";
import type { World } from "../../kernel/world.ts";
import { inInputOrder } from "../../platform/db/batch-per-turn.ts";
import { claimInDueOrder } from "../../platform/db/due-order.ts";
import { type NewestFirstFilter, newestFirstConditions } from "../../platform/db/newest-first.ts";
import { type Database, type Queryable, sql, type Transaction } from "../../platform/db/pool.ts";
import { type ResponseToStore, storeResponsesStatement } from "../../platform/idempotency/service.ts";
import { type PayoutRow, type PayoutStatus, payoutRowSchema } from "./schemas.ts";

/** Module-level, as every schema of a statement: zod compiles a schema on its first parse (~50 µs). */
const insertedIdSchema = z.object({ id: z.string() });

const PAYOUT_COLUMNS = sql.fragment`merchant_id, id, livemode, status, amount_cents, currency, destination_account,
  destination_name, reference, gateway_reference, failure_reason, reversal_reason, request_transaction_id,
  confirm_transaction_id, submit_attempts, last_submit_attempt_at, next_attempt_at, lease_until, submitted_at,
  confirmed_at, failed_at, reversed_at, created_at, updated_at`;

const PAYOUT_COLUMNS_OF_P = sql.fragment`p.merchant_id, p.id, p.livemode, p.status, p.amount_cents, p.currency,
  p.destination_account, p.destination_name, p.reference, p.gateway_reference, p.failure_reason, p.reversal_reason,
  p.request_transaction_id, p.confirm_transaction_id, p.submit_attempts, p.last_submit_attempt_at, p.next_attempt_at,
  p.lease_until, p.submitted_at, p.confirmed_at, p.failed_at, p.reversed_at, p.created_at, p.updated_at`;

/** A payout as the processor and operators name it: its merchant and id (the id implies the world). */
type PayoutKey = { merchantId: string; id: string };

/** A requested payout as `POST /v1/payouts` writes it (its answer is presented from this before it is written). */
export type RequestedPayout = Pick<
  PayoutRow,
  | "merchant_id"
  | "id"
  | "livemode"
  | "amount_cents"
  | "currency"
  | "destination_account"
  | "reference"
  | "request_transaction_id"
  | "created_at"
>;

/** A requested payout to write, and its request's answer to store. */
export type PayoutToInsert = {
  payout: RequestedPayout & { traceparent: string | null };
  /** Null on a route that is not idempotent: nothing to store, the row written unconditionally. */
  response: ResponseToStore | null;
};

/**
 * `POST /v1/payouts` in one statement, for the requests of a moment: each request's stored response
 * (only while it still owns its key), its debit (`debits(when)`: the ledger's CTEs of the payouts'
 * request transactions, each to be written only when `when` holds for it, which is once its response
 * is stored) and its payout, due for the processor at once (written only with its debit), as
 * data-modifying CTEs; one round trip and one commit for all of them. Returns the ids of the payouts
 * written (a request that had lost its key writes nothing). A debit beyond its balance fails the whole
 * statement on the balance row's lock; rows are written in the order given (callers order them by
 * merchant, so that concurrent statements take balance locks in one order).
 */
export async function insertRequestedPayouts(
  database: Queryable,
  rows: readonly PayoutToInsert[],
  debits: (when: FragmentSqlToken) => FragmentSqlToken,
): Promise<ReadonlySet<string>> {
  const column = <T>(pick: (row: PayoutToInsert) => T, type: "text" | "int8" | "bool" | "int4") =>
    sql.array(
      rows.map((row) => pick(row) as never),
      type,
    );
  const inserted = await database.any(sql.prepared("payouts_request", insertedIdSchema)`
    WITH pending AS (
      SELECT * FROM unnest(
        ${column((r) => r.payout.merchant_id, "text")}::text[], ${column((r) => r.payout.id, "text")}::text[],
        ${column((r) => r.payout.livemode, "bool")}::bool[], ${column((r) => r.payout.amount_cents, "int8")}::int8[],
        ${column((r) => r.payout.currency, "text")}::text[],
        ${column((r) => r.payout.destination_account, "text")}::text[],
        ${column((r) => r.payout.reference, "text")}::text[],
        ${column((r) => r.payout.request_transaction_id, "text")}::text[],
        ${column((r) => r.payout.created_at.toISOString(), "text")}::text[],
        ${column((r) => r.payout.traceparent, "text")}::text[],
        ${column((r) => r.response?.key ?? null, "text")}::text[],
        ${column((r) => r.response?.ownerToken ?? null, "text")}::text[],
        ${column((r) => r.response?.status ?? null, "int4")}::int4[],
        ${column((r) => r.response?.body ?? null, "text")}::text[])
      AS p (merchant_id, id, livemode, amount_cents, currency, destination_account, reference, request_transaction_id,
        created_at, traceparent, idempotency_key, owner_token, response_status, response_body)),
    stored AS (${storeResponsesStatement(sql.fragment`
      SELECT merchant_id, livemode, idempotency_key AS key, owner_token, response_status, response_body
      FROM pending WHERE idempotency_key IS NOT NULL`)}),
    allowed AS (
      SELECT p.* FROM pending p
      WHERE p.idempotency_key IS NULL
        OR EXISTS (SELECT 1 FROM stored s
          WHERE s.merchant_id = p.merchant_id AND s.livemode = p.livemode AND s.key = p.idempotency_key)),
    ${debits(
      sql.fragment`EXISTS (SELECT 1 FROM allowed a WHERE a.merchant_id = c.merchant_id AND a.request_transaction_id = c.id)`,
    )},
    inserted AS (
      INSERT INTO payouts (merchant_id, id, livemode, status, amount_cents, currency, destination_account, reference,
        request_transaction_id, next_attempt_at, created_at, updated_at, traceparent)
      SELECT a.merchant_id, a.id, a.livemode, 'requested', a.amount_cents, a.currency, a.destination_account,
        a.reference, a.request_transaction_id, now(), a.created_at::timestamptz, a.created_at::timestamptz,
        a.traceparent
      FROM allowed a
      JOIN ledger_posted t ON t.merchant_id = a.merchant_id AND t.id = a.request_transaction_id
      RETURNING id)
    SELECT id FROM inserted`);
  return new Set(inserted.map((row) => row.id));
}

export async function selectPayout(database: Queryable, world: World, payoutId: string): Promise<PayoutRow | null> {
  return database.maybeOne(sql.type(payoutRowSchema)`
    SELECT ${PAYOUT_COLUMNS} FROM payouts
    WHERE merchant_id = ${world.merchantId} AND livemode = ${world.livemode} AND id = ${payoutId}`);
}

export async function selectPayoutByKey(database: Queryable, key: PayoutKey): Promise<PayoutRow | null> {
  return database.maybeOne(sql.type(payoutRowSchema)`
    SELECT ${PAYOUT_COLUMNS} FROM payouts WHERE merchant_id = ${key.merchantId} AND id = ${key.id}`);
}

/** By id alone: operators name a payout by its id. */
export async function selectPayoutById(database: Queryable, payoutId: string): Promise<PayoutRow | null> {
  return database.maybeOne(sql.type(payoutRowSchema)`SELECT ${PAYOUT_COLUMNS} FROM payouts WHERE id = ${payoutId}`);
}

export async function selectPayouts(
  database: Queryable,
  filter: NewestFirstFilter & {
    status: PayoutStatus | undefined;
    limit: number;
  },
): Promise<readonly PayoutRow[]> {
  const conditions = newestFirstConditions(sql.identifier(["payouts"]), filter);
  return database.any(sql.type(payoutRowSchema)`
    SELECT ${PAYOUT_COLUMNS} FROM payouts
    WHERE ${sql.join(conditions, sql.fragment` AND `)}
    ORDER BY created_at DESC, id DESC
    LIMIT ${filter.limit}`);
}

/**
 * A payout leased for a pass. `attempt_recorded`: it was requested and never submitted, and the claim
 * itself recorded its first submission attempt (committed with the lease, before anything is sent),
 * so the pass submits at once.
 */
const leasedPayoutSchema = payoutRowSchema.extend({
  traceparent: z.string().nullable(),
  attempt_recorded: z.boolean(),
});
export type LeasedPayout = z.infer<typeof leasedPayoutSchema>;

/**
 * The lease of the payouts in `due` (a CTE of `merchant_id`, `id` and `first_submission`, rows locked):
 * the right to act on each (and call the gateway for it) until the lease ends, its next pass moved
 * to the lease's end (the pass then sets the real one; if its worker dies, the payout falls due again
 * once the lease has lapsed), and, for a payout never submitted, its first submission attempt recorded.
 */
const leaseOf = (leaseMs: number) => sql.fragment`
  UPDATE payouts p SET lease_until = now() + ${leaseMs} * interval '1 millisecond',
    next_attempt_at = now() + ${leaseMs} * interval '1 millisecond',
    submit_attempts = p.submit_attempts + CASE WHEN due.first_submission THEN 1 ELSE 0 END,
    last_submit_attempt_at = CASE WHEN due.first_submission THEN now() ELSE p.last_submit_attempt_at END,
    updated_at = CASE WHEN due.first_submission THEN now() ELSE p.updated_at END
  FROM due
  WHERE p.merchant_id = due.merchant_id AND p.id = due.id
  RETURNING ${PAYOUT_COLUMNS_OF_P}, p.traceparent, due.first_submission AS attempt_recorded`;

/**
 * Takes the lease of one unfinished payout whenever it is due (`leaseOf`). Null when it is final or
 * another worker holds a live lease.
 */
export async function claimLease(
  database: Queryable,
  key: PayoutKey & { leaseMs: number },
): Promise<LeasedPayout | null> {
  return database.maybeOne(sql.type(leasedPayoutSchema)`
    WITH due AS (
      SELECT merchant_id, id, (status = 'requested' AND submit_attempts = 0) AS first_submission FROM payouts
      WHERE merchant_id = ${key.merchantId} AND id = ${key.id} AND status IN ('requested', 'submitted')
        AND (lease_until IS NULL OR lease_until <= now())
      FOR UPDATE)
    ${leaseOf(key.leaseMs)}`);
}

/**
 * The payout-processor's batch claim: up to `limit` unfinished payouts whose next pass is due and
 * whose lease (if any) has lapsed, oldest due first, each leased as `claimLease` leases one. Rows
 * another replica is claiming are skipped (`SKIP LOCKED`), and a claimed row is leased and no longer
 * due once its claim commits: two replicas never claim the same payout's pass. A payout whose worker
 * died mid-pass falls due again when its lease lapses.
 */
export async function claimDuePayouts(
  database: Database,
  options: { leaseMs: number; limit: number },
): Promise<readonly LeasedPayout[]> {
  return claimInDueOrder(database, (transaction) =>
    transaction.any(sql.prepared("payouts_claim_due", leasedPayoutSchema)`
    WITH due AS (
      SELECT merchant_id, id, (status = 'requested' AND submit_attempts = 0) AS first_submission FROM payouts
      WHERE status IN ('requested', 'submitted') AND next_attempt_at <= now()
        AND (lease_until IS NULL OR lease_until <= now())
      ORDER BY next_attempt_at
      LIMIT ${options.limit}
      FOR UPDATE SKIP LOCKED)
    ${leaseOf(options.leaseMs)}`),
  );
}

/**
 * How many unfinished payouts are due for a pass now (lease lapsed), and how long the oldest has
 * waited: the payout-processor's backlog (read through the due index's range).
 */
export async function selectDueBacklog(
  database: Queryable,
): Promise<{ runnableJobs: number; oldestRunnableAgeSeconds: number }> {
  return database.one(sql.type(z.object({ runnableJobs: z.number().int(), oldestRunnableAgeSeconds: z.number() }))`
    SELECT count(*)::int AS "runnableJobs",
      coalesce(extract(epoch FROM now() - min(greatest(next_attempt_at, lease_until))), 0)::float8
        AS "oldestRunnableAgeSeconds"
    FROM payouts
    WHERE status IN ('requested', 'submitted') AND next_attempt_at <= now()
      AND (lease_until IS NULL OR lease_until <= now())`);
}

/**
 * Records a submission before it is sent (committed on its own), so that if its answer never comes
 * back the next pass knows to ask the gateway before submitting again.
 */
export async function recordSubmitAttempt(database: Queryable, key: PayoutKey): Promise<PayoutRow | null> {
  return database.maybeOne(sql.type(payoutRowSchema)`
    UPDATE payouts SET submit_attempts = submit_attempts + 1, last_submit_attempt_at = now(), updated_at = now()
    WHERE merchant_id = ${key.merchantId} AND id = ${key.id} AND status = 'requested'
    RETURNING ${PAYOUT_COLUMNS}`);
}

/** A requested payout the gateway accepted, and when its next pass is due (`markSubmitted`). */
export type SubmittedPayout = PayoutKey & {
  gatewayReference: string;
  destinationName: string | null;
  submittedAt: Date;
  nextAttemptAt: Date;
};

/** A payout a batch statement changed, with the `position` (from 1) of its input among the batch's. */
const payoutAtPositionSchema = payoutRowSchema.extend({ position: z.number().int() });

/**
 * `requested → submitted` for the payouts the gateway accepted, in one statement: each with its
 * gateway reference and its next pass (when the processor should ask how it stands), which ends this
 * worker's lease. Answers, per payout in the order given, its row as submitted, or null when it was
 * no longer requested (nothing written for it). The same SQL text for any number of payouts.
 */
export async function markSubmitted(
  database: Queryable,
  payouts: readonly SubmittedPayout[],
): Promise<(PayoutRow | null)[]> {
  const text = (pick: (payout: SubmittedPayout) => string | null) => sql.array(payouts.map(pick) as string[], "text");
  const rows = await database.any(sql.prepared("payouts_mark_submitted", payoutAtPositionSchema)`
    WITH accepted AS (
      SELECT * FROM unnest(
        ${text((payout) => payout.merchantId)}::text[], ${text((payout) => payout.id)}::text[],
        ${text((payout) => payout.gatewayReference)}::text[], ${text((payout) => payout.destinationName)}::text[],
        ${text((payout) => payout.submittedAt.toISOString())}::timestamptz[],
        ${text((payout) => payout.nextAttemptAt.toISOString())}::timestamptz[])
        WITH ORDINALITY AS a (merchant_id, id, gateway_reference, destination_name, submitted_at, next_attempt_at, position)),
    -- Each payout locked through its key, its status read under the lock, which guards the update: a
    -- status condition on the updated rows let the planner read every unfinished payout through their
    -- partial index and join the batch to each (on statistics that counted few).
    locked AS (
      SELECT a.*, p.status AS status_before
      FROM accepted a
      CROSS JOIN LATERAL (
        SELECT status FROM payouts WHERE merchant_id = a.merchant_id AND id = a.id FOR UPDATE) p)
    UPDATE payouts p SET status = 'submitted', gateway_reference = l.gateway_reference,
      destination_name = coalesce(l.destination_name, p.destination_name), submitted_at = l.submitted_at,
      next_attempt_at = l.next_attempt_at, lease_until = NULL, updated_at = now()
    FROM locked l
    WHERE l.status_before = 'requested' AND p.merchant_id = l.merchant_id AND p.id = l.id
    RETURNING ${PAYOUT_COLUMNS_OF_P}, l.position`);
  return inInputOrder(rows, payouts.length);
}

/** A payout the gateway completed, as observed (`from`: its status when its pass read it), for `markConfirmed`. */
export type CompletedPayout = PayoutKey & {
  from: "requested" | "submitted";
  gatewayReference: string;
  destinationName: string | null;
  submittedAt: Date;
  confirmedAt: Date;
  /** The ledger transaction that moves it (written by the caller's CTEs, gated on `CONFIRMED_IN_BATCH`). */
  confirmTransactionId: string;
};

/** In `markConfirmed`'s statement: true once the payout `id` (SQL text) was confirmed by it. */
const CONFIRMED_IN_BATCH = (id: FragmentSqlToken) =>
  sql.fragment`EXISTS (SELECT 1 FROM confirmed_in_batch confirmed_row WHERE confirmed_row.id = ${id})`;

/**
 * `submitted → confirmed` for many payouts in one statement (`from`: `requested` when the gateway
 * completed one at once, which records its submission in the same update): each payout locked in
 * the order given and updated only if still `from` (`confirmed_in_batch`), then the caller's
 * data-modifying CTEs (`effects`: the ledger's CTEs of the confirmations' movements and the events'
 * CTE, each given the condition of being confirmed, `CONFIRMED_IN_BATCH`), committed together.
 * Answers, per payout in the order given, its row as confirmed, or null when it was no longer `from`
 * (nothing written for it). The same SQL text for any number of payouts.
 */
export async function markConfirmed(
  database: Queryable,
  payouts: readonly CompletedPayout[],
  effects: {
    postings: (when: FragmentSqlToken) => FragmentSqlToken;
    events: (when: (subject: FragmentSqlToken) => FragmentSqlToken) => FragmentSqlToken;
  },
): Promise<(PayoutRow | null)[]> {
  const text = (pick: (payout: CompletedPayout) => string | null) => sql.array(payouts.map(pick) as string[], "text");
  const rows = await database.any(sql.prepared("payouts_confirm", payoutAtPositionSchema)`
    WITH observed AS (
      SELECT * FROM unnest(
        ${text((payout) => payout.merchantId)}::text[], ${text((payout) => payout.id)}::text[],
        ${text((payout) => payout.from)}::text[], ${text((payout) => payout.gatewayReference)}::text[],
        ${text((payout) => payout.destinationName)}::text[],
        ${text((payout) => payout.submittedAt.toISOString())}::timestamptz[],
        ${text((payout) => payout.confirmedAt.toISOString())}::timestamptz[],
        ${text((payout) => payout.confirmTransactionId)}::text[])
        WITH ORDINALITY AS o (merchant_id, id, from_status, gateway_reference, destination_name, submitted_at,
          confirmed_at, confirm_transaction_id, position)),
    -- Each payout locked through its key in turn, in the order given, its status read under the lock
    -- (not a status condition on the updated rows: see markSubmitted).
    locked AS (
      SELECT o.*, p.status AS status_before
      FROM observed o
      CROSS JOIN LATERAL (
        SELECT status FROM payouts WHERE merchant_id = o.merchant_id AND id = o.id FOR UPDATE) p),
    confirmed_in_batch AS (
      UPDATE payouts p SET status = 'confirmed', confirmed_at = l.confirmed_at,
        confirm_transaction_id = l.confirm_transaction_id, lease_until = NULL, updated_at = now(),
        gateway_reference = CASE WHEN l.from_status = 'requested' THEN l.gateway_reference ELSE p.gateway_reference END,
        destination_name = CASE WHEN l.from_status = 'requested' THEN coalesce(l.destination_name, p.destination_name)
          ELSE p.destination_name END,
        submitted_at = CASE WHEN l.from_status = 'requested' THEN l.submitted_at ELSE p.submitted_at END
      FROM locked l
      WHERE l.status_before = l.from_status AND p.merchant_id = l.merchant_id AND p.id = l.id
      RETURNING ${PAYOUT_COLUMNS_OF_P}, l.position),
    ${effects.postings(CONFIRMED_IN_BATCH(sql.fragment`c.source_id`))},
    confirmed_events AS (${effects.events(CONFIRMED_IN_BATCH)})
    SELECT * FROM confirmed_in_batch`);
  return inInputOrder(rows, payouts.length);
}

/** `requested | submitted → failed`. Null when it was already final. */
export async function markFailed(
  transaction: Transaction,
  payout: PayoutKey & { reason: string; gatewayReference: string | null; destinationName: string | null },
): Promise<PayoutRow | null> {
  return transaction.maybeOne(sql.type(payoutRowSchema)`
    UPDATE payouts SET status = 'failed', failure_reason = ${payout.reason}, failed_at = now(),
      gateway_reference = coalesce(${payout.gatewayReference}, gateway_reference),
      destination_name = coalesce(${payout.destinationName}, destination_name), lease_until = NULL, updated_at = now()
    WHERE merchant_id = ${payout.merchantId} AND id = ${payout.id} AND status IN ('requested', 'submitted')
    RETURNING ${PAYOUT_COLUMNS}`);
}

/** `confirmed → reversed`. Null when it was not confirmed. */
export async function markReversed(
  transaction: Transaction,
  payout: PayoutKey & { reason: string | null },
): Promise<PayoutRow | null> {
  return transaction.maybeOne(sql.type(payoutRowSchema)`
    UPDATE payouts SET status = 'reversed', reversed_at = now(), reversal_reason = ${payout.reason}, updated_at = now()
    WHERE merchant_id = ${payout.merchantId} AND id = ${payout.id} AND status = 'confirmed'
    RETURNING ${PAYOUT_COLUMNS}`);
}

/** When the processor should look again; ends this worker's lease. */
export async function scheduleNextAttempt(
  transaction: Queryable,
  payout: PayoutKey & { runAt: Date },
): Promise<PayoutRow | null> {
  return transaction.maybeOne(sql.type(payoutRowSchema)`
    UPDATE payouts SET next_attempt_at = ${payout.runAt.toISOString()}::timestamptz, lease_until = NULL,
      updated_at = now()
    WHERE merchant_id = ${payout.merchantId} AND id = ${payout.id} AND status IN ('requested', 'submitted')
    RETURNING ${PAYOUT_COLUMNS}`);
}
