import { sql, type Transaction } from "../../platform/db/pool.ts";
import { type RowKey, transferRowQueries } from "../money-out/index.ts";
import { type UtilityPaymentRow, utilityPaymentRowSchema } from "./schemas.ts";

const COLUMNS = sql.fragment`merchant_id, id, livemode, idempotency_key, status, provider, provider_product, amount_cents,
  fee_cents, commission_cents, currency, destination_account, narration, additional_data, reference,
  provider_reference, token, receipt, failure_reason, debit_transaction_id, attempts, last_attempt_at, lease_until,
  completed_at, failed_at, created_at, updated_at`;

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

/** The reads, lease, attempt and failure of a utility payment, as every instant transfer has them. */
export const utilityPaymentRows = transferRowQueries({
  name: "utility_payments",
  columns: COLUMNS,
  row: utilityPaymentRowSchema,
});

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
