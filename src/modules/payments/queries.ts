import { z } from "zod";
import type { World } from "../../kernel/world.ts";
import { type NewestFirstFilter, newestFirstConditions } from "../../platform/db/newest-first.ts";
import { type Queryable, sql, type Transaction } from "../../platform/db/pool.ts";
import { type ResponseToStore, storeResponsesStatement } from "../../platform/idempotency/service.ts";
import { addJobsPlannedPerCall } from "../../platform/queue/add-jobs-batch.ts";
import { type PaymentRow, type PaymentStatus, paymentRowSchema } from "./schemas.ts";

const PAYMENT_COLUMNS = sql.fragment`merchant_id, id, livemode, status, amount_cents, currency, fee_cents, narration,
  merchant_ref, metadata, success_url, cancel_url, reference, code, gateway_reference, qr_png_data_url, expires_at,
  paid_at, payer_msisdn, failure_reason, last_inquiry_at, inquiry_count, created_at, updated_at`;

/** The jobs of a pending payment: its first poll and its expiry (at `expires_at`). */
export type PaymentJobs = {
  poll: { task: string; delayMs: number; maxAttempts: number };
  expiry: { task: string; maxAttempts: number };
};

/**
 * A pending payment to insert, the idempotent response to store with it (null: nothing to store), and
 * the trace its jobs continue.
 */
export type PaymentToInsert = { payment: PaymentRow; response: ResponseToStore | null; traceparent: string | null };

/** The job that enqueues the jobs of the payments one statement inserted. */
export type PaymentSchedulingJob = { task: string; maxAttempts: number };

/**
 * Inserts pending payments in one prepared statement (planning it costs more than running it), with
 * one job that will enqueue their own jobs (`schedulingJob`): the payments and the work they need
 * commit together, and a statement adds one job whatever the number of payments it writes (two per
 * payment cost as much database time as the payments themselves). A payment with a response is
 * inserted only if its response was stored, that is while its request still owns its
 * Idempotency-Key; the statement is then its request's whole transaction. Returns the ids of the
 * payments inserted.
 */
export async function insertPayments(
  database: Queryable,
  rows: readonly PaymentToInsert[],
  schedulingJob: PaymentSchedulingJob,
): Promise<ReadonlySet<string>> {
  const column = <T>(pick: (payment: PaymentRow) => T, type: "text" | "int8" | "bool") =>
    sql.array(
      rows.map((row) => pick(row.payment) as never),
      type,
    );
  const responseColumn = <T>(pick: (response: ResponseToStore) => T, type: "text" | "int4") =>
    sql.array(
      rows.map((row) => (row.response === null ? null : pick(row.response)) as never),
      type,
    );
  const inserted = await database.any(sql.prepared("payments_insert", z.object({ id: z.string() }))`
    WITH pending AS (
      SELECT * FROM unnest(
        ${column((p) => p.merchant_id, "text")}, ${column((p) => p.id, "text")}, ${column((p) => p.livemode, "bool")},
        ${column((p) => p.amount_cents, "int8")}, ${column((p) => p.currency, "text")},
        ${column((p) => p.fee_cents, "int8")}, ${column((p) => p.narration, "text")},
        ${column((p) => p.merchant_ref, "text")}, ${column((p) => JSON.stringify(p.metadata), "text")},
        ${column((p) => p.success_url, "text")}, ${column((p) => p.cancel_url, "text")},
        ${column((p) => p.reference, "text")}, ${column((p) => p.code, "text")},
        ${column((p) => p.gateway_reference, "text")}, ${column((p) => p.qr_png_data_url, "text")},
        ${column((p) => p.expires_at.toISOString(), "text")}, ${column((p) => p.created_at.toISOString(), "text")},
        ${responseColumn((r) => r.key, "text")}, ${responseColumn((r) => r.ownerToken, "text")},
        ${responseColumn((r) => r.status, "int4")}, ${responseColumn((r) => r.body, "text")},
        ${sql.array(
          rows.map((row) => row.traceparent),
          "text",
        )})
      AS p(merchant_id, id, livemode, amount_cents, currency, fee_cents, narration, merchant_ref, metadata, success_url,
        cancel_url, reference, code, gateway_reference, qr_png_data_url, expires_at, created_at,
        idempotency_key, owner_token, response_status, response_body, traceparent)),
    stored AS (${storeResponsesStatement(sql.fragment`
      SELECT merchant_id, livemode, idempotency_key AS key, owner_token, response_status, response_body
      FROM pending WHERE idempotency_key IS NOT NULL`)}),
    inserted AS (
      INSERT INTO payments (merchant_id, id, livemode, status, amount_cents, currency, fee_cents, narration, merchant_ref,
        metadata, success_url, cancel_url, reference, code, gateway_reference, qr_png_data_url, expires_at, created_at,
        updated_at)
      SELECT p.merchant_id, p.id, p.livemode, 'pending', p.amount_cents, p.currency, p.fee_cents, p.narration,
        p.merchant_ref, p.metadata::jsonb, p.success_url, p.cancel_url, p.reference, p.code, p.gateway_reference,
        p.qr_png_data_url, p.expires_at::timestamptz, p.created_at::timestamptz, p.created_at::timestamptz
      FROM pending p
      WHERE p.idempotency_key IS NULL
        OR EXISTS (SELECT 1 FROM stored s
          WHERE s.merchant_id = p.merchant_id AND s.livemode = p.livemode AND s.key = p.idempotency_key)
      RETURNING merchant_id, id),
    scheduling AS (${addJobsPlannedPerCall(
      sql.fragment`ARRAY[ROW(${schedulingJob.task}::text,
        json_build_object('payments', (
          SELECT json_agg(json_strip_nulls(json_build_object('merchant_id', i.merchant_id, 'id', i.id,
            'traceparent', p.traceparent)))
          FROM inserted i JOIN pending p ON p.id = i.id)),
        NULL::text, NULL::timestamptz, ${schedulingJob.maxAttempts}::integer, NULL::text, NULL::integer,
        NULL::text[])::graphile_worker.job_spec]`,
      { onlyWhen: sql.fragment`EXISTS (SELECT 1 FROM inserted)` },
    )})
    SELECT id FROM inserted, (SELECT count(*) FROM scheduling) AS scheduled`);
  return new Set(inserted.map((row) => row.id));
}

