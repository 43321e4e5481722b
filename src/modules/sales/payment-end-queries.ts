import type { FragmentSqlToken } from "slonik";
import { z } from "zod";
import { type Queryable, sql } from "../../platform/db/pool.ts";
import { SALE_COLUMNS, SALE_FINISHED_CHANNEL, text } from "./queries.ts";
import { type SaleRow, saleRowSchema } from "./schemas.ts";

/** The pending sales paid by `payments` (none for an ordinary payment, or one whose sale is final), in no order. */
export async function selectPendingSalesOfPayments(
  database: Queryable,
  payments: readonly { merchantId: string; livemode: boolean; paymentId: string }[],
): Promise<readonly SaleRow[]> {
  return database.any(sql.type(saleRowSchema)`
    SELECT ${SALE_COLUMNS} FROM sales
    WHERE (merchant_id, livemode, payment_id) IN (
        SELECT * FROM unnest(
          ${text(payments.map((payment) => payment.merchantId))}::text[],
          ${sql.array(
            payments.map((payment) => payment.livemode),
            "bool",
          )}::bool[],
          ${text(payments.map((payment) => payment.paymentId))}::text[]))
      AND status = 'pending'`);
}

/**
 * Wallet sales' ends as common table expressions of another statement, the one that ends their
 * payments (`completeSalesCtes`, `cancelSalesCtes`): `ctes(ended)`, each sale written only when
 * `ended(paymentId)` holds for its payment; `finished`, the number of sales it ended; `shape`, which
 * tells statements of different SQL text apart (they are prepared). Each sale ended is announced to
 * the requests waiting on it (`SALE_FINISHED_CHANNEL`) by its update's own row.
 */
export type SalesEnd = {
  ctes: (ended: (paymentId: FragmentSqlToken) => FragmentSqlToken) => FragmentSqlToken;
  finished: FragmentSqlToken;
  shape: string;
};

/**
 * Pending wallet sales' completion (`SalesEnd`): the guarded update to `completed` at each sale's
 * `completed_at` (`sales_completed`: only while the sale is pending and its payment ended), then,
 * each gated on its own sale's update (`completed(saleId)`), their `sale.completed` (`effects.events`,
 * an insert) and stock moves (`effects.stockMoves`, CTE entries). Its SQL text is the same whatever
 * the sales (arrays).
 */
export function completeSalesCtes(
  sales: readonly (Pick<SaleRow, "merchant_id" | "id" | "payment_id"> & { completed_at: Date })[],
  effects: {
    events: (completed: (saleId: FragmentSqlToken) => FragmentSqlToken) => FragmentSqlToken;
    stockMoves: (completed: (saleId: FragmentSqlToken) => FragmentSqlToken) => FragmentSqlToken;
  },
): SalesEnd {
  const completed = (saleId: FragmentSqlToken) => sql.fragment`${saleId} IN (SELECT id FROM sales_completed)`;
  return {
    ctes: (ended) => sql.fragment`
      sales_completed AS (
        UPDATE sales sl SET status = 'completed', completed_at = c.completed_at
        FROM unnest(
          ${text(sales.map((sale) => sale.merchant_id))}::text[], ${text(sales.map((sale) => sale.id))}::text[],
          ${text(sales.map((sale) => sale.payment_id))}::text[],
          ${text(sales.map((sale) => sale.completed_at.toISOString()))}::timestamptz[])
          AS c (merchant_id, id, payment_id, completed_at)
        WHERE sl.merchant_id = c.merchant_id AND sl.id = c.id AND sl.status = 'pending'
          AND ${ended(sql.fragment`c.payment_id`)}
        RETURNING sl.id, pg_notify(${SALE_FINISHED_CHANNEL}, sl.id)),
      sales_completed_events AS (${effects.events(completed)}),
      ${effects.stockMoves(completed)}`,
    finished: sql.fragment`(SELECT count(*)::int FROM sales_completed)`,
    shape: "sales_completed",
  };
}

/** Pending wallet sales' cancellation (`SalesEnd`), with their payments' unpaid end: nothing moves. */
export function cancelSalesCtes(sales: readonly Pick<SaleRow, "merchant_id" | "id" | "payment_id">[]): SalesEnd {
  return {
    ctes: (ended) => sql.fragment`
      sales_cancelled AS (
        UPDATE sales sl SET status = 'cancelled', cancelled_at = now()
        FROM unnest(
          ${text(sales.map((sale) => sale.merchant_id))}::text[], ${text(sales.map((sale) => sale.id))}::text[],
          ${text(sales.map((sale) => sale.payment_id))}::text[])
          AS c (merchant_id, id, payment_id)
        WHERE sl.merchant_id = c.merchant_id AND sl.id = c.id AND sl.status = 'pending'
          AND ${ended(sql.fragment`c.payment_id`)}
        RETURNING sl.id, pg_notify(${SALE_FINISHED_CHANNEL}, sl.id))`,
    finished: sql.fragment`(SELECT count(*)::int FROM sales_cancelled)`,
    shape: "sales_cancelled",
  };
}

/** Sales' end on its own (their payments ended without it): true when any sale was ended. */
export async function endSales(database: Queryable, end: SalesEnd): Promise<boolean> {
  const finished = await database.oneFirst(sql.prepared(`sales_end_${end.shape}`, finishedSchema)`
    WITH ${end.ctes(() => sql.fragment`TRUE`)}
    SELECT ${end.finished} AS finished`);
  return finished > 0;
}

const finishedSchema = z.object({ finished: z.number().int() });
