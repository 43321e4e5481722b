import type { FragmentSqlToken } from "slonik";
import { z } from "zod";
import type { World } from "../../kernel/world.ts";
import { inInputOrder } from "../../platform/db/batch-per-turn.ts";
import type { DueTable } from "../../platform/db/due-claims.ts";
import { type NewestFirstFilter, newestFirstConditions } from "../../platform/db/newest-first.ts";
import { type Queryable, sql } from "../../platform/db/pool.ts";
import { type ResponseToStore, storeResponsesStatement } from "../../platform/idempotency/service.ts";
import { type PaymentRow, type PaymentStatus, paymentRowSchema } from "./schemas.ts";

/** Module-level, as every schema of a statement: zod compiles a schema on its first parse (~50 µs). */
const insertedIdSchema = z.object({ id: z.string() });

const PAYMENT_COLUMNS = sql.fragment`merchant_id, id, livemode, status, amount_cents, currency, fee_cents, narration,
  merchant_ref, metadata, success_url, cancel_url, reference, code, gateway_reference, expires_at,
  paid_at, payer_msisdn, failure_reason, last_inquiry_at, inquiry_count, created_at, updated_at, cancelled_at,
  void_state, late_paid_at, late_refund, late_refund_reference`;
/** The same columns of the updated row, in an UPDATE … FROM (where the bare names are ambiguous). */
export const PAYMENT_COLUMNS_OF_P = sql.fragment`p.merchant_id, p.id, p.livemode, p.status, p.amount_cents, p.currency,
  p.fee_cents, p.narration, p.merchant_ref, p.metadata, p.success_url, p.cancel_url, p.reference, p.code,
  p.gateway_reference, p.expires_at, p.paid_at, p.payer_msisdn, p.failure_reason,
  p.last_inquiry_at, p.inquiry_count, p.created_at, p.updated_at, p.cancelled_at, p.void_state, p.late_paid_at,
  p.late_refund, p.late_refund_reference`;

/**
 * A pending payment to insert, the idempotent response to store with it (null: nothing to store), its
 * first poll (null: none before its code window closes), and the trace its polls continue.
 */
export type PaymentToInsert = {
  payment: PaymentRow;
  response: ResponseToStore | null;
  firstPollAt: Date | null;
  traceparent: string | null;
};

/**
 * Inserts pending payments in one prepared statement (planning it costs more than running it), each
 * with its first poll time: the gateway-poller's batch job finds it through the due-poll index, so a
 * creation enqueues no job at all (jobs per payment cost as much database time as the payments
 * themselves, and a job's NOTIFY serialises commits). A payment with a response is
 * inserted only if its response was stored, that is while its request still owns its
 * Idempotency-Key; the statement is then its request's whole transaction. Returns the ids of the
 * payments inserted. The QR image is drawn from the code when the payment is shown, not stored: the
 * column gets '' (NOT NULL, read by the release before this one; docs/operations.md, pending
 * contractions).
 */
export async function insertPayments(
  database: Queryable,
  rows: readonly PaymentToInsert[],
): Promise<ReadonlySet<string>> {
  const responseColumn = <T>(pick: (response: ResponseToStore) => T, type: "text" | "int4") =>
    sql.array(
      rows.map((row) => (row.response === null ? null : pick(row.response)) as never),
      type,
    );
  const inserted = await database.any(sql.prepared("payments_insert", insertedIdSchema)`
    WITH pending AS (
      SELECT * FROM unnest(
        ${pendingPaymentArrays(rows)},
        ${responseColumn((r) => r.key, "text")}, ${responseColumn((r) => r.ownerToken, "text")},
        ${responseColumn((r) => r.status, "int4")}, ${responseColumn((r) => r.body, "text")})
      AS p(${PENDING_PAYMENT_NAMES}, idempotency_key, owner_token, response_status, response_body)),
    stored AS (${storeResponsesStatement(sql.fragment`
      SELECT merchant_id, livemode, idempotency_key AS key, owner_token, response_status, response_body
      FROM pending WHERE idempotency_key IS NOT NULL`)}),
    inserted AS (
      INSERT INTO payments (${INSERTED_COLUMNS})
      SELECT ${PENDING_PAYMENT_VALUES_OF_P}
      FROM pending p
      WHERE p.idempotency_key IS NULL
        OR EXISTS (SELECT 1 FROM stored s
          WHERE s.merchant_id = p.merchant_id AND s.livemode = p.livemode AND s.key = p.idempotency_key)
      RETURNING id)
    SELECT id FROM inserted`);
  return new Set(inserted.map((row) => row.id));
}

