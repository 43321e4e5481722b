import DataLoader from "dataloader";
import { UniqueIntegrityConstraintViolationError } from "slonik";
import { z } from "zod";
import type { Database, Queryable, Transaction } from "../../platform/db/pool.ts";
import { conflict, invalidRequest, notFound } from "../../platform/errors.ts";
import { decodeCursor, type Page, toPage } from "../../platform/http/pagination.ts";
import { newId } from "../../platform/ids.ts";
import type { Actor, Tenant } from "../../platform/tenant.ts";
import { recordApproval, requireManager } from "../cashiers/index.ts";
import * as queries from "./queries.ts";
import type { CreateProductInput, ProductRow, UpdateProductInput } from "./schemas.ts";

/**
 * The product catalog: one per merchant, shared by its test and live worlds.
 *
 * Invariants:
 * - a barcode is unique per merchant, inactive products included (409 `barcode_taken`); another
 *   merchant may use the same barcode;
 * - products are never deleted: `active: false` hides them from sales and the default list, `true`
 *   restores them; sales and stock moves that reference them stay intact;
 * - the catalog never writes on-hand: the opening quantity is the stock module's opening move,
 *   committed with the product; later changes go through /v1/stock/*;
 * - catalog edits never change past sales (a sale snapshots its lines).
 *
 * Error codes: `resource_missing` (404), `barcode_taken` (409), `stock_not_tracked` (400, an opening
 * quantity for an untracked product), `invalid_amount`, `invalid_currency`, `invalid_quantity`,
 * `parameter_invalid` (400).
 */

const barcodeTaken = (barcode: string | null | undefined) =>
  conflict("barcode_taken", `Barcode ${barcode ?? ""} is already used by another of your products.`);

function isBarcodeConflict(error: unknown): boolean {
  return error instanceof UniqueIntegrityConstraintViolationError && error.constraint === queries.BARCODE_CONSTRAINT;
}

/**
 * The stock module's opening moves of new products (one, or a whole import), committed in their
 * transaction; answers each product's on-hand after its move. It is passed in (src/wiring gives
 * stock's `recordOpenings`) because the stock module depends on the catalog, not the reverse.
 */
export type RecordOpenings = (
  transaction: Transaction,
  request: { merchantId: string; actor: Actor; openings: readonly { productId: string; qty: number }[] },
) => Promise<ReadonlyMap<string, number>>;

export async function createProduct(
  database: Database,
  recordOpenings: RecordOpenings,
  request: { merchantId: string; actor: Actor; input: CreateProductInput },
): Promise<ProductRow> {
  const { input } = request;
  if (!input.track_stock && input.stock_qty !== undefined && input.stock_qty !== 0) {
    throw invalidRequest("stock_not_tracked", "An untracked product (track_stock false) has no opening stock_qty.");
  }
  try {
    return await database.transaction(async (transaction) => {
      const product = await queries.insertProduct(transaction, {
        merchant_id: request.merchantId,
        id: newId("prod"),
        name: input.name,
        sku: input.sku ?? null,
        barcode: input.barcode ?? null,
        category: input.category ?? null,
        price_cents: input.price_cents,
        currency: input.currency,
        track_stock: input.track_stock,
        low_stock_at: input.low_stock_at,
        tax_rate_bp: input.tax_rate_bp,
      });
      if (input.stock_qty === undefined || input.stock_qty === 0) {
        return product;
      }
      const onHand = await recordOpenings(transaction, {
        merchantId: request.merchantId,
        actor: request.actor,
        openings: [{ productId: product.id, qty: input.stock_qty }],
      });
      return { ...product, stock_qty: onHand.get(product.id) ?? product.stock_qty };
    });
  } catch (error) {
    if (isBarcodeConflict(error)) {
      throw barcodeTaken(input.barcode);
    }
    throw error;
  }
}

export async function getProduct(database: Queryable, merchantId: string, productId: string): Promise<ProductRow> {
  const product = await queries.selectProduct(database, merchantId, productId);
  if (product === null) {
    throw notFound(`No such product: ${productId}.`);
  }
  return product;
}

/** Reads the products named by a sale's lines (any that do not exist are simply absent). */
export type ProductReader = (
  merchantId: string,
  productIds: readonly string[],
) => Promise<ReadonlyMap<string, ProductRow>>;

// Bounds one statement's arrays: a turn's sales, at most 100 lines each (SALE_ITEMS_MAX).
const PRODUCT_BATCH_SIZE_MAX = 1000;

