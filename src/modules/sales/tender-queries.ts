import type { FragmentSqlToken } from "slonik";
import { z } from "zod";
import { type Queryable, sql, type Transaction } from "../../platform/db/pool.ts";
import { SALE_FINISHED_CHANNEL, text } from "./queries.ts";
import { type SaleTenderRow, saleTenderRowSchema } from "./tender-schemas.ts";

/** A split sale's tenders (`sale_tenders`): written with the sale or added to it, ended with their payments. */

const TENDER_COLUMNS = sql.fragment`merchant_id, sale_id, position, livemode, kind, status, currency, amount_cents,
  credit_cents, contributed_cents, exchange_rate_id, other_per_base_micros, change_currency, change_cents, payment_id,
  shift_id, created_at`;

export type TenderToInsert = Omit<SaleTenderRow, "created_at">;

export async function insertTenders(transaction: Transaction, rows: readonly TenderToInsert[]): Promise<void> {
  const column = (pick: (row: TenderToInsert) => string | number | boolean | null) => rows.map(pick);
  await transaction.query(sql.unsafe`
    INSERT INTO sale_tenders (merchant_id, sale_id, position, livemode, kind, status, currency, amount_cents,
      credit_cents, contributed_cents, exchange_rate_id, other_per_base_micros, change_currency, change_cents,
      payment_id, shift_id)
    SELECT * FROM unnest(
      ${text(column((row) => row.merchant_id) as string[])}::text[], ${text(column((row) => row.sale_id) as string[])}::text[],
      ${sql.array(column((row) => row.position) as number[], "int4")}::int4[],
      ${sql.array(column((row) => row.livemode) as boolean[], "bool")}::bool[],
      ${text(column((row) => row.kind) as string[])}::text[], ${text(column((row) => row.status) as string[])}::text[],
      ${text(column((row) => row.currency) as string[])}::text[],
      ${sql.array(column((row) => row.amount_cents) as number[], "int8")}::int8[],
      ${sql.array(column((row) => row.credit_cents) as number[], "int8")}::int8[],
      ${sql.array(column((row) => row.contributed_cents) as number[], "int8")}::int8[],
      ${text(column((row) => row.exchange_rate_id) as string[])}::text[],
      ${sql.array(column((row) => row.other_per_base_micros) as number[], "int8")}::int8[],
      ${text(column((row) => row.change_currency) as string[])}::text[],
      ${sql.array(column((row) => row.change_cents) as number[], "int8")}::int8[],
      ${text(column((row) => row.payment_id) as string[])}::text[], ${text(column((row) => row.shift_id) as string[])}::text[])`);
}

/** The tenders of some sales of one merchant, each sale's in the order taken. */
export async function selectTendersOfSales(
  database: Queryable,
  merchantId: string,
  saleIds: readonly string[],
): Promise<readonly SaleTenderRow[]> {
  if (saleIds.length === 0) {
    return [];
  }
  return database.any(sql.type(saleTenderRowSchema)`
    SELECT ${TENDER_COLUMNS} FROM sale_tenders
    WHERE merchant_id = ${merchantId} AND sale_id = ANY(${sql.array(saleIds, "text")})
    ORDER BY sale_id, position`);
}

/** Every tender of the pending sales that the pending tenders paid by `payments` belong to. */
export async function selectTendersOfPendingPayments(
  database: Queryable,
  payments: readonly { merchantId: string; paymentId: string }[],
): Promise<readonly SaleTenderRow[]> {
  return database.any(sql.type(saleTenderRowSchema)`
    SELECT ${TENDER_COLUMNS} FROM sale_tenders
    WHERE (merchant_id, sale_id) IN (
      SELECT t.merchant_id, t.sale_id FROM sale_tenders t JOIN sales s ON s.merchant_id = t.merchant_id AND s.id = t.sale_id
      WHERE (t.merchant_id, t.payment_id) IN (SELECT * FROM unnest(
          ${text(payments.map((payment) => payment.merchantId))}::text[],
          ${text(payments.map((payment) => payment.paymentId))}::text[]))
        AND t.status = 'pending' AND s.status = 'pending')
    ORDER BY sale_id, position`);
}

/**
 * Wallet tenders' ends as a common table expression of the statement that ends their payments,
 * `sales_tenders_ended`: each pending tender paid by one of `tenders`' payments becomes `status`, only
 * when `ended(paymentId)` holds; each end is announced to the requests waiting on its sale.
 */
export function endTendersCte(
  tenders: readonly Pick<SaleTenderRow, "merchant_id" | "payment_id">[],
  status: "paid" | "failed",
  ended: (paymentId: FragmentSqlToken) => FragmentSqlToken,
): FragmentSqlToken {
  return sql.fragment`
    sales_tenders_ended AS (
      UPDATE sale_tenders t SET status = ${status}
      FROM unnest(${text(tenders.map((tender) => tender.merchant_id))}::text[],
        ${text(tenders.map((tender) => tender.payment_id))}::text[]) AS e (merchant_id, payment_id)
      WHERE t.merchant_id = e.merchant_id AND t.payment_id = e.payment_id AND t.status = 'pending'
        AND ${ended(sql.fragment`e.payment_id`)}
      RETURNING t.sale_id, pg_notify(${SALE_FINISHED_CHANNEL}, t.sale_id))`;
}

/** A tender ended on its own (its payment ended without the hook): true when it was pending. */
export async function endTenderAlone(
  transaction: Queryable,
  tender: Pick<SaleTenderRow, "merchant_id" | "payment_id">,
  status: "paid" | "failed",
): Promise<boolean> {
  const ended = await transaction.oneFirst(sql.type(z.object({ ended: z.number().int() }))`
    WITH ${endTendersCte([tender], status, () => sql.fragment`TRUE`)}
    SELECT count(*)::int AS ended FROM sales_tenders_ended`);
  return ended > 0;
}

/** Pending payments inserted on their own (`payments.pendingPaymentsInsert`, ungated): a split sale's wallet tenders'. */
export async function insertPayments(transaction: Transaction, insert: FragmentSqlToken): Promise<void> {
  await transaction.query(sql.unsafe`
    WITH payment_inserted AS (${insert})
    SELECT count(*) FROM payment_inserted`);
}