export type PaymentToSchedule = {
  merchant_id: string;
  id: string;
  expires_at: Date;
  traceparent: string | null;
};

/**
 * Enqueues the jobs of many payments in one statement (one NOTIFY for all: graphile-worker
 * notifies per call, and PostgreSQL serializes committing transactions that notify). A job key
 * replaces a waiting job rather than adding one.
 */
export async function enqueuePaymentJobs(
  database: Queryable,
  payments: readonly PaymentToSchedule[],
  jobs: PaymentJobs,
): Promise<number> {
  const merchantIds = sql.array(
    payments.map((payment) => payment.merchant_id),
    "text",
  );
  const paymentIds = sql.array(
    payments.map((payment) => payment.id),
    "text",
  );
  const expiresAt = sql.array(
    payments.map((payment) => payment.expires_at.toISOString()),
    "text",
  );
  const traceparents = sql.array(
    payments.map((payment) => payment.traceparent),
    "text",
  );
  return database.oneFirst(sql.prepared("payments_enqueue_jobs", z.object({ enqueued: z.number() }))`
    WITH scheduled AS (
      SELECT merchant_id, id, expires_at::timestamptz, traceparent
      FROM unnest(${merchantIds}, ${paymentIds}, ${expiresAt}, ${traceparents}) AS p(merchant_id, id, expires_at, traceparent)),
    enqueued AS (${addJobsPlannedPerCall(sql.fragment`ARRAY(
        SELECT ROW(${jobs.poll.task}::text, json_strip_nulls(json_build_object('merchant_id', merchant_id,
            'payment_id', id, 'attempt', 0, 'traceparent', traceparent)), NULL::text,
          now() + ${jobs.poll.delayMs} * interval '1 millisecond', ${jobs.poll.maxAttempts}::integer,
          'payment_poll:' || id, NULL::integer, NULL::text[])::graphile_worker.job_spec
        FROM scheduled
        UNION ALL
        SELECT ROW(${jobs.expiry.task}::text, json_strip_nulls(json_build_object('merchant_id', merchant_id,
            'payment_id', id, 'traceparent', traceparent)), NULL::text,
          expires_at, ${jobs.expiry.maxAttempts}::integer, 'payment_expiry:' || id, NULL::integer,
          NULL::text[])::graphile_worker.job_spec
        FROM scheduled)`)})
    SELECT count(*)::integer AS enqueued FROM enqueued`);
}

