import type { World } from "../../kernel/world.ts";
import type { DueTable } from "../../platform/db/due-claims.ts";
import { type Queryable, sql, type Transaction } from "../../platform/db/pool.ts";
import { type RowKey, transferRowQueries } from "../money-out/index.ts";
import { type BankChangeRow, bankChangeRowSchema, type WithdrawalRow, withdrawalRowSchema } from "./schemas.ts";

// Withdrawal codes.

const WITHDRAWAL_COLUMNS = sql.fragment`merchant_id, id, livemode, status, amount_cents, currency, code, reference,
  gateway_reference, qr_png_data_url, expires_at, redeemed_at, customer_msisdn, last_inquiry_at, inquiry_count,
  created_at, updated_at`;
/** The same columns of the updated row, in an UPDATE … FROM (where the bare names are ambiguous). */
const WITHDRAWAL_COLUMNS_OF_P = sql.fragment`p.merchant_id, p.id, p.livemode, p.status, p.amount_cents, p.currency,
  p.code, p.reference, p.gateway_reference, p.qr_png_data_url, p.expires_at, p.redeemed_at, p.customer_msisdn,
  p.last_inquiry_at, p.inquiry_count, p.created_at, p.updated_at`;

/**
 * A pending code, with its first poll `firstPollInMs` after its creation unless that would not come
 * before its expiry (then none: the expiry's last inquiry is its only one), and the trace its polls
 * continue. The gateway-poller's batch job finds it through the due-poll index: a creation enqueues
 * no job. The QR image is drawn from the code when the code is shown, not stored: the column gets ''
 * (NOT NULL, read by the release before this one; docs/operations.md, pending contractions).
 */
export async function insertWithdrawal(
  transaction: Transaction,
  withdrawal: Pick<
    WithdrawalRow,
    "merchant_id" | "id" | "livemode" | "amount_cents" | "currency" | "code" | "reference" | "gateway_reference"
  > & { expiresInMs: number; firstPollInMs: number; traceparent: string | null },
): Promise<WithdrawalRow> {
  const firstPoll =
    withdrawal.firstPollInMs < withdrawal.expiresInMs
      ? sql.fragment`now() + ${withdrawal.firstPollInMs} * interval '1 millisecond'`
      : sql.fragment`NULL`;
  return transaction.one(sql.type(withdrawalRowSchema)`
    INSERT INTO withdrawal_codes (merchant_id, id, livemode, status, amount_cents, currency, code, reference,
      gateway_reference, qr_png_data_url, expires_at, next_poll_at, traceparent)
    VALUES (${withdrawal.merchant_id}, ${withdrawal.id}, ${withdrawal.livemode}, 'pending', ${withdrawal.amount_cents},
      ${withdrawal.currency}, ${withdrawal.code}, ${withdrawal.reference}, ${withdrawal.gateway_reference},
      '', now() + ${withdrawal.expiresInMs} * interval '1 millisecond', ${firstPoll}, ${withdrawal.traceparent})
    RETURNING ${WITHDRAWAL_COLUMNS}`);
}

export async function selectWithdrawal(database: Queryable, world: World, id: string): Promise<WithdrawalRow | null> {
  return database.maybeOne(sql.type(withdrawalRowSchema)`
    SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawal_codes
    WHERE merchant_id = ${world.merchantId} AND livemode = ${world.livemode} AND id = ${id}`);
}

export async function selectWithdrawalByKey(database: Queryable, key: RowKey): Promise<WithdrawalRow | null> {
  return database.maybeOne(sql.type(withdrawalRowSchema)`
    SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawal_codes WHERE merchant_id = ${key.merchantId} AND id = ${key.id}`);
}

/** The right to ask the gateway about a pending code now: at most once per interval across replicas. */
export async function claimWithdrawalInquiry(
  database: Queryable,
  key: RowKey & { minIntervalMs: number },
): Promise<WithdrawalRow | null> {
  return database.maybeOne(sql.type(withdrawalRowSchema)`
    UPDATE withdrawal_codes SET last_inquiry_at = now(), inquiry_count = inquiry_count + 1
    WHERE merchant_id = ${key.merchantId} AND id = ${key.id} AND status = 'pending'
      AND (last_inquiry_at IS NULL OR last_inquiry_at <= now() - ${key.minIntervalMs} * interval '1 millisecond')
    RETURNING ${WITHDRAWAL_COLUMNS}`);
}

/** The withdrawal codes as a table polled and expired in batches (`src/platform/db/due-claims.ts`). */
export const DUE_WITHDRAWALS: DueTable<typeof withdrawalRowSchema.shape> = {
  table: "withdrawal_codes",
  columnsOfP: WITHDRAWAL_COLUMNS_OF_P,
  row: withdrawalRowSchema,
};

