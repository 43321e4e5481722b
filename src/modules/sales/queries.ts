import type { IdentifierSqlToken } from "slonik";
import { z } from "zod";
import { currencies } from "../../kernel/money.ts";
import type { World } from "../../kernel/world.ts";
import { type NewestFirstFilter, newestFirstConditions } from "../../platform/db/newest-first.ts";
import { type Queryable, sql, type Transaction } from "../../platform/db/pool.ts";
import { type SaleRow, type SaleStatus, saleRowSchema, tenders } from "./schemas.ts";

export const SALE_COLUMNS = sql.fragment`merchant_id, id, livemode, status, tender, currency, total_cents, items, cashier, note,
  payment_id, actor_type, actor_id, client_sale_id, taken_at, till_id, shift_id, receipt_token, created_at, completed_at, cancelled_at`;

/**
 * A cash sale is inserted completed (at its taken_at when the till dated it); a wallet sale pending,
 * beside its payment. Null when the till's client_sale_id is already recorded (by a concurrent replay
 * of the same sale): the unique index decides, after the other transaction commits.
 */
export async function insertSale(
  transaction: Transaction,
  sale: Omit<SaleRow, "taken_at" | "created_at" | "completed_at" | "cancelled_at" | "receipt_token"> & {
    receipt_token: string;
    taken_at: Date | null;
    client_request_fingerprint: Buffer | null;
  },
): Promise<SaleRow | null> {
  const takenAt =
    sale.taken_at === null ? sql.fragment`now()` : sql.fragment`${sale.taken_at.toISOString()}::timestamptz`;
  const completedAt = sale.status === "completed" ? takenAt : sql.fragment`NULL`;
  const fingerprint = sale.client_request_fingerprint === null ? null : sql.binary(sale.client_request_fingerprint);
  return transaction.maybeOne(sql.type(saleRowSchema)`
    INSERT INTO sales (merchant_id, id, livemode, status, tender, currency, total_cents, items, cashier, note, payment_id,
      actor_type, actor_id, client_sale_id, client_request_fingerprint, taken_at, till_id, shift_id, receipt_token,
      completed_at)
    VALUES (${sale.merchant_id}, ${sale.id}, ${sale.livemode}, ${sale.status}, ${sale.tender}, ${sale.currency},
      ${sale.total_cents}, ${sql.jsonb(sale.items)}, ${sale.cashier}, ${sale.note}, ${sale.payment_id},
      ${sale.actor_type}, ${sale.actor_id}, ${sale.client_sale_id}, ${fingerprint}, ${takenAt}, ${sale.till_id},
      ${sale.shift_id}, ${sale.receipt_token}, ${completedAt})
    ON CONFLICT (merchant_id, livemode, client_sale_id) WHERE client_sale_id IS NOT NULL DO NOTHING
    RETURNING ${SALE_COLUMNS}`);
}

const clientSaleRowSchema = saleRowSchema.extend({ client_request_fingerprint: z.instanceof(Buffer) });

/** The sale a till named `clientSaleId`, with the fingerprint of the request that recorded it. */
export async function selectSaleByClientId(
  database: Queryable,
  world: World,
  clientSaleId: string,
): Promise<z.infer<typeof clientSaleRowSchema> | null> {
  return database.maybeOne(sql.type(clientSaleRowSchema)`
    SELECT ${SALE_COLUMNS}, client_request_fingerprint FROM sales
    WHERE merchant_id = ${world.merchantId} AND livemode = ${world.livemode} AND client_sale_id = ${clientSaleId}`);
}

export async function selectSale(database: Queryable, world: World, saleId: string): Promise<SaleRow | null> {
  return database.maybeOne(sql.type(saleRowSchema)`
    SELECT ${SALE_COLUMNS} FROM sales
    WHERE merchant_id = ${world.merchantId} AND livemode = ${world.livemode} AND id = ${saleId}`);
}

/**
 * Moves the pending sale paid by `paymentId` to its final state; null when there is none (an
 * ordinary payment) or it is already final. Guarded, so whoever comes second changes nothing.
 */
export async function finishSaleOfPayment(
  transaction: Transaction,
  target: { merchantId: string; livemode: boolean; paymentId: string; status: Exclude<SaleStatus, "pending"> },
): Promise<SaleRow | null> {
  const stamp = target.status === "completed" ? sql.fragment`completed_at = now()` : sql.fragment`cancelled_at = now()`;
  return transaction.maybeOne(sql.type(saleRowSchema)`
    UPDATE sales SET status = ${target.status}, ${stamp}
    WHERE merchant_id = ${target.merchantId} AND livemode = ${target.livemode} AND payment_id = ${target.paymentId}
      AND status = 'pending'
    RETURNING ${SALE_COLUMNS}`);
}

export async function selectSales(
  database: Queryable,
  filter: NewestFirstFilter & {
    status: SaleStatus | undefined;
    cashierId: string | undefined;
    receiptToken: string | undefined;
    limit: number;
  },
): Promise<readonly SaleRow[]> {
  const conditions = [
    ...newestFirstConditions(sql.identifier(["sales"]), filter),
    byCashier(sql.identifier(["sales"]), filter.cashierId),
    byReceiptToken(filter.receiptToken),
  ];
  return database.any(sql.type(saleRowSchema)`
    SELECT ${SALE_COLUMNS} FROM sales
    WHERE ${sql.join(conditions, sql.fragment` AND `)}
    ORDER BY created_at DESC, id DESC
    LIMIT ${filter.limit}`);
}

