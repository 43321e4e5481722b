import type { World } from "../../kernel/world.ts";
import { type NewestFirstFilter, newestFirstConditions } from "../../platform/db/newest-first.ts";
import { type Queryable, sql, type Transaction } from "../../platform/db/pool.ts";
import { type PayoutRow, type PayoutStatus, payoutRowSchema } from "./schemas.ts";

const PAYOUT_COLUMNS = sql.fragment`merchant_id, id, livemode, status, amount_cents, currency, destination_account,
  destination_name, reference, gateway_reference, failure_reason, reversal_reason, request_transaction_id,
  confirm_transaction_id, submit_attempts, last_submit_attempt_at, next_attempt_at, lease_until, submitted_at,
  confirmed_at, failed_at, reversed_at, created_at, updated_at`;

/** A payout as the processor and operators name it: its merchant and id (the id implies the world). */
type PayoutKey = { merchantId: string; id: string };

export async function insertPayout(
  transaction: Transaction,
  payout: Pick<
    PayoutRow,
    | "merchant_id"
    | "id"
    | "livemode"
    | "amount_cents"
    | "currency"
    | "destination_account"
    | "reference"
    | "request_transaction_id"
  >,
): Promise<PayoutRow> {
  return transaction.one(sql.type(payoutRowSchema)`
    INSERT INTO payouts (merchant_id, id, livemode, status, amount_cents, currency, destination_account, reference,
      request_transaction_id, next_attempt_at)
    VALUES (${payout.merchant_id}, ${payout.id}, ${payout.livemode}, 'requested', ${payout.amount_cents},
      ${payout.currency}, ${payout.destination_account}, ${payout.reference}, ${payout.request_transaction_id}, now())
    RETURNING ${PAYOUT_COLUMNS}`);
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
 * Takes the right to act on an unfinished payout (and call the gateway for it) until the lease ends.
 * Null when it is final or another worker holds a live lease.
 */
export async function claimLease(database: Queryable, key: PayoutKey & { leaseMs: number }): Promise<PayoutRow | null> {
  return database.maybeOne(sql.type(payoutRowSchema)`
    UPDATE payouts SET lease_until = now() + ${key.leaseMs} * interval '1 millisecond'
    WHERE merchant_id = ${key.merchantId} AND id = ${key.id} AND status IN ('requested', 'submitted')
      AND (lease_until IS NULL OR lease_until <= now())
    RETURNING ${PAYOUT_COLUMNS}`);
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

/** `requested → submitted`: the gateway accepted it. Null when it was no longer requested. */
export async function markSubmitted(
  transaction: Transaction,
  payout: PayoutKey & { gatewayReference: string; destinationName: string | null; submittedAt: Date },
): Promise<PayoutRow | null> {
  return transaction.maybeOne(sql.type(payoutRowSchema)`
    UPDATE payouts SET status = 'submitted', gateway_reference = ${payout.gatewayReference},
      destination_name = coalesce(${payout.destinationName}, destination_name),
      submitted_at = ${payout.submittedAt.toISOString()}::timestamptz, updated_at = now()
    WHERE merchant_id = ${payout.merchantId} AND id = ${payout.id} AND status = 'requested'
    RETURNING ${PAYOUT_COLUMNS}`);
}

/** `submitted → confirmed` with its ledger transaction. Null when it was no longer submitted. */
export async function markConfirmed(
  transaction: Transaction,
  payout: PayoutKey & { confirmedAt: Date; confirmTransactionId: string },
): Promise<PayoutRow | null> {
  return transaction.maybeOne(sql.type(payoutRowSchema)`
    UPDATE payouts SET status = 'confirmed', confirmed_at = ${payout.confirmedAt.toISOString()}::timestamptz,
      confirm_transaction_id = ${payout.confirmTransactionId}, lease_until = NULL, updated_at = now()
    WHERE merchant_id = ${payout.merchantId} AND id = ${payout.id} AND status = 'submitted'
    RETURNING ${PAYOUT_COLUMNS}`);
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
  transaction: Transaction,
  payout: PayoutKey & { runAt: Date },
): Promise<PayoutRow | null> {
  return transaction.maybeOne(sql.type(payoutRowSchema)`
    UPDATE payouts SET next_attempt_at = ${payout.runAt.toISOString()}::timestamptz, lease_until = NULL,
      updated_at = now()
    WHERE merchant_id = ${payout.merchantId} AND id = ${payout.id} AND status IN ('requested', 'submitted')
    RETURNING ${PAYOUT_COLUMNS}`);
}

/**
 * Unfinished payouts overdue by `graceMs` whose lease has lapsed: their job was lost with a worker
 * (a killed worker's job stays locked for hours in graphile-worker). At most `limit`.
 */
export async function selectStalledPayouts(
  database: Queryable,
  options: { graceMs: number; limit: number },
): Promise<readonly PayoutRow[]> {
  return database.any(sql.type(payoutRowSchema)`
    SELECT ${PAYOUT_COLUMNS} FROM payouts
    WHERE status IN ('requested', 'submitted')
      AND next_attempt_at <= now() - ${options.graceMs} * interval '1 millisecond'
      AND (lease_until IS NULL OR lease_until <= now())
    ORDER BY next_attempt_at
    LIMIT ${options.limit}`);
}
