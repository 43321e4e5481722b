import type { FragmentSqlToken } from "slonik";
import { z } from "zod";
import { type Currency, currencies } from "../../kernel/money.ts";
import type { World } from "../../kernel/world.ts";
import type { Queryable, Transaction } from "../../platform/db/pool.ts";
import { ApiError, invalidRequest } from "../../platform/errors.ts";
import { decodeCursor, type Page, toPage } from "../../platform/http/pagination.ts";
import { newId } from "../../platform/ids.ts";
import type { Actor } from "../../platform/tenant.ts";
import { isLowStock, type ProductRow } from "../catalog/index.ts";
import * as queries from "./queries.ts";
import { LOW_STOCK_LIST_MAX, type StockMoveKind, type StockMoveRow } from "./schemas.ts";

/**
 * The stock journal and the on-hand quantity it explains.
 *
 * Invariants:
 * - the journal is append-only (the database refuses UPDATE, DELETE and TRUNCATE of `stock_moves`);
 * - on-hand (`products.stock_qty`) is the live inventory. It changes only together with a live journal
 *   row, in the same statement, under the product row's lock, so per product the live moves replay it
 *   exactly: on-hand = Σ qty_delta of its live moves, and each move's `stock_qty_after` is the running sum;
 * - only the live world changes on-hand. Test-world operations and test sales are journaled with
 *   `livemode: false` and change nothing (their `stock_qty_after` is the unchanged on-hand). The
 *   opening quantity given when a product is created is catalog data: it changes on-hand whichever
 *   key created the product, so its move (a `count`) is a live move naming that key;
 * - untracked products are never counted: stock operations on them are refused, sales never move them;
 * - a sale never fails for lack of recorded stock: on-hand may go negative, and such a product is low.
 *
 * Error codes: `product_not_found` (404), `stock_not_tracked` (400), `invalid_quantity` (400).
 */

const OPENING_NOTE = "Opening quantity";

export const productNotFound = (productId: string) =>
  new ApiError({
    status: 404,
    type: "invalid_request",
    code: "product_not_found",
    message: `No such product: ${productId}.`,
  });

export const stockNotTracked = (productId: string) =>
  invalidRequest("stock_not_tracked", `Product ${productId} does not track stock (track_stock is false).`);

/**
 * The opening quantities of products just created in this transaction (one from POST /v1/products,
 * thousands from a CSV import): live `count` moves, written in one statement. Answers each product's
 * on-hand after its move.
 */
export async function recordOpenings(
  transaction: Transaction,
  request: { merchantId: string; actor: Actor; openings: readonly { productId: string; qty: number }[] },
): Promise<ReadonlyMap<string, number>> {
  if (request.openings.length === 0) {
    return new Map();
  }
  const moves = await queries.insertOpeningMoves(transaction, {
    merchantId: request.merchantId,
    note: OPENING_NOTE,
    actor: request.actor,
    openings: request.openings.map((opening) => ({ ...opening, moveId: newId("smv") })),
  });
  return new Map(moves.map((move) => [move.product_id, move.stock_qty_after]));
}

export type StockOperation =
  | { kind: "receive"; qty: number }
  | { kind: "adjust"; qty: number }
  | { kind: "count"; qty: number };

/**
 * Receive, adjust or count one product, inside the caller's transaction (the HTTP route's, which on an
 * idempotent request also stores the response there, so a retry with the same Idempotency-Key replays
 * it and journals nothing twice). The live world locks the product row, so a count's delta is
 * computed against an on-hand that cannot change until the move commits.
 */
export async function applyOperation(
  transaction: Transaction,
  world: World & { actor: Actor },
  request: { productId: string; note: string | undefined; operation: StockOperation },
): Promise<{ move: StockMoveRow; product: ProductRow }> {
  const product = await queries.selectProductForMove(transaction, {
    merchantId: world.merchantId,
    productId: request.productId,
    lock: world.livemode,
  });
  if (product === null) {
    throw productNotFound(request.productId);
  }
  if (!product.track_stock) {
    throw stockNotTracked(product.id);
  }
  const { operation } = request;
  const qtyDelta = operation.kind === "count" ? operation.qty - product.stock_qty : operation.qty;
  const move = await queries.insertMove(transaction, {
    merchantId: world.merchantId,
    id: newId("smv"),
    livemode: world.livemode,
    productId: product.id,
    kind: operation.kind,
    qtyDelta,
    note: request.note === undefined || request.note === "" ? null : request.note,
    actor: world.actor,
    apply: world.livemode,
  });
  return { move, product: { ...product, stock_qty: move.stock_qty_after } };
}

/**
 * The units of a return come back (same world rule as a sale: live moves change on-hand, test moves
 * only journal; untracked products and ad hoc lines never move). Moves name the sale; the note names
 * the return.
 */
export async function recordReturn(
  transaction: Transaction,
  sale: World & {
    saleId: string;
    returnId: string;
    actor: Actor;
    lines: readonly { productId: string | null; qty: number }[];
  },
): Promise<void> {
  const moves = saleMovesOf({ ...sale, kind: "return", note: `Return ${sale.returnId}` });
  if (moves !== null) {
    await queries.insertSaleMoves(transaction, moves);
  }
}