const INSERTED_COLUMNS = sql.fragment`merchant_id, id, livemode, status, amount_cents, currency, fee_cents, narration,
  merchant_ref, metadata, success_url, cancel_url, reference, code, gateway_reference, qr_png_data_url, expires_at,
  created_at, updated_at, next_poll_at, traceparent`;

/** A pending payment to insert as part of another module's statement: no response of its own. */
export type PendingPaymentToInsert = Omit<PaymentToInsert, "response">;

/** Pending payments' columns as arrays for `unnest`, named by `PENDING_PAYMENT_NAMES`. */
function pendingPaymentArrays(rows: readonly PendingPaymentToInsert[]): FragmentSqlToken {
  const column = <T>(pick: (payment: PaymentRow) => T, type: "text" | "int8" | "bool") =>
    sql.array(
      rows.map((row) => pick(row.payment) as never),
      type,
    );
  return sql.fragment`
    ${column((p) => p.merchant_id, "text")}, ${column((p) => p.id, "text")}, ${column((p) => p.livemode, "bool")},
    ${column((p) => p.amount_cents, "int8")}, ${column((p) => p.currency, "text")},
    ${column((p) => p.fee_cents, "int8")}, ${column((p) => p.narration, "text")},
    ${column((p) => p.merchant_ref, "text")}, ${column((p) => JSON.stringify(p.metadata), "text")},
    ${column((p) => p.success_url, "text")}, ${column((p) => p.cancel_url, "text")},
    ${column((p) => p.reference, "text")}, ${column((p) => p.code, "text")},
    ${column((p) => p.gateway_reference, "text")},
    ${column((p) => p.expires_at.toISOString(), "text")}, ${column((p) => p.created_at.toISOString(), "text")},
    ${sql.array(
      rows.map((row) => row.firstPollAt?.toISOString() ?? null),
      "text",
    )},
    ${sql.array(
      rows.map((row) => row.traceparent),
      "text",
    )}`;
}

const PENDING_PAYMENT_NAMES = sql.fragment`merchant_id, id, livemode, amount_cents, currency, fee_cents, narration,
  merchant_ref, metadata, success_url, cancel_url, reference, code, gateway_reference, expires_at, created_at,
  next_poll_at, traceparent`;

/** `INSERTED_COLUMNS`' values from a row `p` of `PENDING_PAYMENT_NAMES`. */
const PENDING_PAYMENT_VALUES_OF_P = sql.fragment`p.merchant_id, p.id, p.livemode, 'pending', p.amount_cents,
  p.currency, p.fee_cents, p.narration, p.merchant_ref, p.metadata::jsonb, p.success_url, p.cancel_url, p.reference,
  p.code, p.gateway_reference, '', p.expires_at::timestamptz, p.created_at::timestamptz, p.created_at::timestamptz,
  p.next_poll_at::timestamptz, p.traceparent`;

/**
 * The insert of pending payments, each only when `when(id)` holds (`id`: the SQL value of its id),
 * returning their `id`s: a common table expression of another module's statement whose other effects
 * commit with them (wallet sales'). The same rows as `insertPayments` writes, and the same SQL text for
 * any number of them; a code still payable for another payment fails the whole statement on one of
 * `PAYMENT_UNIQUE_KEYS`.
 */
export function insertPaymentsWhen(
  rows: readonly PendingPaymentToInsert[],
  when: (paymentId: FragmentSqlToken) => FragmentSqlToken,
): FragmentSqlToken {
  return sql.fragment`
    INSERT INTO payments (${INSERTED_COLUMNS})
    SELECT ${PENDING_PAYMENT_VALUES_OF_P}
    FROM unnest(${pendingPaymentArrays(rows)}) AS p(${PENDING_PAYMENT_NAMES})
    WHERE ${when(sql.fragment`p.id`)}
    RETURNING id`;
}

