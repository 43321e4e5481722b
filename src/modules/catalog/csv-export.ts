import { Readable } from "node:stream";
import { stringify } from "csv-stringify";
import type { Queryable } from "../../platform/db/pool.ts";
import { formatPrice, formatTaxRate, PRODUCT_CSV_COLUMNS, type ProductCsvColumn } from "./csv-columns.ts";
import * as queries from "./queries.ts";
import type { ProductRow } from "./schemas.ts";

// Rows read per statement: the export holds one batch in memory, whatever the catalog's size.
const EXPORT_BATCH_SIZE = 1000;

function csvRecord(product: ProductRow): Record<ProductCsvColumn, string | number> {
  return {
    id: product.id,
    name: product.name,
    sku: product.sku ?? "",
    barcode: product.barcode ?? "",
    category: product.category ?? "",
    price: formatPrice(product.price_cents),
    currency: product.currency,
    track_stock: String(product.track_stock),
    stock_qty: product.track_stock ? product.stock_qty : "",
    low_stock_at: product.low_stock_at,
    tax_rate: formatTaxRate(product.tax_rate_bp),
    active: String(product.active),
  };
}

/** Every product of the merchant, active and archived, in (name, id) order, a batch at a time. */
async function* productRecords(database: Queryable, merchantId: string) {
  let after: { name: string; id: string } | undefined;
  for (;;) {
    const rows = await queries.selectProducts(database, {
      merchantId,
      q: undefined,
      barcode: undefined,
      category: undefined,
      active: undefined,
      after,
      limit: EXPORT_BATCH_SIZE,
    });
    for (const row of rows) {
      yield csvRecord(row);
    }
    const last = rows.at(-1);
    if (rows.length < EXPORT_BATCH_SIZE || last === undefined) {
      return;
    }
    after = { name: last.name, id: last.id };
  }
}

/**
 * The catalog as CSV (RFC 4180, CRLF, UTF-8 with a byte-order mark, formula-like text escaped, as the
 * statement is), streamed in constant memory. Each batch is its own snapshot: a product renamed during
 * a long export may appear twice or not at all, as with paging the list.
 */
export function productsCsv(database: Queryable, merchantId: string): Readable {
  const csv = stringify({
    header: true,
    columns: [...PRODUCT_CSV_COLUMNS],
    bom: true,
    record_delimiter: "windows",
    escape_formulas: true,
  });
  const records = Readable.from(productRecords(database, merchantId));
  records.on("error", (error) => csv.destroy(error));
  return records.pipe(csv);
}