type SaleLines = World & {
  saleId: string;
  kind: "sale" | "return";
  note: string | null;
  actor: Actor;
  lines: readonly { productId: string | null; qty: number }[];
};

/** One move per product named by the lines (their quantities summed); null when no line names a product. */
function saleMovesOf(sale: SaleLines): queries.SaleMoves | null {
  const perProduct = new Map<string, number>();
  for (const line of sale.lines) {
    if (line.productId !== null) {
      perProduct.set(line.productId, (perProduct.get(line.productId) ?? 0) + line.qty);
    }
  }
  if (perProduct.size === 0) {
    return null;
  }
  return {
    merchantId: sale.merchantId,
    livemode: sale.livemode,
    saleId: sale.saleId,
    kind: sale.kind,
    note: sale.note,
    actor: sale.actor,
    lines: [...perProduct].map(([productId, qty]) => ({
      moveId: newId("smv"),
      productId,
      delta: sale.kind === "sale" ? -qty : qty,
    })),
  };
}

/**
 * The `sale` moves of completed sales as common table expressions of the statement that completes
 * them (a moment's cash sales, wallet sales with their payments' settlements: `queries.salesMovesCtes`),
 * each sale moving only if `when(sale)` holds for its id; sales whose lines name no product add
 * nothing. One move per tracked product and sale (lines of the same product summed); live: on-hand
 * decremented, test: journaled only.
 */
export function salesMovesCtes(
  sales: readonly (World & {
    saleId: string;
    actor: Actor;
    lines: readonly { productId: string | null; qty: number }[];
  })[],
  when: (sale: FragmentSqlToken) => FragmentSqlToken,
): FragmentSqlToken {
  const moves = sales.flatMap((sale) => saleMovesOf({ ...sale, kind: "sale", note: null }) ?? []);
  return queries.salesMovesCtes(moves, when);
}

const seqCursor = z.tuple([z.number().int().positive()]);

/** The key's world's journal, newest first. */
export async function listMoves(
  database: Queryable,
  filter: World & {
    productId: string | undefined;
    kind: StockMoveKind | undefined;
    limit: number;
    cursor: string | undefined;
  },
): Promise<Page<StockMoveRow>> {
  const beforeSeq = filter.cursor === undefined ? undefined : decodeCursor(filter.cursor, seqCursor)[0];
  const rows = await queries.selectMoves(database, { ...filter, beforeSeq, limit: filter.limit + 1 });
  return toPage(rows, { limit: filter.limit, keyOf: (row) => [row.seq], present: (row) => row });
}

export type StockReportProduct = {
  product_id: string;
  name: string;
  sku: string | null;
  currency: Currency;
  stock_qty: number;
  low_stock_at: number;
  low_stock: boolean;
  price_cents: number | null;
  value_cents: number | null;
};

function reportProduct(row: queries.ReportProductRow): StockReportProduct {
  return {
    product_id: row.id,
    name: row.name,
    sku: row.sku,
    currency: row.currency,
    stock_qty: row.stock_qty,
    low_stock_at: row.low_stock_at,
    low_stock: isLowStock({ track_stock: true, ...row }),
    price_cents: row.price_cents,
    value_cents: row.price_cents === null ? null : Math.max(row.stock_qty, 0) * row.price_cents,
  };
}

const nameCursor = z.tuple([z.string(), z.string()]);

/**
 * On-hand and valuation at current prices of the active tracked products: totals per currency (both
 * currencies always), the low-stock list (lowest first, at most 500; `low_stock_count` is the full
 * number) and a page of products in name order.
 */
export async function stockReport(
  database: Queryable,
  request: { merchantId: string; limit: number; cursor: string | undefined },
) {
  const after =
    request.cursor === undefined
      ? undefined
      : (([name, id]) => ({ name, id }))(decodeCursor(request.cursor, nameCursor));
  const [totals, low, rows] = await Promise.all([
    queries.selectStockTotals(database, request.merchantId),
    queries.selectLowStockProducts(database, { merchantId: request.merchantId, limit: LOW_STOCK_LIST_MAX }),
    queries.selectReportProducts(database, { merchantId: request.merchantId, after, limit: request.limit + 1 }),
  ]);
  return {
    object: "stock_report" as const,
    generated_at: new Date().toISOString(),
    totals: currencies.map((currency) => {
      const row = totals.find((candidate) => candidate.currency === currency);
      return {
        currency,
        products: row?.products ?? 0,
        units: row?.units ?? 0,
        value_cents: row?.value_cents ?? 0,
        unpriced_products: row?.unpriced_products ?? 0,
      };
    }),
    low_stock: low.map(reportProduct),
    low_stock_count: totals.reduce((sum, row) => sum + row.low_stock_products, 0),
    products: toPage(rows, {
      limit: request.limit,
      keyOf: (row) => [row.name, row.id],
      present: reportProduct,
    }),
  };
}
