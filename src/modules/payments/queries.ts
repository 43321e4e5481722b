import type { FragmentSqlToken } from "slonik";
import { z } from "zod";
import { type NewestFirstFilter, newestFirstConditions } from "../../platform/db/newest-first.ts";
import { type Queryable, sql, type Transaction } from "../../platform/db/pool.ts";
import { type PaymentRow, type PaymentStatus, paymentRowSchema } from "./schemas.ts";

const PAYMENT_COLUMNS = sql.fragment`merchant_id, id, livemode, status, amount_cents, currency, fee_cents, narration,
  merchant_ref, metadata, success_url, cancel_url, reference, code, gateway_reference, qr_png_data_url, expires_at,
  paid_at, payer_msisdn, failure_reason, last_inquiry_at, inquiry_count, created_at, updated_at`;

type World = { merchantId: string; livemode: boolean };

/** The jobs of a pending payment: its first poll and its expiry (at `expires_at`). */
export type PaymentJobs = {
  poll: { task: string; delayMs: number; maxAttempts: number };
  expiry: { task: string; maxAttempts: number };
};

/**
 * Inserts a pending payment, as a prepared statement (planning it costs more than running it), one
 * shape per combination of options:
 * - `jobs`: enqueue the payment's jobs in the same statement (`traceparent`: the creating request's
 *   trace, continued by both jobs); null when the caller enqueues them after commit.
 * - `storeResponse` (a statement returning a row when it stored the idempotent response): the
 *   insert happens only if it did, and the statement is the request's whole transaction.
 * Returns null when nothing was written.
 */
export async function insertPayment(
  database: Queryable,
  payment: PaymentRow,
  options: {
    jobs: (PaymentJobs & { traceparent: string | null }) | null;
    storeResponse: FragmentSqlToken | null;
  },
): Promise<PaymentRow | null> {
  const { jobs } = options;
  const statementName = `payments_insert${jobs === null ? "" : "_with_jobs"}${options.storeResponse === null ? "" : "_and_response"}`;
  const withJobs =
    jobs === null
      ? sql.fragment``
      : sql.fragment`,
    jobs AS (
      SELECT graphile_worker.add_jobs(ARRAY[
        ROW(${jobs.poll.task}, json_strip_nulls(json_build_object('merchant_id', merchant_id, 'payment_id', id,
            'attempt', 0, 'traceparent', ${jobs.traceparent}::text)), NULL,
          now() + ${jobs.poll.delayMs} * interval '1 millisecond', ${jobs.poll.maxAttempts}, 'payment_poll:' || id,
          NULL, NULL)::graphile_worker.job_spec,
        ROW(${jobs.expiry.task}, json_strip_nulls(json_build_object('merchant_id', merchant_id, 'payment_id', id,
            'traceparent', ${jobs.traceparent}::text)), NULL,
          expires_at, ${jobs.expiry.maxAttempts}, 'payment_expiry:' || id, NULL, NULL)::graphile_worker.job_spec
      ]) FROM inserted)`;
  const jobsEnqueued = jobs === null ? sql.fragment`` : sql.fragment`WHERE (SELECT count(*) FROM jobs) = 2`;
  // INSERT … SELECT types its values from the SELECT list, hence the casts.
  return database.maybeOne(sql.prepared(statementName, paymentRowSchema)`
    WITH stored AS (${options.storeResponse ?? sql.fragment`SELECT 1`}),
    inserted AS (
      INSERT INTO payments (merchant_id, id, livemode, status, amount_cents, currency, fee_cents, narration, merchant_ref,
        metadata, success_url, cancel_url, reference, code, gateway_reference, qr_png_data_url, expires_at, created_at,
        updated_at)
      SELECT ${payment.merchant_id}::text, ${payment.id}::text, ${payment.livemode}::boolean, 'pending',
        ${payment.amount_cents}::bigint, ${payment.currency}::text, ${payment.fee_cents}::bigint,
        ${payment.narration}::text, ${payment.merchant_ref}::text, ${sql.jsonb(payment.metadata as never)},
        ${payment.success_url}::text, ${payment.cancel_url}::text, ${payment.reference}::text, ${payment.code}::text,
        ${payment.gateway_reference}::text, ${payment.qr_png_data_url}::text,
        ${payment.expires_at.toISOString()}::timestamptz, ${payment.created_at.toISOString()}::timestamptz,
        ${payment.created_at.toISOString()}::timestamptz
      WHERE EXISTS (SELECT 1 FROM stored)
      RETURNING ${PAYMENT_COLUMNS})${withJobs}
    SELECT ${PAYMENT_COLUMNS} FROM inserted ${jobsEnqueued}`);
}

export type PaymentToSchedule = {
  merchant_id: string;
  id: string;
  expires_at: Date;
  traceparent: string | null;
};

/**
 * Enqueues the jobs of many payments in one statement (one NOTIFY for all: graphile-worker
 * notifies per call, and PostgreSQL serializes committing transactions that notify). Its commit
 * does not wait for the WAL flush: jobs lost in a crash are found missing and enqueued again by
 * `selectUnscheduledPayments`' sweep. A job key replaces a waiting job rather than adding one.
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
    enqueued AS (
      SELECT graphile_worker.add_jobs(ARRAY(
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
        FROM scheduled)) AS job),
    commit_mode AS (SELECT set_config('synchronous_commit', 'off', true))
    SELECT count(*)::integer AS enqueued FROM enqueued, commit_mode`);
}

/**
 * Pending payments older than `olderThanMs` without an expiry job: their jobs were lost (the
 * process died between the payment's commit and the enqueue). Found through the pending-code index.
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
  const conditions = newestFirstConditions(filter);
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