/**
 * The unique indexes a new payment's insert can fail on: payable codes (a code issued again while live
 * for another payment of its world) and, far less likely, its random id and reference. Each means
 * "prepare it again", as `insertPendingPayments` treats any of them.
 */
export const PAYMENT_UNIQUE_KEYS: ReadonlySet<string> = new Set([
  "payments_pending_code_key",
  "payments_pkey",
  "payments_id_key",
  "payments_reference_key",
]);

/** The payments as a table polled and expired in batches (`src/platform/db/due-claims.ts`). */
export const DUE_PAYMENTS: DueTable<typeof paymentRowSchema.shape> = {
  table: "payments",
  columnsOfP: PAYMENT_COLUMNS_OF_P,
  row: paymentRowSchema,
};

/**
 * A payment as a merchant names it. Prepared, as the one by id alone: pages and integrations poll
 * them, and planning one took the database three to four times as long as running it (0.2 against
 * 0.05 ms).
 */
export async function selectPayment(database: Queryable, world: World, paymentId: string): Promise<PaymentRow | null> {
  return database.maybeOne(sql.prepared("payments_select", paymentRowSchema)`
    SELECT ${PAYMENT_COLUMNS} FROM payments
    WHERE merchant_id = ${world.merchantId} AND livemode = ${world.livemode} AND id = ${paymentId}`);
}

/** By id alone: the hosted checkout knows only the id (its capability). Prepared (see `selectPayment`). */
export async function selectPaymentById(database: Queryable, paymentId: string): Promise<PaymentRow | null> {
  return database.maybeOne(sql.prepared("payments_select_by_id", paymentRowSchema)`
    SELECT ${PAYMENT_COLUMNS} FROM payments WHERE id = ${paymentId}`);
}

export async function selectPayments(
  database: Queryable,
  filter: NewestFirstFilter & {
    status: PaymentStatus | undefined;
    merchantRef: string | undefined;
    limit: number;
  },
): Promise<readonly PaymentRow[]> {
  const conditions = newestFirstConditions(sql.identifier(["payments"]), filter);
  if (filter.merchantRef !== undefined) {
    conditions.push(sql.fragment`merchant_ref = ${filter.merchantRef}`);
  }
  return database.any(sql.type(paymentRowSchema)`
    SELECT ${PAYMENT_COLUMNS} FROM payments
    WHERE ${sql.join(conditions, sql.fragment` AND `)}
    ORDER BY created_at DESC, id DESC
    LIMIT ${filter.limit}`);
}

/**
 * Takes the right to ask the gateway about a pending payment now: at most once per interval across
 * every replica. Null when the payment is no longer pending or was asked about too recently. A
 * cancelled payment whose void the gateway did not confirm is asked about too: its code may be paid.
 */
export async function claimInquiry(
  database: Queryable,
  payment: { merchantId: string; id: string; minIntervalMs: number },
): Promise<PaymentRow | null> {
  return database.maybeOne(sql.type(paymentRowSchema)`
    UPDATE payments SET last_inquiry_at = now(), inquiry_count = inquiry_count + 1
    WHERE merchant_id = ${payment.merchantId} AND id = ${payment.id}
      AND (status = 'pending' OR (status = 'cancelled' AND void_state = 'unconfirmed' AND late_paid_at IS NULL))
      AND (last_inquiry_at IS NULL OR last_inquiry_at <= now() - ${payment.minIntervalMs} * interval '1 millisecond')
    RETURNING ${PAYMENT_COLUMNS}`);
}

/** In `endPaymentsStatement`'s statement: true once the payment `id` (SQL text) was ended by it. */
export const ENDED_IN_BATCH = (id: FragmentSqlToken) =>
  sql.fragment`EXISTS (SELECT 1 FROM ended_in_batch ended_row WHERE ended_row.id = ${id})`;

/** In `endPaymentsStatement`'s statement, for the ledger's postings (`c.source_id`, the payment's id): its payment ended. */
export const POSTING_ENDED_IN_BATCH = ENDED_IN_BATCH(sql.fragment`c.source_id`);

