import { type Queryable, sql } from "../../platform/db/pool.ts";
import { MOVE_COLUMNS } from "./queries.ts";
import {
  type ActorMoveCountRow,
  type ActorNameRow,
  actorMoveCountRowSchema,
  actorNameRowSchema,
  type CashMoveRow,
  cashMoveRowSchema,
  type ZReportSalesRow,
  zReportSalesRowSchema,
} from "./schemas.ts";

/**
 * What a Z report reads beside the shift: names kept by other modules' tables (cashiers, till devices,
 * API keys), read when the report is asked for, so a renamed cashier or till shows its current name.
 */

/** The paired till's name; null for a till that is not paired (it named its drawer itself). */
export async function selectTillName(database: Queryable, merchantId: string, tillId: string): Promise<string | null> {
  return database.maybeOneFirst(sql.type(actorNameRowSchema.pick({ name: true }))`
    SELECT name FROM till_devices WHERE merchant_id = ${merchantId} AND id = ${tillId}`);
}

/**
 * Each actor's name as a person reads it: a till session's actor is its cashier, else its device (the
 * till's name); the owner, at the dashboard or at a till without a cashier, is "Owner"; an API key is
 * "API key …last4".
 */
export async function selectActorNames(
  database: Queryable,
  merchantId: string,
  actors: readonly { type: string; id: string }[],
): Promise<readonly ActorNameRow[]> {
  if (actors.length === 0) {
    return [];
  }
  return database.any(sql.type(actorNameRowSchema)`
    SELECT a.type, a.id, CASE a.type
      WHEN 'api_key' THEN coalesce(
        (SELECT 'API key …' || k.secret_last4 FROM api_keys k WHERE k.merchant_id = ${merchantId} AND k.id = a.id),
        'API key')
      ELSE coalesce(
        (SELECT c.name FROM cashiers c WHERE c.merchant_id = ${merchantId} AND c.id = a.id),
        (SELECT d.name FROM till_devices d WHERE d.merchant_id = ${merchantId} AND d.id = a.id),
        'Owner')
      END AS name
    FROM unnest(${sql.array(
      actors.map((actor) => actor.type),
      "text",
    )}::text[], ${sql.array(
      actors.map((actor) => actor.id),
      "text",
    )}::text[]) AS a (type, id)`);
}

/**
 * Per actor of the shift's moves: their cash sales and refunds (every actor who moved cash, even with
 * none), each counted once however many currencies or tenders its cash was in.
 */
export async function selectActorMoveCounts(
  database: Queryable,
  merchantId: string,
  shiftId: string,
): Promise<readonly ActorMoveCountRow[]> {
  return database.any(sql.type(actorMoveCountRowSchema)`
    SELECT actor_type, actor_id, count(DISTINCT sale_id) FILTER (WHERE kind = 'sale')::int8 AS cash_sales_count,
      count(DISTINCT return_id) FILTER (WHERE kind = 'return')::int8 AS refunds_count
    FROM shift_cash_moves
    WHERE merchant_id = ${merchantId} AND shift_id = ${shiftId}
    GROUP BY actor_type, actor_id
    ORDER BY min(created_at)`);
}

/** The shift's moves other than cash sales, oldest first (the floats, made at one moment, by currency), at most `limit`. */
export async function selectDrawerMoves(
  database: Queryable,
  merchantId: string,
  shiftId: string,
  limit: number,
): Promise<readonly CashMoveRow[]> {
  return database.any(sql.type(cashMoveRowSchema)`
    SELECT ${MOVE_COLUMNS} FROM shift_cash_moves
    WHERE merchant_id = ${merchantId} AND shift_id = ${shiftId} AND kind NOT IN ('sale', 'change')
    ORDER BY created_at, currency, id
    LIMIT ${limit}`);
}

/**
 * The shift's completed sales per currency: count, discounts, tax, and tax per rate summed over the
 * sales' own per-rate figures (each rounded once per sale, so the sums are what the receipts show).
 */
export async function selectShiftSalesTotals(
  database: Queryable,
  merchantId: string,
  shiftId: string,
): Promise<readonly ZReportSalesRow[]> {
  return database.any(sql.type(zReportSalesRowSchema)`
    WITH shift_sales AS (
      SELECT currency, discount_cents, tax_cents, taxes FROM sales
      WHERE merchant_id = ${merchantId} AND shift_id = ${shiftId} AND status = 'completed'),
    by_rate AS (
      SELECT s.currency, (t ->> 'rate_bp')::int AS rate_bp, sum((t ->> 'taxable_cents')::int8) AS taxable_cents,
        sum((t ->> 'tax_cents')::int8) AS tax_cents
      FROM shift_sales s CROSS JOIN LATERAL jsonb_array_elements(s.taxes) AS t
      GROUP BY s.currency, rate_bp)
    SELECT s.currency, count(*)::int8 AS sales_count, sum(s.discount_cents)::int8 AS discount_cents,
      sum(s.tax_cents)::int8 AS tax_cents,
      coalesce((SELECT jsonb_agg(jsonb_build_object('rate_bp', r.rate_bp, 'taxable_cents', r.taxable_cents,
        'tax_cents', r.tax_cents) ORDER BY r.rate_bp) FROM by_rate r WHERE r.currency = s.currency), '[]') AS taxes
    FROM shift_sales s
    GROUP BY s.currency
    ORDER BY s.currency`);
}