/**
 * The products of the sales of one turn of the event loop, read in one statement (one round trip and
 * one snapshot for all of them instead of one each), as the payment writer shares its insert: each
 * sale gets the rows it named, read no earlier than its request asked.
 */
export function createProductReader(database: Queryable): ProductReader {
  const rows = new DataLoader<{ merchantId: string; productId: string }, ProductRow | null>(
    async (keys) => {
      const found = new Map(
        (await queries.selectProductsByKeys(database, keys)).map((row) => [productKey(row.merchant_id, row.id), row]),
      );
      return keys.map((key) => found.get(productKey(key.merchantId, key.productId)) ?? null);
    },
    {
      cache: false,
      maxBatchSize: PRODUCT_BATCH_SIZE_MAX,
      batchScheduleFn: setImmediate,
    },
  );
  return async (merchantId, productIds) => {
    const loaded = await rows.loadMany([...new Set(productIds)].map((productId) => ({ merchantId, productId })));
    const products = new Map<string, ProductRow>();
    for (const row of loaded) {
      if (row instanceof Error) {
        throw row;
      }
      if (row !== null) {
        products.set(row.id, row);
      }
    }
    return products;
  };
}

const productKey = (merchantId: string, productId: string) => `${merchantId}\u0000${productId}`;

/**
 * Changes a product's catalog fields. At a till with cashiers it takes a manager (switched in, or a
 * manager's PIN approving this one request); the approval is used up with the change, in its
 * transaction, not before it.
 */
export async function updateProduct(
  database: Database,
  request: { tenant: Tenant; productId: string; input: UpdateProductInput },
): Promise<ProductRow> {
  const { tenant } = request;
  return database.transaction(async (transaction) => {
    const approval = await requireManager(transaction, tenant, "product_update");
    const product = await writeProductChanges(transaction, {
      merchantId: tenant.merchantId,
      productId: request.productId,
      input: request.input,
    });
    await recordApproval(transaction, tenant, approval, { type: "product", id: product.id });
    return product;
  });
}

async function writeProductChanges(
  transaction: Transaction,
  request: { merchantId: string; productId: string; input: UpdateProductInput },
): Promise<ProductRow> {
  let updated: ProductRow | null;
  try {
    updated = await queries.updateProduct(transaction, request.merchantId, request.productId, request.input);
  } catch (error) {
    if (isBarcodeConflict(error)) {
      throw barcodeTaken(request.input.barcode);
    }
    throw error;
  }
  if (updated === null) {
    throw notFound(`No such product: ${request.productId}.`);
  }
  return updated;
}

const nameCursor = z.tuple([z.string(), z.string()]);
const changedCursor = z.tuple([z.iso.datetime(), z.string()]);

export async function listProducts(
  database: Queryable,
  filter: queries.ProductSearch & {
    active: "true" | "false" | "all";
    updatedSince: Date | undefined;
    cursor: string | undefined;
  },
): Promise<Page<ProductRow>> {
  const active = filter.active === "all" ? undefined : filter.active === "true";
  if (filter.updatedSince !== undefined) {
    if (filter.q !== undefined || filter.barcode !== undefined || filter.category !== undefined) {
      throw invalidRequest("parameter_invalid", "updated_since cannot be combined with q, barcode or category.");
    }
    const after =
      filter.cursor === undefined
        ? undefined
        : (([updatedAt, id]) => ({ updatedAt, id }))(decodeCursor(filter.cursor, changedCursor));
    const rows = await queries.selectProductsChangedSince(database, {
      merchantId: filter.merchantId,
      since: filter.updatedSince,
      active,
      after,
      limit: filter.limit + 1,
    });
    return toPage(rows, {
      limit: filter.limit,
      keyOf: (row) => [row.updated_at.toISOString(), row.id],
      present: (row) => row,
    });
  }
  const after =
    filter.cursor === undefined ? undefined : (([name, id]) => ({ name, id }))(decodeCursor(filter.cursor, nameCursor));
  const rows = await queries.selectProducts(database, {
    merchantId: filter.merchantId,
    q: filter.q,
    barcode: filter.barcode,
    category: filter.category,
    active,
    after,
    limit: filter.limit + 1,
  });
  return toPage(rows, { limit: filter.limit, keyOf: (row) => [row.name, row.id], present: (row) => row });
}
