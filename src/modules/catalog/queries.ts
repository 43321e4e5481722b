import { type Queryable, sql } from "../../platform/db/pool.ts";
import { type ProductRow, productRowSchema } from "./schemas.ts";

export const PRODUCT_COLUMNS = sql.fragment`merchant_id, id, name, sku, barcode, category, price_cents, currency, track_stock,
  stock_qty, low_stock_at, tax_rate_bp, active, created_at, updated_at`;

/** The unique constraint behind 409 `barcode_taken`. */
export const BARCODE_CONSTRAINT = "products_barcode_key";

/** Inserts a product with no stock: the opening quantity is the stock module's move, in the same transaction. */
export async function insertProduct(
  database: Queryable,
  product: Omit<ProductRow, "stock_qty" | "active" | "created_at" | "updated_at">,
): Promise<ProductRow> {
  return database.one(sql.type(productRowSchema)`
    INSERT INTO products (merchant_id, id, name, sku, barcode, category, price_cents, currency, track_stock, low_stock_at,
      tax_rate_bp)
    VALUES (${product.merchant_id}, ${product.id}, ${product.name}, ${product.sku}, ${product.barcode}, ${product.category},
      ${product.price_cents}, ${product.currency}, ${product.track_stock}, ${product.low_stock_at},
      ${product.tax_rate_bp})
    RETURNING ${PRODUCT_COLUMNS}`);
}

export async function selectProduct(
  database: Queryable,
  merchantId: string,
  productId: string,
): Promise<ProductRow | null> {
  return database.maybeOne(sql.type(productRowSchema)`
    SELECT ${PRODUCT_COLUMNS} FROM products WHERE merchant_id = ${merchantId} AND id = ${productId}`);
}

/**
 * Products by (merchant, id) pairs, in one probe of the primary key: the lines of the sales of one
 * turn of the event loop (`createProductReader`). Prepared (planned once per connection).
 */
export async function selectProductsByKeys(
  database: Queryable,
  keys: readonly { merchantId: string; productId: string }[],
): Promise<readonly ProductRow[]> {
  return database.any(sql.prepared("products_by_keys", productRowSchema)`
    SELECT ${PRODUCT_COLUMNS} FROM products
    WHERE (merchant_id, id) IN (
      SELECT * FROM unnest(${sql.array(
        keys.map((key) => key.merchantId),
        "text",
      )}::text[], ${sql.array(
        keys.map((key) => key.productId),
        "text",
      )}::text[]))`);
}

/** A product's catalog columns: what a PATCH or an import writes (stock is the stock module's). */
export type CatalogColumns = Pick<
  ProductRow,
  | "name"
  | "sku"
  | "barcode"
  | "category"
  | "price_cents"
  | "currency"
  | "track_stock"
  | "low_stock_at"
  | "tax_rate_bp"
  | "active"
>;

/** Catalog columns a PATCH may change; absent keys are left alone (null clears a nullable column). */
export type ProductChanges = Partial<CatalogColumns>;

export async function updateProduct(
  database: Queryable,
  merchantId: string,
  productId: string,
  changes: ProductChanges,
): Promise<ProductRow | null> {
  const assignments = [sql.fragment`updated_at = now()`];
  const set = (column: keyof ProductChanges, value: string | number | boolean | null) =>
    assignments.push(sql.fragment`${sql.identifier([column])} = ${value}`);
  for (const column of [
    "name",
    "sku",
    "barcode",
    "category",
    "price_cents",
    "currency",
    "track_stock",
    "low_stock_at",
    "tax_rate_bp",
    "active",
  ] as const) {
    const value = changes[column];
    if (value !== undefined) {
      set(column, value);
    }
  }
  return database.maybeOne(sql.type(productRowSchema)`
    UPDATE products SET ${sql.join(assignments, sql.fragment`, `)}
    WHERE merchant_id = ${merchantId} AND id = ${productId}
    RETURNING ${PRODUCT_COLUMNS}`);
}

/** Escapes LIKE's wildcards so `q` matches literally. */
function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** What `q` searches: name, sku and barcode joined by a unit separator, as the trigram index has it. */
const SEARCH_TEXT = sql.fragment`(name || chr(31) || coalesce(sku, '') || chr(31) || coalesce(barcode, ''))`;