/** Those of the given payments that are still pending, with their deadlines. */
export async function selectPendingPayments(
  database: Queryable,
  payments: readonly { merchant_id: string; id: string }[],
): Promise<readonly Omit<PaymentToSchedule, "traceparent">[]> {
  return database.any(sql.type(z.object({ merchant_id: z.string(), id: z.string(), expires_at: z.date() }))`
    SELECT p.merchant_id, p.id, p.expires_at
    FROM unnest(${sql.array(
      payments.map((payment) => payment.merchant_id),
      "text",
    )}, ${sql.array(
      payments.map((payment) => payment.id),
      "text",
    )}) AS wanted(merchant_id, id)
    JOIN payments p ON p.merchant_id = wanted.merchant_id AND p.id = wanted.id
    WHERE p.status = 'pending'`);
}

/**
 * Pending payments older than `olderThanMs` without an expiry job: their scheduling job has not run
 * (the gateway-poller pool is down or behind) or failed for good. Found through the pending-code
 * index.
 */
export async function selectUnscheduledPayments(
  database: Queryable,
  options: { olderThanMs: number; limit: number },
): Promise<readonly Omit<PaymentToSchedule, "traceparent">[]> {
  return database.any(sql.type(z.object({ merchant_id: z.string(), id: z.string(), expires_at: z.date() }))`
    SELECT p.merchant_id, p.id, p.expires_at FROM payments p
    WHERE p.status = 'pending' AND p.created_at < now() - ${options.olderThanMs} * interval '1 millisecond'
      AND NOT EXISTS (SELECT 1 FROM graphile_worker.jobs j WHERE j.key = 'payment_expiry:' || p.id)
    ORDER BY p.created_at
    LIMIT ${options.limit}`);
}

export async function selectPayment(database: Queryable, world: World, paymentId: string): Promise<PaymentRow | null> {
  return database.maybeOne(sql.type(paymentRowSchema)`
    SELECT ${PAYMENT_COLUMNS} FROM payments
    WHERE merchant_id = ${world.merchantId} AND livemode = ${world.livemode} AND id = ${paymentId}`);
}

/** By id alone: the hosted checkout knows only the id (its capability). */
export async function selectPaymentById(database: Queryable, paymentId: string): Promise<PaymentRow | null> {
  return database.maybeOne(sql.type(paymentRowSchema)`
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
 * every replica. Null when the payment is no longer pending or was asked about too recently.
 */
export async function claimInquiry(
  database: Queryable,
  payment: { merchantId: string; id: string; minIntervalMs: number },
): Promise<PaymentRow | null> {
  return database.maybeOne(sql.type(paymentRowSchema)`
    UPDATE payments SET last_inquiry_at = now(), inquiry_count = inquiry_count + 1
    WHERE merchant_id = ${payment.merchantId} AND id = ${payment.id} AND status = 'pending'
      AND (last_inquiry_at IS NULL OR last_inquiry_at <= now() - ${payment.minIntervalMs} * interval '1 millisecond')
    RETURNING ${PAYMENT_COLUMNS}`);
}

/** Moves a pending payment to its final state; null when it was no longer pending (someone else won). */
export async function finishPayment(
  transaction: Transaction,
  payment: {
    merchantId: string;
    id: string;
    status: Exclude<PaymentStatus, "pending">;
    paidAt?: Date;
    payerMsisdn?: string | null;
    failureReason?: string;
    /** Expire only once `expires_at` has passed on the database clock (not for mockpay). */
    onlyWhenDue?: boolean;
  },
): Promise<PaymentRow | null> {
  const due = payment.onlyWhenDue === true ? sql.fragment`AND expires_at <= now()` : sql.fragment``;
  return transaction.maybeOne(sql.type(paymentRowSchema)`
    UPDATE payments
    SET status = ${payment.status},
      paid_at = ${payment.paidAt?.toISOString() ?? null}::timestamptz,
      payer_msisdn = ${payment.payerMsisdn ?? null},
      failure_reason = ${payment.failureReason ?? null},
      updated_at = now()
    WHERE merchant_id = ${payment.merchantId} AND id = ${payment.id} AND status = 'pending' ${due}
    RETURNING ${PAYMENT_COLUMNS}`);
}
