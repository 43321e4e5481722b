import type { World } from "../../kernel/world.ts";
import { type Queryable, sql, type Transaction } from "../../platform/db/pool.ts";
import { type UtilityPaymentRow, utilityPaymentRowSchema } from "./schemas.ts";

const COLUMNS = sql.fragment`merchant_id, id, livemode, idempotency_key, status, provider, provider_product, amount_cents,
  fee_cents, commission_cents, currency, destination_account, narration, additional_data, reference,
  provider_reference, token, receipt, failure_reason, debit_transaction_id, attempts, last_attempt_at, lease_until,
  completed_at, failed_at, created_at, updated_at`;

type RowKey = { merchantId: string; id: string };

/** A reserved payment: `processing`, its lease taken and its first attempt counted. */
export async function insertUtilityPayment(
  transaction: Transaction,
  payment: Pick<
    UtilityPaymentRow,
    | "merchant_id"
    | "id"
    | "livemode"
    | "idempotency_key"
    | "provider"
    | "provider_product"
    | "amount_cents"
    | "fee_cents"
    | "commission_cents"
    | "currency"
    | "destination_account"
    | "narration"
    | "additional_data"
    | "reference"
    | "debit_transaction_id"
  > & { leaseMs: number },
): Promise<UtilityPaymentRow> {
  return transaction.one(sql.type(utilityPaymentRowSchema)`
    INSERT INTO utility_payments (merchant_id, id, livemode, idempotency_key, status, provider, provider_product,
      amount_cents, fee_cents, commission_cents, currency, destination_account, narration, additional_data, reference,
      debit_transaction_id, attempts, last_attempt_at, lease_until)
    VALUES (${payment.merchant_id}, ${payment.id}, ${payment.livemode}, ${payment.idempotency_key}, 'processing',
      ${payment.provider}, ${payment.provider_product}, ${payment.amount_cents}, ${payment.fee_cents},
      ${payment.commission_cents}, ${payment.currency}, ${payment.destination_account}, ${payment.narration},
      ${sql.jsonb(payment.additional_data as never)}, ${payment.reference}, ${payment.debit_transaction_id}, 1, now(),
      now() + ${payment.leaseMs} * interval '1 millisecond')
    RETURNING ${COLUMNS}`);
}

export async function selectUtilityPayment(
  database: Queryable,
  world: World,
  id: string,
): Promise<UtilityPaymentRow | null> {
  return database.maybeOne(sql.type(utilityPaymentRowSchema)`
    SELECT ${COLUMNS} FROM utility_payments
    WHERE merchant_id = ${world.merchantId} AND livemode = ${world.livemode} AND id = ${id}`);
}

export async function selectUtilityPaymentByKey(database: Queryable, key: RowKey): Promise<UtilityPaymentRow | null> {
  return database.maybeOne(sql.type(utilityPaymentRowSchema)`
    SELECT ${COLUMNS} FROM utility_payments WHERE merchant_id = ${key.merchantId} AND id = ${key.id}`);
}

export async function selectUtilityPaymentByIdempotencyKey(
  database: Queryable,
  world: World & { idempotencyKey: string },
): Promise<UtilityPaymentRow | null> {
  return database.maybeOne(sql.type(utilityPaymentRowSchema)`
    SELECT ${COLUMNS} FROM utility_payments
    WHERE merchant_id = ${world.merchantId} AND livemode = ${world.livemode}
      AND idempotency_key = ${world.idempotencyKey}`);
}

export async function claimLease(database: Queryable, key: RowKey & { leaseMs: number }) {
  return database.maybeOne(sql.type(utilityPaymentRowSchema)`
    UPDATE utility_payments SET lease_until = now() + ${key.leaseMs} * interval '1 millisecond', updated_at = now()
    WHERE merchant_id = ${key.merchantId} AND id = ${key.id} AND status = 'processing'
      AND (lease_until IS NULL OR lease_until <= now())
    RETURNING ${COLUMNS}`);
}

export async function recordAttempt(database: Queryable, key: RowKey) {
  return database.maybeOne(sql.type(utilityPaymentRowSchema)`
    UPDATE utility_payments SET attempts = attempts + 1, last_attempt_at = now(), updated_at = now()
    WHERE merchant_id = ${key.merchantId} AND id = ${key.id} AND status = 'processing'
    RETURNING ${COLUMNS}`);
}

export async function releaseLease(database: Queryable, key: RowKey): Promise<void> {
  await database.query(sql.unsafe`
    UPDATE utility_payments SET lease_until = NULL, updated_at = now()
    WHERE merchant_id = ${key.merchantId} AND id = ${key.id} AND status = 'processing'`);
}

export async function completeUtilityPayment(
  transaction: Transaction,
  payment: RowKey & {
    providerReference: string;
    token: string | null;
    receipt: Record<string, string | number | null>;
    completedAt: Date;
  },
): Promise<UtilityPaymentRow | null> {
  return transaction.maybeOne(sql.type(utilityPaymentRowSchema)`
    UPDATE utility_payments SET status = 'completed', provider_reference = ${payment.providerReference},
      token = ${payment.token}, receipt = ${sql.jsonb(payment.receipt)},
      completed_at = ${payment.completedAt.toISOString()}::timestamptz, lease_until = NULL, updated_at = now()
    WHERE merchant_id = ${payment.merchantId} AND id = ${payment.id} AND status = 'processing'
    RETURNING ${COLUMNS}`);
}

export async function failUtilityPayment(
  transaction: Transaction,
  payment: RowKey & { reason: string },
): Promise<UtilityPaymentRow | null> {
  return transaction.maybeOne(sql.type(utilityPaymentRowSchema)`
    UPDATE utility_payments SET status = 'failed', failure_reason = ${payment.reason}, failed_at = now(),
      lease_until = NULL, updated_at = now()
    WHERE merchant_id = ${payment.merchantId} AND id = ${payment.id} AND status = 'processing'
    RETURNING ${COLUMNS}`);
}