/** Shorter queries have no trigram to look up: the name-ordered walk serves them better. */
const TRIGRAM_QUERY_LENGTH_MIN = 3;

/**
 * A page of the merchant's products in (name, id) order. `q` is a substring of the name, sku or
 * barcode; `barcode` is an exact probe of the unique index.
 *
 * A `q` of 3 characters or more first collects every match through the trigram index (a materialized
 * step), then sorts and pages them. Left to itself the planner may instead walk the name index and
 * filter, which is fast when matches are plentiful but scans most of a large catalog when its estimate
 * of a rare match is wrong: a till's search box mostly asks for rare matches, so their cost is the one
 * kept predictable (a query matching most of the catalog is the slow case instead).
 */
/** What a product search names: the merchant, a text, a barcode, a category, a page size. */
export type ProductSearch = {
  merchantId: string;
  q: string | undefined;
  barcode: string | undefined;
  category: string | undefined;
  limit: number;
};

export async function selectProducts(
  database: Queryable,
  filter: ProductSearch & { active: boolean | undefined; after: { name: string; id: string } | undefined },
): Promise<readonly ProductRow[]> {
  const conditions = [sql.fragment`merchant_id = ${filter.merchantId}`];
  if (filter.barcode !== undefined) {
    conditions.push(sql.fragment`barcode = ${filter.barcode}`);
  }
  if (filter.q !== undefined) {
    conditions.push(sql.fragment`${SEARCH_TEXT} ILIKE ${likePattern(filter.q)}`);
  }
  if (filter.category !== undefined) {
    conditions.push(sql.fragment`category = ${filter.category}`);
  }
  if (filter.active !== undefined) {
    conditions.push(sql.fragment`active = ${filter.active}`);
  }
  const after =
    filter.after === undefined
      ? sql.fragment`TRUE`
      : sql.fragment`(name, id) > (${filter.after.name}, ${filter.after.id})`;
  if (filter.q !== undefined && filter.q.length >= TRIGRAM_QUERY_LENGTH_MIN && filter.barcode === undefined) {
    return database.any(sql.type(productRowSchema)`
      WITH matches AS MATERIALIZED (
        SELECT ${PRODUCT_COLUMNS} FROM products WHERE ${sql.join(conditions, sql.fragment` AND `)})
      SELECT ${PRODUCT_COLUMNS} FROM matches
      WHERE ${after}
      ORDER BY name, id
      LIMIT ${filter.limit}`);
  }
  return database.any(sql.type(productRowSchema)`
    SELECT ${PRODUCT_COLUMNS} FROM products
    WHERE ${sql.join(conditions, sql.fragment` AND `)} AND ${after}
    ORDER BY name, id
    LIMIT ${filter.limit}`);
}

/**
 * The change feed: the merchant's products changed at or after `since`, in (updated_at, id) order,
 * with timestamps cut to the millisecond the cursor can carry. Reads the merchant's rows by its key
 * prefix; a till asks for it once a minute at most.
 */
export async function selectProductsChangedSince(
  database: Queryable,
  filter: {
    merchantId: string;
    since: Date;
    active: boolean | undefined;
    after: { updatedAt: string; id: string } | undefined;
    limit: number;
  },
): Promise<readonly ProductRow[]> {
  const changedAt = sql.fragment`date_trunc('milliseconds', updated_at)`;
  const conditions = [
    sql.fragment`merchant_id = ${filter.merchantId}`,
    sql.fragment`updated_at >= ${filter.since.toISOString()}::timestamptz`,
  ];
  if (filter.active !== undefined) {
    conditions.push(sql.fragment`active = ${filter.active}`);
  }
  if (filter.after !== undefined) {
    conditions.push(sql.fragment`(${changedAt}, id) > (${filter.after.updatedAt}::timestamptz, ${filter.after.id})`);
  }
  return database.any(sql.type(productRowSchema)`
    SELECT ${PRODUCT_COLUMNS} FROM products
    WHERE ${sql.join(conditions, sql.fragment` AND `)}
    ORDER BY ${changedAt}, id
    LIMIT ${filter.limit}`);
}
