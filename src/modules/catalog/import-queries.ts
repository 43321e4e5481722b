import { type Queryable, sql, type Transaction } from "../../platform/db/pool.ts";
import { type CatalogColumns, PRODUCT_COLUMNS } from "./queries.ts";
import { type ProductRow, productRowSchema } from "./schemas.ts";

/**
 * The statements of a CSV import: each handles every row of the file at once (arrays through
 * `unnest`), so 2,000 products are a handful of round trips, not thousands.
 */

/**
 * The merchant's products an import's rows may name, by sku or barcode (`products_sku_idx` and the
 * barcode key). `lock`: the apply locks them, so the changes it computed from them stay right until
 * it commits.
 */
export async function selectProductsBySkuOrBarcode(
  database: Queryable,
  request: { merchantId: string; skus: readonly string[]; barcodes: readonly string[]; lock: boolean },
): Promise<readonly ProductRow[]> {
  // Two probes per row through the indexes; `= ANY(array)` with an OR filtered every product instead.
  return database.any(sql.type(productRowSchema)`
    SELECT ${PRODUCT_COLUMNS} FROM products
    WHERE merchant_id = ${request.merchantId} AND id IN (
      SELECT id FROM products
      WHERE merchant_id = ${request.merchantId} AND sku IN (SELECT unnest(${sql.array(request.skus, "text")})) 
      UNION
      SELECT id FROM products
      WHERE merchant_id = ${request.merchantId} AND barcode IN (SELECT unnest(${sql.array(request.barcodes, "text")})))
    ORDER BY id
    ${request.lock ? sql.fragment`FOR UPDATE` : sql.fragment``}`);
}

/** A product's catalog columns as the import writes them, with its id. */
export type ImportedProduct = CatalogColumns & Pick<ProductRow, "id">;

const COLUMN_TYPES = [
  ["id", "text"],
  ["name", "text"],
  ["sku", "text"],
  ["barcode", "text"],
  ["category", "text"],
  ["price_cents", "int8"],
  ["currency", "text"],
  ["track_stock", "bool"],
  ["low_stock_at", "int8"],
  ["tax_rate_bp", "int4"],
  ["active", "bool"],
] as const satisfies readonly (readonly [keyof ImportedProduct, string])[];

/** The columns an import writes, in `COLUMN_TYPES` order. */
export const IMPORTED_COLUMNS = COLUMN_TYPES.map(([column]) => column);

/** The products as rows `imported` (one array per column through `unnest`), for a statement's FROM. */
const importedRows = (products: readonly ImportedProduct[]) =>
  sql.fragment`unnest(${sql.join(
    COLUMN_TYPES.map(([column, type]) =>
      sql.array(
        products.map((product) => product[column]),
        type,
      ),
    ),
    sql.fragment`, `,
  )}) AS imported (${sql.join(
    IMPORTED_COLUMNS.map((column) => sql.identifier([column])),
    sql.fragment`, `,
  )})`;

/**
 * Writes an applied file's products: `created` inserted, `updated` with every imported column set
 * (the plan merged the file's cells into their current rows). A statement per kind that has any.
 */
export async function writeImportedProducts(
  transaction: Transaction,
  merchantId: string,
  products: { created: readonly ImportedProduct[]; updated: readonly ImportedProduct[] },
): Promise<void> {
  if (products.created.length > 0) {
    await transaction.query(sql.unsafe`
      INSERT INTO products (merchant_id, id, name, sku, barcode, category, price_cents, currency, track_stock,
        low_stock_at, tax_rate_bp, active)
      SELECT ${merchantId}, id, name, sku, barcode, category, price_cents, currency, track_stock, low_stock_at,
        tax_rate_bp, active
      FROM ${importedRows(products.created)}`);
  }
  if (products.updated.length > 0) {
    await transaction.query(sql.unsafe`
      UPDATE products SET ${sql.join(
        IMPORTED_COLUMNS.filter((column) => column !== "id").map(
          (column) => sql.fragment`${sql.identifier([column])} = ${sql.identifier(["imported", column])}`,
        ),
        sql.fragment`, `,
      )}, updated_at = now()
      FROM ${importedRows(products.updated)}
      WHERE products.merchant_id = ${merchantId} AND products.id = imported.id`);
  }
}