const dayRowSchema = z.object({ day_start: z.date(), day_end: z.date() });

/** Today in the merchant's time zone, as instants (on the database clock and its tz database). */
export async function selectToday(database: Queryable, timezone: string): Promise<z.infer<typeof dayRowSchema>> {
  return database.one(sql.type(dayRowSchema)`
    SELECT date_trunc('day', now() AT TIME ZONE ${timezone}) AT TIME ZONE ${timezone} AS day_start,
      (date_trunc('day', now() AT TIME ZONE ${timezone}) + interval '1 day') AT TIME ZONE ${timezone} AS day_end`);
}

/** Only one cashier's sales (the cashier switched in on the till that recorded them), when given. */
const byCashier = (alias: IdentifierSqlToken, cashierId: string | undefined) =>
  cashierId === undefined
    ? sql.fragment`TRUE`
    : sql.fragment`${alias}.actor_type = 'till_user' AND ${alias}.actor_id = ${cashierId}`;

/** Only the sale a receipt link shows: the sale's own receipt or one of its returns' (the merchant's own). */
const byReceiptToken = (token: string | undefined) =>
  token === undefined
    ? sql.fragment`TRUE`
    : sql.fragment`(sales.receipt_token = ${token} OR sales.id IN (
        SELECT sale_id FROM sale_returns WHERE receipt_token = ${token} AND merchant_id = sales.merchant_id))`;

type Period = World & { from: Date; to: Date; cashierId: string | undefined };

/** Only completed sales count, by completion time: the report index's range. */
const completedIn = (period: Period) => sql.fragment`
  s.merchant_id = ${period.merchantId} AND s.livemode = ${period.livemode} AND s.status = 'completed'
  AND s.completed_at >= ${period.from.toISOString()}::timestamptz AND s.completed_at < ${period.to.toISOString()}::timestamptz
  AND ${byCashier(sql.identifier(["s"]), period.cashierId)}`;

const tenderTotalsRowSchema = z.object({
  tender: z.enum(tenders),
  currency: z.enum(currencies),
  count: z.number().int(),
  total_cents: z.number().int(),
});

export async function selectTenderTotals(
  database: Queryable,
  period: Period,
): Promise<readonly z.infer<typeof tenderTotalsRowSchema>[]> {
  return database.any(sql.type(tenderTotalsRowSchema)`
    SELECT s.tender, s.currency, count(*)::int8 AS count, sum(s.total_cents)::int8 AS total_cents
    FROM sales s
    WHERE ${completedIn(period)}
    GROUP BY s.tender, s.currency`);
}

const topProductRowSchema = z.object({
  product_id: z.string().nullable(),
  name: z.string(),
  currency: z.enum(currencies),
  units: z.number().int(),
  revenue_cents: z.number().int(),
});

/**
 * Best sellers by revenue, `top` per currency: the lines of the period's completed sales, expanded from
 * their snapshots and summed in a hash aggregate (no sort of the lines), ranked, and only then named:
 * a product by its catalog name now, an ad hoc line by its own name (ad hoc lines group by name).
 */
export async function selectTopProducts(
  database: Queryable,
  period: Period & { top: number },
): Promise<readonly z.infer<typeof topProductRowSchema>[]> {
  return database.any(sql.type(topProductRowSchema)`
    WITH lines AS (
      SELECT s.currency, i.product_id, CASE WHEN i.product_id IS NULL THEN i.name END AS adhoc_name,
        sum(i.qty)::int8 AS units, sum(i.line_total_cents)::int8 AS revenue_cents
      FROM sales s
      CROSS JOIN LATERAL jsonb_to_recordset(s.items) AS i (product_id text, name text, qty int8, line_total_cents int8)
      WHERE ${completedIn(period)}
      GROUP BY 1, 2, 3),
    ranked AS (
      SELECT lines.*, row_number() OVER (PARTITION BY currency
        ORDER BY revenue_cents DESC, units DESC, product_id, adhoc_name) AS rank
      FROM lines)
    SELECT r.product_id, coalesce(p.name, r.adhoc_name, '') AS name, r.currency, r.units, r.revenue_cents
    FROM ranked r
    LEFT JOIN products p ON p.merchant_id = ${period.merchantId} AND p.id = r.product_id
    WHERE r.rank <= ${period.top}
    ORDER BY r.currency, r.rank`);
}

/** The channel a sale's end is announced on (payload: the sale id), for requests waiting on it. */
export const SALE_FINISHED_CHANNEL = "sale_finished";

/** Announces, at commit, that the sale left `pending` (a NOTIFY inside the finishing transaction). */
export async function notifySaleFinished(transaction: Transaction, saleId: string): Promise<void> {
  await transaction.query(sql.unsafe`SELECT pg_notify(${SALE_FINISHED_CHANNEL}, ${saleId})`);
}
