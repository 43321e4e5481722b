import type { FragmentSqlToken } from "slonik";
import { z } from "zod";
import { currencies } from "../../kernel/money.ts";
import { type Queryable, sql, type Transaction } from "../../platform/db/pool.ts";
import type { Actor } from "../../platform/tenant.ts";
import { type ProductRow, productRowSchema } from "../catalog/index.ts";
import { type StockMoveKind, type StockMoveRow, stockMoveRowSchema } from "./schemas.ts";

/**
 * The stock module owns `products.stock_qty` (the live on-hand) and the journal: every statement here
 * that changes the one writes the other in the same statement.
 */

const MOVE_COLUMNS = sql.fragment`merchant_id, id, livemode, product_id, kind, qty_delta, stock_qty_after, note,
  actor_type, actor_id, sale_id, seq, created_at`;
const PRODUCT_COLUMNS = sql.fragment`merchant_id, id, name, sku, barcode, category, price_cents, currency, track_stock,
  stock_qty, low_stock_at, tax_rate_bp, active, created_at, updated_at`;

/**
 * The product a stock operation is about. In the live world its row is locked until the transaction
 * ends, so a count's delta is computed against the on-hand no one else can change meanwhile.
 */
export async function selectProductForMove(
  transaction: Transaction,
  target: { merchantId: string; productId: string; lock: boolean },
): Promise<ProductRow | null> {
  const lock = target.lock ? sql.fragment`FOR NO KEY UPDATE` : sql.fragment``;
  return transaction.maybeOne(sql.type(productRowSchema)`
    SELECT ${PRODUCT_COLUMNS} FROM products WHERE merchant_id = ${target.merchantId} AND id = ${target.productId} ${lock}`);
}

/**
 * One move of one product: when `apply`, on-hand changes by the delta and the move records the
 * result; otherwise (test world) the move records the unchanged on-hand.
 */
export async function insertMove(
  transaction: Transaction,
  move: {
    merchantId: string;
    id: string;
    livemode: boolean;
    productId: string;
    kind: StockMoveKind;
    qtyDelta: number;
    note: string | null;
    actor: Actor;
    apply: boolean;
  },
): Promise<StockMoveRow> {
  return transaction.one(sql.type(stockMoveRowSchema)`
    WITH updated AS (
      UPDATE products SET stock_qty = stock_qty + ${move.qtyDelta}
      WHERE merchant_id = ${move.merchantId} AND id = ${move.productId} AND ${move.apply}
      RETURNING stock_qty),
    current AS (
      SELECT coalesce((SELECT stock_qty FROM updated),
        (SELECT stock_qty FROM products WHERE merchant_id = ${move.merchantId} AND id = ${move.productId})) AS stock_qty)
    INSERT INTO stock_moves (merchant_id, id, livemode, product_id, kind, qty_delta, stock_qty_after, note, actor_type,
      actor_id)
    SELECT ${move.merchantId}, ${move.id}, ${move.livemode}, ${move.productId}, ${move.kind}, ${move.qtyDelta},
      current.stock_qty, ${move.note}, ${move.actor.kind}, ${move.actor.id}
    FROM current
    RETURNING ${MOVE_COLUMNS}`);
}

/**
 * Opening `count` moves of products created in this transaction, live (on-hand set by the delta), in
 * one statement; the rows are new, so no other transaction can hold them.
 */
export async function insertOpeningMoves(
  transaction: Transaction,
  request: {
    merchantId: string;
    note: string;
    actor: Actor;
    openings: readonly { moveId: string; productId: string; qty: number }[];
  },
): Promise<readonly StockMoveRow[]> {
  const { openings } = request;
  return transaction.any(sql.type(stockMoveRowSchema)`
    WITH wanted AS (
      SELECT * FROM unnest(
        ${sql.array(
          openings.map((opening) => opening.moveId),
          "text",
        )}::text[],
        ${sql.array(
          openings.map((opening) => opening.productId),
          "text",
        )}::text[],
        ${sql.array(
          openings.map((opening) => opening.qty),
          "int8",
        )}::int8[]) AS w (move_id, product_id, qty)),
    updated AS (
      UPDATE products p SET stock_qty = p.stock_qty + w.qty
      FROM wanted w
      WHERE p.merchant_id = ${request.merchantId} AND p.id = w.product_id
      RETURNING p.id, p.stock_qty, w.qty, w.move_id)
    INSERT INTO stock_moves (merchant_id, id, livemode, product_id, kind, qty_delta, stock_qty_after, note, actor_type,
      actor_id)
    SELECT ${request.merchantId}, u.move_id, true, u.id, 'count', u.qty, u.stock_qty, ${request.note},
      ${request.actor.kind}, ${request.actor.id}
    FROM updated u
    ORDER BY u.id
    RETURNING ${MOVE_COLUMNS}`);
}