/**
 * `pending → redeemed`; null when it was no longer pending (someone else won). With `onlyBeforeExpiry`
 * (the test world's claim hook, acting as the network would) a code past its expiry cannot be claimed;
 * a claim the gateway reports is honoured whenever it is learnt.
 */
export async function redeemWithdrawal(
  transaction: Transaction,
  withdrawal: RowKey & { redeemedAt: Date; customerMsisdn: string | null; onlyBeforeExpiry: boolean },
): Promise<WithdrawalRow | null> {
  const beforeExpiry = withdrawal.onlyBeforeExpiry ? sql.fragment`AND expires_at > now()` : sql.fragment``;
  return transaction.maybeOne(sql.type(withdrawalRowSchema)`
    UPDATE withdrawal_codes SET status = 'redeemed', redeemed_at = ${withdrawal.redeemedAt.toISOString()}::timestamptz,
      customer_msisdn = ${withdrawal.customerMsisdn}, updated_at = now()
    WHERE merchant_id = ${withdrawal.merchantId} AND id = ${withdrawal.id} AND status = 'pending' ${beforeExpiry}
    RETURNING ${WITHDRAWAL_COLUMNS}`);
}

/** `pending → expired`, only once `expires_at` has passed on the database clock (unless the gateway said so). */
export async function expireWithdrawal(
  transaction: Transaction,
  withdrawal: RowKey & { onlyWhenDue: boolean },
): Promise<WithdrawalRow | null> {
  const due = withdrawal.onlyWhenDue ? sql.fragment`AND expires_at <= now()` : sql.fragment``;
  return transaction.maybeOne(sql.type(withdrawalRowSchema)`
    UPDATE withdrawal_codes SET status = 'expired', updated_at = now()
    WHERE merchant_id = ${withdrawal.merchantId} AND id = ${withdrawal.id} AND status = 'pending' ${due}
    RETURNING ${WITHDRAWAL_COLUMNS}`);
}

// Change-to-wallet.

const BANK_CHANGE_COLUMNS = sql.fragment`merchant_id, id, livemode, idempotency_key, status, amount_cents, currency,
  destination_msisdn, recipient_name, narration, reference, gateway_reference, failure_reason, debit_transaction_id,
  attempts, last_attempt_at, lease_until, completed_at, failed_at, created_at, updated_at`;

/** A reserved change: `processing`, its lease taken and its first attempt counted. */
export async function insertBankChange(
  transaction: Transaction,
  change: Pick<
    BankChangeRow,
    | "merchant_id"
    | "id"
    | "livemode"
    | "idempotency_key"
    | "amount_cents"
    | "currency"
    | "destination_msisdn"
    | "narration"
    | "reference"
    | "debit_transaction_id"
  > & { leaseMs: number },
): Promise<BankChangeRow> {
  return transaction.one(sql.type(bankChangeRowSchema)`
    INSERT INTO bank_changes (merchant_id, id, livemode, idempotency_key, status, amount_cents, currency,
      destination_msisdn, narration, reference, debit_transaction_id, attempts, last_attempt_at, lease_until)
    VALUES (${change.merchant_id}, ${change.id}, ${change.livemode}, ${change.idempotency_key}, 'processing',
      ${change.amount_cents}, ${change.currency}, ${change.destination_msisdn}, ${change.narration}, ${change.reference},
      ${change.debit_transaction_id}, 1, now(), now() + ${change.leaseMs} * interval '1 millisecond')
    RETURNING ${BANK_CHANGE_COLUMNS}`);
}

/** The reads, lease, attempt and failure of a bank change, as every instant transfer has them. */
export const bankChangeRows = transferRowQueries({
  name: "bank_changes",
  columns: BANK_CHANGE_COLUMNS,
  row: bankChangeRowSchema,
});

export async function completeBankChange(
  transaction: Transaction,
  change: RowKey & { gatewayReference: string; recipientName: string; completedAt: Date },
): Promise<BankChangeRow | null> {
  return transaction.maybeOne(sql.type(bankChangeRowSchema)`
    UPDATE bank_changes SET status = 'completed', gateway_reference = ${change.gatewayReference},
      recipient_name = ${change.recipientName}, completed_at = ${change.completedAt.toISOString()}::timestamptz,
      lease_until = NULL, updated_at = now()
    WHERE merchant_id = ${change.merchantId} AND id = ${change.id} AND status = 'processing'
    RETURNING ${BANK_CHANGE_COLUMNS}`);
}
