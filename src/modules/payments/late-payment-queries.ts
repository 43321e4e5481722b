import type { FragmentSqlToken } from "slonik";
import { type Queryable, sql } from "../../platform/db/pool.ts";
import { PAYMENT_COLUMNS_OF_P } from "./queries.ts";
import { type PaymentRow, paymentRowSchema } from "./schemas.ts";

/** A payment's key, as the late payment's statements name it. */
type PaymentKey = Pick<PaymentRow, "merchant_id" | "id">;

/**
 * A late payment recorded once (`late`: the guarded update of a cancelled or expired payment whose
 * `late_paid_at` is still unset, setting the payer and a refund due), with what it writes beside,
 * given the gate `late` holds (true once the update won): `effects(gate).event` (a body, named
 * `late_event`) and `effects(gate).posting` (a CTE list). Null when it was recorded before.
 */
export async function updateLatePaid(
  database: Queryable,
  payment: PaymentKey,
  observation: { paidAt: Date; payerMsisdn: string | null },
  effects: (gate: FragmentSqlToken) => { event: FragmentSqlToken; posting: FragmentSqlToken },
): Promise<PaymentRow | null> {
  const { event, posting } = effects(sql.fragment`EXISTS (SELECT 1 FROM late)`);
  return database.maybeOne(sql.type(paymentRowSchema)`
    WITH late AS (
      UPDATE payments p
      SET late_paid_at = ${observation.paidAt.toISOString()}::timestamptz,
        payer_msisdn = ${observation.payerMsisdn}::text, late_refund = 'due', updated_at = now()
      WHERE p.merchant_id = ${payment.merchant_id} AND p.id = ${payment.id}
        AND p.status IN ('cancelled', 'expired') AND p.late_paid_at IS NULL
      RETURNING ${PAYMENT_COLUMNS_OF_P}),
    late_event AS (${event}),
    ${posting}
    SELECT * FROM late`);
}

/** The payment by its key, as it now stands. */
export async function selectPaymentByKey(database: Queryable, payment: PaymentKey): Promise<PaymentRow | null> {
  return database.maybeOne(sql.type(paymentRowSchema)`
    SELECT ${PAYMENT_COLUMNS_OF_P} FROM payments p
    WHERE p.merchant_id = ${payment.merchant_id} AND p.id = ${payment.id}`);
}

/**
 * A late refund taken once (`refunded`: guarded on `due`), with the CTE list `posting(gate)` when
 * there is one (a wallet refund's debit), gated on the update. Null when already taken.
 */
export async function updateLateRefund(
  database: Queryable,
  payment: PaymentKey,
  method: "wallet" | "cash",
  posting: ((gate: FragmentSqlToken) => FragmentSqlToken) | null,
): Promise<PaymentRow | null> {
  const effects =
    posting === null ? sql.fragment`` : sql.fragment`, ${posting(sql.fragment`EXISTS (SELECT 1 FROM refunded)`)}`;
  return database.maybeOne(sql.type(paymentRowSchema)`
    WITH refunded AS (
      UPDATE payments p SET late_refund = ${method}, updated_at = now()
      WHERE p.merchant_id = ${payment.merchant_id} AND p.id = ${payment.id} AND p.late_refund = 'due'
      RETURNING ${PAYMENT_COLUMNS_OF_P})
    ${effects}
    SELECT * FROM refunded`);
}

/**
 * A wallet refund's answer recorded once (`answered`: guarded on a wallet refund without a
 * reference), with the CTE list `posting(gate)` when there is one (the debit undone), gated on it.
 */
export async function updateLateRefundOutcome(
  database: Queryable,
  payment: PaymentKey,
  outcome: { method: "wallet"; reference: string } | { method: "cash" },
  posting: ((gate: FragmentSqlToken) => FragmentSqlToken) | null,
): Promise<PaymentRow | null> {
  const effects =
    posting === null ? sql.fragment`` : sql.fragment`, ${posting(sql.fragment`EXISTS (SELECT 1 FROM answered)`)}`;
  return database.maybeOne(sql.type(paymentRowSchema)`
    WITH answered AS (
      UPDATE payments p
      SET late_refund = ${outcome.method},
        late_refund_reference = ${outcome.method === "wallet" ? outcome.reference : null}::text, updated_at = now()
      WHERE p.merchant_id = ${payment.merchant_id} AND p.id = ${payment.id}
        AND p.late_refund = 'wallet' AND p.late_refund_reference IS NULL
      RETURNING ${PAYMENT_COLUMNS_OF_P})
    ${effects}
    SELECT * FROM answered`);
}
