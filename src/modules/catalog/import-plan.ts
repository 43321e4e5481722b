import type { ImportError, ImportRow } from "./csv-import.ts";
import { IMPORTED_COLUMNS, type ImportedProduct } from "./import-queries.ts";
import type { ProductRow } from "./schemas.ts";

/**
 * What an import would do, row by row, against the products its rows name: each row updates the
 * product with its sku (or, without one that matches, its barcode), or creates a product. The rules a
 * single row cannot check alone are here: one product per sku, a barcode used once, a product changed
 * by one row only.
 */
export type ImportPlan = {
  creates: { row: number; product: ImportedProduct; stockQty: number }[];
  updates: { row: number; product: ImportedProduct }[];
  unchanged: number;
  errors: ImportError[];
};

const PRODUCT_DEFAULTS = {
  currency: "USD",
  track_stock: true,
  low_stock_at: 0,
  tax_rate_bp: null,
  active: true,
} as const;

function target(row: ImportRow, existing: { bySku: Map<string, ProductRow[]>; byBarcode: Map<string, ProductRow> }) {
  const sku = row.fields.sku;
  const skuMatches = sku === undefined || sku === null ? [] : (existing.bySku.get(sku) ?? []);
  if (skuMatches.length > 1) {
    return { error: { code: "sku_ambiguous", message: `${skuMatches.length} of your products have this SKU.` } };
  }
  const barcode = row.fields.barcode;
  return { product: skuMatches[0] ?? (barcode ? existing.byBarcode.get(barcode) : undefined) };
}

const sameProduct = (left: ImportedProduct, right: ImportedProduct) =>
  (Object.keys(left) as (keyof ImportedProduct)[]).every((key) => left[key] === right[key]);

const catalogFields = (product: ProductRow) =>
  Object.fromEntries(IMPORTED_COLUMNS.map((column) => [column, product[column]])) as ImportedProduct;

/** The plan for `rows` (already valid one by one) against the existing products they may name. */
export function planImport(
  rows: readonly ImportRow[],
  products: readonly ProductRow[],
  newProductId: () => string,
): ImportPlan {
  const bySku = new Map<string, ProductRow[]>();
  const byBarcode = new Map<string, ProductRow>();
  for (const product of products) {
    if (product.sku !== null) bySku.set(product.sku, [...(bySku.get(product.sku) ?? []), product]);
    if (product.barcode !== null) byBarcode.set(product.barcode, product);
  }
  const plan: ImportPlan = { creates: [], updates: [], unchanged: 0, errors: [] };
  // Which row claimed each product, barcode and new sku: a second claim is that row's error.
  const claimed = { products: new Map<string, number>(), barcodes: new Map<string, number>(), skus: new Map() };
  for (const row of rows) {
    const found = target(row, { bySku, byBarcode });
    if (found.error !== undefined) {
      plan.errors.push({ row: row.row, column: "sku", ...found.error });
      continue;
    }
    const current = found.product;
    const product: ImportedProduct = {
      ...(current === undefined
        ? { id: newProductId(), sku: null, barcode: null, category: null, price_cents: null, ...PRODUCT_DEFAULTS }
        : catalogFields(current)),
      ...row.fields,
    } as ImportedProduct;
    const errors = conflicts(row.row, product, current, { byBarcode, claimed });
    if (current === undefined && !product.track_stock && (row.stockQty ?? 0) !== 0) {
      errors.push({
        row: row.row,
        column: "stock_qty",
        code: "stock_not_tracked",
        message: "An untracked product has no stock.",
      });
    }
    if (errors.length > 0) {
      plan.errors.push(...errors);
    } else if (current === undefined) {
      plan.creates.push({ row: row.row, product, stockQty: row.stockQty ?? 0 });
    } else if (sameProduct(product, catalogFields(current))) {
      plan.unchanged += 1;
    } else {
      plan.updates.push({ row: row.row, product });
    }
  }
  return plan;
}

function conflicts(
  row: number,
  product: ImportedProduct,
  current: ProductRow | undefined,
  seen: {
    byBarcode: Map<string, ProductRow>;
    claimed: { products: Map<string, number>; barcodes: Map<string, number>; skus: Map<string, number> };
  },
): ImportError[] {
  const errors: ImportError[] = [];
  const { claimed } = seen;
  const earlier = (map: Map<string, number>, key: string) => {
    const first = map.get(key);
    if (first === undefined) map.set(key, row);
    return first;
  };
  const sameProductRow = current === undefined ? undefined : earlier(claimed.products, current.id);
  if (sameProductRow !== undefined) {
    errors.push({
      row,
      column: null,
      code: "row_duplicate",
      message: `Row ${sameProductRow} changes this product too.`,
    });
  }
  if (product.barcode !== null) {
    const owner = seen.byBarcode.get(product.barcode);
    const otherRow = earlier(claimed.barcodes, product.barcode);
    if ((owner !== undefined && owner.id !== product.id) || otherRow !== undefined) {
      const where = otherRow === undefined ? `your product "${owner?.name}"` : `row ${otherRow}`;
      errors.push({ row, column: "barcode", code: "barcode_taken", message: `This barcode is already on ${where}.` });
    }
  }
  if (current === undefined && product.sku !== null) {
    const otherRow = earlier(claimed.skus, product.sku);
    if (otherRow !== undefined) {
      errors.push({
        row,
        column: "sku",
        code: "sku_ambiguous",
        message: `Row ${otherRow} creates a product with this SKU.`,
      });
    }
  }
  return errors;
}