/**
 * A hook's gate in the batch statement: the payment `paymentId` ended in it, and every end's event
 * was recorded before (counting them runs their insert to its end), so that a hook's events follow
 * their payment's.
 */
const ENDED_AND_EVENTS_RECORDED = (paymentId: FragmentSqlToken) =>
  sql.fragment`${ENDED_IN_BATCH(paymentId)} AND (SELECT count(*) FROM ended_events) > 0`;

/** A pending payment's end as observed, for `endPaymentsStatement`. */
export type PaymentEndToWrite = { merchantId: string; id: string; outcome: PaymentEnd };

const endedInBatchSchema = paymentRowSchema.extend({ position: z.number().int() });

/**
 * Many pending payments' ends in one statement (the ends of a moment: settlements, expiries,
 * failures): the guarded update of each (`ended_in_batch`, the payments locked first in the order
 * given, each updated only if still pending and, for an expiry `onlyWhenDue`, past `expires_at` on
 * the database clock), then data-modifying CTEs: their events (`writes.events`, an insert gated on
 * `ENDED_IN_BATCH`, as `ended_events`), what the hooks attach (`writes.effects`, gated on their
 * payment's end and on the events recorded before: their own events follow) and the settlements'
 * ledger movements (`writes.ledger`, CTE entries gated on `POSTING_ENDED_IN_BATCH`). Answers, per
 * end in the order given, its payment as ended, or null when it was no longer pending or not yet due
 * (nothing is written for it). The SQL text is the same for any number and mix of ends; the effects'
 * shapes name what else would change it, as the statement is prepared.
 */
export async function endPaymentsStatement(
  database: Queryable,
  ends: readonly PaymentEndToWrite[],
  writes: { events: FragmentSqlToken; effects: readonly EffectCtes[]; ledger: FragmentSqlToken },
): Promise<(PaymentRow | null)[]> {
  const shape = writes.effects.map((effect) => effect.shape).join("_");
  const text = (pick: (end: PaymentEndToWrite) => string | null) => sql.array(ends.map(pick) as string[], "text");
  const paid = (end: PaymentEndToWrite) => (end.outcome.status === "paid" ? end.outcome : null);
  const name = ["payments_end_batch", ...(shape === "" ? [] : [shape])].join("_");
  const rows = await database.any(sql.prepared(name, endedInBatchSchema)`
    WITH observed AS (
      SELECT * FROM unnest(
        ${text((end) => end.merchantId)}::text[], ${text((end) => end.id)}::text[],
        ${text((end) => end.outcome.status)}::text[],
        ${sql.array(
          ends.map((end) => end.outcome.status === "expired" && end.outcome.onlyWhenDue),
          "bool",
        )}::bool[],
        ${text((end) => paid(end)?.paidAt.toISOString() ?? null)}::timestamptz[],
        ${text((end) => paid(end)?.payerMsisdn ?? null)}::text[],
        ${text((end) => (end.outcome.status === "failed" ? end.outcome.failureReason : null))}::text[],
        ${text((end) => (end.outcome.status === "cancelled" ? end.outcome.voidState : null))}::text[])
        WITH ORDINALITY AS o (merchant_id, id, status, only_when_due, paid_at, payer_msisdn, failure_reason, void_state,
          position)),
    -- Each payment is locked through its key in turn and its status read under that lock, which
    -- guards the update: a status condition on the scanned rows let the planner read every pending
    -- payment through their partial index to find a few (on statistics that counted few pending).
    locked AS (
      SELECT p.merchant_id, p.id, p.status AS status_before, p.expires_at, o.status, o.only_when_due, o.paid_at,
        o.payer_msisdn, o.failure_reason, o.void_state, o.position
      FROM observed o
      CROSS JOIN LATERAL (
        SELECT merchant_id, id, status, expires_at FROM payments WHERE merchant_id = o.merchant_id AND id = o.id
        FOR UPDATE) p),
    ended_in_batch AS (
      UPDATE payments p
      SET status = l.status, paid_at = l.paid_at, payer_msisdn = l.payer_msisdn, failure_reason = l.failure_reason,
        cancelled_at = CASE WHEN l.status = 'cancelled' THEN now() END, void_state = l.void_state, updated_at = now()
      FROM locked l
      WHERE l.status_before = 'pending' AND (NOT l.only_when_due OR l.expires_at <= now())
        AND p.merchant_id = l.merchant_id AND p.id = l.id
      RETURNING ${PAYMENT_COLUMNS_OF_P}, l.position),
    ${sql.join(
      [
        sql.fragment`ended_events AS (${writes.events})`,
        ...writes.effects.map((effect) => effect.ctes(ENDED_AND_EVENTS_RECORDED)),
        writes.ledger,
      ],
      sql.fragment`,
      `,
    )}
    SELECT * FROM ended_in_batch`);
  return inInputOrder(rows, ends.length);
}