export type SaleMoves = {
  merchantId: string;
  livemode: boolean;
  saleId: string;
  kind: "sale" | "return";
  note: string | null;
  actor: Actor;
  lines: readonly { moveId: string; productId: string; delta: number }[];
};

/**
 * The moves of sales (units out) or of returns (units back) of one statement (the cash sales of a
 * moment, the wallet sales of a moment's settlements, a return alone), one per tracked product of
 * each: `delta` is the signed change per product; `note` names a return. Each sale moves only if
 * `when(sale)` holds (`sale`: the SQL value of its sale id). Live: the rows of every product the sales
 * name are locked at once in id order (so statements sharing products never deadlock), each changed
 * once by the sum of its moves (on-hand may go negative: a sale never fails for lack of recorded
 * stock), and each move records the on-hand after it and the moves before it in the statement (sales
 * in the order given), as if the sales had run one after another; the moves are inserted in that
 * order, a sale's in product id order. Test: the moves record the unchanged on-hand. Untracked
 * products get no move.
 *
 * Common table expressions, for a statement that writes the sales themselves too: they define
 * `stock_batch_wanted`, `stock_batch_locked`, `stock_batch_updated` and `stock_batch_moves_inserted`
 * (the moves' ids). Its SQL text is the same whatever the sales (they are bound as arrays).
 */
export function salesMovesCtes(
  sales: readonly SaleMoves[],
  when: (sale: FragmentSqlToken) => FragmentSqlToken,
): FragmentSqlToken {
  const moves = sales.flatMap((sale, position) => sale.lines.map((line) => ({ sale, position, line })));
  const text = (pick: (move: (typeof moves)[number]) => string | null) => sql.array(moves.map(pick), "text");
  return sql.fragment`
    stock_batch_wanted AS (
      SELECT * FROM unnest(
        ${sql.array(
          moves.map((move) => move.position),
          "int4",
        )}::int4[], ${text((move) => move.sale.saleId)}::text[], ${text((move) => move.sale.merchantId)}::text[],
        ${sql.array(
          moves.map((move) => move.sale.livemode),
          "bool",
        )}::bool[], ${text((move) => move.sale.kind)}::text[], ${text((move) => move.sale.note)}::text[],
        ${text((move) => move.sale.actor.kind)}::text[], ${text((move) => move.sale.actor.id)}::text[],
        ${text((move) => move.line.moveId)}::text[], ${text((move) => move.line.productId)}::text[],
        ${sql.array(
          moves.map((move) => move.line.delta),
          "int8",
        )}::int8[])
        AS w (sale_position, sale_id, merchant_id, livemode, kind, note, actor_type, actor_id, move_id, product_id, delta)
      WHERE ${when(sql.fragment`w.sale_id`)}),
    stock_batch_locked AS MATERIALIZED (
      SELECT p.merchant_id, p.id FROM products p
      WHERE (p.merchant_id, p.id) IN (SELECT merchant_id, product_id FROM stock_batch_wanted WHERE livemode)
        AND p.track_stock
      ORDER BY p.id, p.merchant_id
      FOR NO KEY UPDATE OF p),
    stock_batch_updated AS (
      UPDATE products p SET stock_qty = p.stock_qty + t.delta
      FROM (SELECT merchant_id, product_id, sum(delta)::int8 AS delta FROM stock_batch_wanted WHERE livemode
          GROUP BY merchant_id, product_id) t
        JOIN stock_batch_locked l ON l.merchant_id = t.merchant_id AND l.id = t.product_id
      WHERE p.merchant_id = t.merchant_id AND p.id = t.product_id
      RETURNING p.merchant_id, p.id, p.stock_qty - t.delta AS stock_qty_before),
    stock_batch_moves_inserted AS (
      INSERT INTO stock_moves (merchant_id, id, livemode, product_id, kind, qty_delta, stock_qty_after, actor_type,
        actor_id, sale_id, note)
      SELECT m.merchant_id, m.move_id, m.livemode, m.product_id, m.kind, m.delta, m.stock_qty_after, m.actor_type,
        m.actor_id, m.sale_id, m.note
      FROM (
        SELECT w.*, u.stock_qty_before
            + sum(w.delta) OVER (PARTITION BY w.merchant_id, w.product_id ORDER BY w.sale_position) AS stock_qty_after
          FROM stock_batch_wanted w JOIN stock_batch_updated u ON u.merchant_id = w.merchant_id AND u.id = w.product_id
          WHERE w.livemode
        UNION ALL
        SELECT w.*, p.stock_qty AS stock_qty_after
          FROM stock_batch_wanted w JOIN products p ON p.merchant_id = w.merchant_id AND p.id = w.product_id
          WHERE NOT w.livemode AND p.track_stock) m
      ORDER BY m.sale_position, m.product_id
      RETURNING id)`;
}

