import { z } from "zod";
import { ERROR_CODE_META_KEY } from "../../kernel/error-code.ts";
import { currencies } from "../../kernel/money.ts";
import { currencySchema } from "../../kernel/money-schemas.ts";
import { cursorSchema, limitSchema, pageSchema, timestampQuerySchema } from "../../platform/http/pagination.ts";

/** The largest unit price and stock quantity the catalog accepts. */
export const PRICE_CENTS_MAX = 1_000_000_000;
export const STOCK_QTY_MAX = 1_000_000_000;

/** What a product's row and its representation hold alike, in the representation's order. */
const productFields = {
  name: z.string(),
  sku: z.string().nullable(),
  barcode: z.string().nullable(),
  category: z.string().nullable(),
  price_cents: z.number().int().nullable(),
  currency: z.enum(currencies),
  track_stock: z.boolean(),
};

export const productRowSchema = z.object({
  merchant_id: z.string(),
  id: z.string(),
  ...productFields,
  stock_qty: z.number().int(),
  low_stock_at: z.number().int(),
  tax_rate_bp: z.number().int().nullable(),
  active: z.boolean(),
  created_at: z.date(),
  updated_at: z.date(),
});
export type ProductRow = z.infer<typeof productRowSchema>;

/** Derived: a tracked product is low when its on-hand is at or below its threshold (negative included). */
export const isLowStock = (product: Pick<ProductRow, "track_stock" | "stock_qty" | "low_stock_at">) =>
  product.track_stock && product.stock_qty <= product.low_stock_at;

const text = (max: number) => z.string().trim().min(1).max(max);

/** A price in cents: a non-negative integer (0 is a free item), or null for "priced at sale time". */
export const priceCentsSchema = z
  .number()
  .int()
  .min(0)
  .max(PRICE_CENTS_MAX)
  .nullable()
  .meta({
    [ERROR_CODE_META_KEY]: "invalid_amount",
    description: "Unit price in cents (0 to 1,000,000,000), or null: priced at sale time.",
  });

export const quantitySchema = (options: { min: number; description: string }) =>
  z
    .number()
    .int()
    .min(options.min)
    .max(STOCK_QTY_MAX)
    .meta({ [ERROR_CODE_META_KEY]: "invalid_quantity", description: options.description });

/** A product's tax rate in basis points (15.5 % = 1550), or null: the shop's default rate. */
export const taxRateBpSchema = z.number().int().min(0).max(10_000).nullable().meta({
  description: "Tax rate in basis points (15.5 % = 1550, 0 to 10000), or null (default): the shop's default rate.",
});

export const createProductBody = z.strictObject({
  name: text(200),
  price_cents: priceCentsSchema.default(null),
  currency: currencySchema.default("USD").meta({ description: "USD (default) or ZWG." }),
  barcode: text(100).nullable().optional(),
  sku: text(100).nullable().optional(),
  category: text(100).nullable().optional(),
  track_stock: z
    .boolean()
    .default(true)
    .meta({ description: "Count on-hand stock (default true); false for services." }),
  stock_qty: quantitySchema({
    min: 0,
    description: "Opening on-hand quantity (tracked products only); journaled as the opening move.",
  }).optional(),
  low_stock_at: quantitySchema({ min: 0, description: "Low-stock threshold (default 0)." }).default(0),
  tax_rate_bp: taxRateBpSchema.default(null),
});
export type CreateProductInput = z.output<typeof createProductBody>;

export const updateProductBody = z.strictObject({
  name: text(200).optional(),
  price_cents: priceCentsSchema.optional(),
  currency: currencySchema.optional(),
  barcode: text(100).nullable().optional(),
  sku: text(100).nullable().optional(),
  category: text(100).nullable().optional(),
  track_stock: z.boolean().optional(),
  low_stock_at: quantitySchema({ min: 0, description: "Low-stock threshold." }).optional(),
  tax_rate_bp: taxRateBpSchema.optional(),
  active: z.boolean().optional().meta({ description: "false soft-deletes the product; true restores it." }),
});
export type UpdateProductInput = z.output<typeof updateProductBody>;

export const productSchema = z
  .object({
    id: z.string(),
    object: z.literal("product"),
    ...productFields,
    stock_qty: z
      .number()
      .int()
      .nullable()
      .meta({ description: "On-hand (live inventory; may be negative after overselling); null when untracked." }),
    low_stock_at: z.number().int(),
    low_stock: z.boolean(),
    tax_rate_bp: z.number().int().nullable().meta({ description: "Null: the shop's default tax rate." }),
    active: z.boolean(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime().meta({ description: "Last catalog change (stock moves do not change it)." }),
  })
  .meta({ id: "Product" });

export const productPageSchema = pageSchema(productSchema);

export const productIdParams = z.strictObject({ id: z.string().max(100) });

export const listProductsQuery = z.strictObject({
  q: z.string().trim().min(1).max(100).optional().meta({ description: "Substring of the name, sku or barcode." }),
  barcode: z.string().min(1).max(100).optional().meta({ description: "Exact barcode: the scanner lookup." }),
  category: z.string().min(1).max(100).optional(),
  active: z
    .enum(["true", "false", "all"])
    .default("true")
    .meta({ description: "Active products (default), inactive ones, or all." }),
  updated_since: timestampQuerySchema.optional().meta({
    description:
      "The catalog's change feed: products whose catalog fields changed at or after this instant (with " +
      "active=all, deactivated ones too), in (updated_at, id) order. Stock moves do not count as changes. " +
      "A client keeps the largest updated_at it has seen and asks again from a little before it (a minute " +
      "or two), because a change commits some time after its updated_at. Not combinable with q, barcode or category.",
  }),
  limit: limitSchema({ max: 500, fallback: 100 }),
  cursor: cursorSchema,
});

/** The largest import file: 5,000 rows of a spreadsheet's product columns fit with room to spare. */
export const IMPORT_BODY_BYTES_MAX = 2_000_000;

export const importCsvBody = z
  .string()
  .min(1)
  .meta({ description: "The CSV file (text/csv, UTF-8): a header row naming columns, then one product per row." });

const importSummaryFields = {
  rows: z.int().meta({ description: "Product rows in the file (the header not counted)." }),
  created: z.int(),
  updated: z.int(),
  unchanged: z.int().meta({ description: "Rows that name a product and change nothing." }),
};

export const importErrorSchema = z.object({
  row: z.int().meta({ description: "The row as a spreadsheet numbers it: the header is row 1." }),
  column: z.string().nullable().meta({ description: "The column, or null for the whole row." }),
  code: z.string(),
  message: z.string(),
});

export const importPreviewSchema = z
  .object({ object: z.literal("product_import_preview"), ...importSummaryFields, errors: z.array(importErrorSchema) })
  .meta({ id: "ProductImportPreview" });

export const importResultSchema = z
  .object({ object: z.literal("product_import"), ...importSummaryFields })
  .meta({ id: "ProductImport" });