/** True in `endPaymentStatement`'s statement once the payment's guarded update ended it. */
export const ENDED = sql.fragment`EXISTS (SELECT 1 FROM ended)`;
/**
 * True once the end's event was recorded (so, ended): the effects' gate, which also orders their
 * events after it (PostgreSQL runs a statement's unreferenced data-modifying CTEs last first).
 */
const END_EVENT_RECORDED = sql.fragment`EXISTS (SELECT 1 FROM end_event)`;

/**
 * How a pending payment ends: paid (as observed), expired (`onlyWhenDue`: once past `expires_at` on the
 * database clock), failed, or cancelled (`voidState`: whether the gateway confirmed its code void).
 */
export type PaymentEnd =
  | { status: "paid"; paidAt: Date; payerMsisdn: string | null }
  | { status: "expired"; onlyWhenDue: boolean }
  | { status: "failed"; failureReason: string }
  | { status: "cancelled"; voidState: "voided" | "unconfirmed" };

/** What other modules write with payments' ends (`hooks.ts`'s `EndEffects`), as this module's statements take it. */
export type EffectCtes = {
  shape: string;
  ctes: (ended: (paymentId: FragmentSqlToken) => FragmentSqlToken) => FragmentSqlToken;
};

/**
 * A pending payment's end and everything it writes, in one statement: the guarded update of the
 * payment (`ended`), then data-modifying CTEs: its event (`event`, gated on `ENDED`), what the hooks
 * attach (`effects`, in order, gated on that event: their own events follow it) and, for a
 * settlement, the ledger movement (`ledger`, gated on `ENDED`). Null when the payment was no longer
 * pending (or, `onlyWhenDue`, not yet due): nothing is written. Prepared per shape (the ledger's
 * presence, the effects' shapes).
 */
export async function endPaymentStatement(
  database: Queryable,
  end: {
    merchantId: string;
    id: string;
    outcome: PaymentEnd;
    event: FragmentSqlToken;
    effects: readonly EffectCtes[];
    ledger: FragmentSqlToken | null;
  },
): Promise<PaymentRow | null> {
  const { effects, outcome } = end;
  const name = [
    "payments_end",
    ...(end.ledger === null ? [] : ["posted"]),
    ...effects.map((effect) => effect.shape),
  ].join("_");
  const paid = outcome.status === "paid" ? outcome : null;
  return database.maybeOne(sql.prepared(name, paymentRowSchema)`
    WITH ended AS (
      UPDATE payments
      SET status = ${outcome.status}, paid_at = ${paid?.paidAt.toISOString() ?? null}::timestamptz,
        payer_msisdn = ${paid?.payerMsisdn ?? null}::text,
        failure_reason = ${outcome.status === "failed" ? outcome.failureReason : null}::text,
        cancelled_at = CASE WHEN ${outcome.status} = 'cancelled' THEN now() END,
        void_state = ${outcome.status === "cancelled" ? outcome.voidState : null}::text, updated_at = now()
      WHERE merchant_id = ${end.merchantId} AND id = ${end.id} AND status = 'pending'
        AND (NOT ${outcome.status === "expired" && outcome.onlyWhenDue}::boolean OR expires_at <= now())
      RETURNING ${PAYMENT_COLUMNS}),
    ${sql.join(
      [
        sql.fragment`end_event AS (${end.event})`,
        ...effects.map((effect) => effect.ctes(() => END_EVENT_RECORDED)),
        ...(end.ledger === null ? [] : [end.ledger]),
      ],
      sql.fragment`,
    `,
    )}
    SELECT * FROM ended`);
}