/**
 * The moves of a sale or a return on their own (`salesMovesCtes` with one): the number of moves
 * written.
 */
export async function insertSaleMoves(transaction: Transaction, sale: SaleMoves): Promise<number> {
  return transaction.oneFirst(sql.type(movesWrittenSchema)`
    WITH ${salesMovesCtes([sale], () => sql.fragment`TRUE`)}
    SELECT count(*)::int AS written FROM stock_batch_moves_inserted`);
}

const movesWrittenSchema = z.object({ written: z.number().int() });

export async function selectMoves(
  database: Queryable,
  filter: {
    merchantId: string;
    livemode: boolean;
    productId: string | undefined;
    kind: StockMoveKind | undefined;
    beforeSeq: number | undefined;
    limit: number;
  },
): Promise<readonly StockMoveRow[]> {
  const conditions = [sql.fragment`merchant_id = ${filter.merchantId}`, sql.fragment`livemode = ${filter.livemode}`];
  if (filter.productId !== undefined) {
    conditions.push(sql.fragment`product_id = ${filter.productId}`);
  }
  if (filter.kind !== undefined) {
    conditions.push(sql.fragment`kind = ${filter.kind}`);
  }
  if (filter.beforeSeq !== undefined) {
    conditions.push(sql.fragment`seq < ${filter.beforeSeq}`);
  }
  return database.any(sql.type(stockMoveRowSchema)`
    SELECT ${MOVE_COLUMNS} FROM stock_moves
    WHERE ${sql.join(conditions, sql.fragment` AND `)}
    ORDER BY seq DESC
    LIMIT ${filter.limit}`);
}

const reportProductRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  sku: z.string().nullable(),
  currency: z.enum(currencies),
  stock_qty: z.number().int(),
  low_stock_at: z.number().int(),
  price_cents: z.number().int().nullable(),
});
export type ReportProductRow = z.infer<typeof reportProductRowSchema>;

/** The counted products of the report: active and tracked. */
const COUNTED = sql.fragment`active AND track_stock`;

export async function selectReportProducts(
  database: Queryable,
  filter: { merchantId: string; after: { name: string; id: string } | undefined; limit: number },
): Promise<readonly ReportProductRow[]> {
  const after =
    filter.after === undefined
      ? sql.fragment``
      : sql.fragment`AND (name, id) > (${filter.after.name}, ${filter.after.id})`;
  return database.any(sql.type(reportProductRowSchema)`
    SELECT id, name, sku, currency, stock_qty, low_stock_at, price_cents FROM products
    WHERE merchant_id = ${filter.merchantId} AND ${COUNTED} ${after}
    ORDER BY name, id
    LIMIT ${filter.limit}`);
}

export async function selectLowStockProducts(
  database: Queryable,
  filter: { merchantId: string; limit: number },
): Promise<readonly ReportProductRow[]> {
  return database.any(sql.type(reportProductRowSchema)`
    SELECT id, name, sku, currency, stock_qty, low_stock_at, price_cents FROM products
    WHERE merchant_id = ${filter.merchantId} AND ${COUNTED} AND stock_qty <= low_stock_at
    ORDER BY stock_qty - low_stock_at, name, id
    LIMIT ${filter.limit}`);
}

/**
 * `units` and `value_cents` are sums over a whole catalog of bounded but large factors (on-hand up to
 * 1e9 units at up to 1e9 cents each), which can pass 2^53: they are computed exactly in SQL and read
 * as doubles, exact up to 2^53 and rounded beyond (a valuation above USD 90 trillion), instead of
 * failing the report.
 */
const stockTotalsRowSchema = z.object({
  currency: z.enum(currencies),
  products: z.number().int(),
  units: z.number(),
  value_cents: z.number(),
  unpriced_products: z.number().int(),
  low_stock_products: z.number().int(),
});

/** Totals per currency over the counted products; valuation at the current price, negatives as zero. */
export async function selectStockTotals(
  database: Queryable,
  merchantId: string,
): Promise<readonly z.infer<typeof stockTotalsRowSchema>[]> {
  return database.any(sql.type(stockTotalsRowSchema)`
    SELECT currency,
      count(*)::int8 AS products,
      coalesce(sum(stock_qty), 0)::float8 AS units,
      coalesce(sum(greatest(stock_qty, 0)::numeric * price_cents), 0)::float8 AS value_cents,
      count(*) FILTER (WHERE price_cents IS NULL)::int8 AS unpriced_products,
      count(*) FILTER (WHERE stock_qty <= low_stock_at)::int8 AS low_stock_products
    FROM products
    WHERE merchant_id = ${merchantId} AND ${COUNTED}
    GROUP BY currency`);
}
