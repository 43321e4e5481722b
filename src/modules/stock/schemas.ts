import { z } from "zod";
import { ERROR_CODE_META_KEY } from "../../kernel/error-code.ts";
import { currencies } from "../../kernel/money.ts";
import { cursorSchema, limitSchema, pageSchema } from "../../platform/http/pagination.ts";
import { actorKinds } from "../../platform/tenant.ts";
import { productSchema, STOCK_QTY_MAX } from "../catalog/index.ts";

export const stockMoveKinds = ["receive", "sale", "adjust", "count", "return"] as const;
export type StockMoveKind = (typeof stockMoveKinds)[number];

export const stockMoveRowSchema = z.object({
  merchant_id: z.string(),
  id: z.string(),
  livemode: z.boolean(),
  product_id: z.string(),
  kind: z.enum(stockMoveKinds),
  qty_delta: z.number().int(),
  stock_qty_after: z.number().int(),
  note: z.string().nullable(),
  actor_type: z.enum(actorKinds),
  actor_id: z.string(),
  sale_id: z.string().nullable(),
  seq: z.number().int(),
  created_at: z.date(),
});
export type StockMoveRow = z.infer<typeof stockMoveRowSchema>;

const productIdField = z.string().min(1).max(100);
const noteField = z.string().trim().max(500).optional().meta({ description: "Why (kept in the journal)." });
const quantity = (schema: z.ZodNumber, description: string) =>
  schema.meta({ [ERROR_CODE_META_KEY]: "invalid_quantity", description });

export const receiveBody = z.strictObject({
  product_id: productIdField,
  qty: quantity(z.number().int().min(1).max(STOCK_QTY_MAX), "Units received: a positive integer."),
  note: noteField,
});

export const adjustBody = z.strictObject({
  product_id: productIdField,
  qty: quantity(
    z
      .number()
      .int()
      .min(-STOCK_QTY_MAX)
      .max(STOCK_QTY_MAX)
      .refine((value) => value !== 0, "must not be zero"),
    "Signed, non-zero change of on-hand (e.g. -2 for breakage).",
  ),
  note: noteField,
});

export const countBody = z.strictObject({
  product_id: productIdField,
  qty: quantity(z.number().int().min(0).max(STOCK_QTY_MAX), "The counted on-hand quantity (absolute)."),
  note: noteField,
});

export const stockMoveSchema = z
  .object({
    id: z.string(),
    object: z.literal("stock_move"),
    livemode: z.boolean().meta({ description: "Only live moves change on-hand." }),
    product_id: z.string(),
    kind: z.enum(stockMoveKinds),
    qty_delta: z.number().int(),
    stock_qty_after: z.number().int().meta({ description: "On-hand after the move (unchanged by test moves)." }),
    note: z.string().nullable(),
    actor: z.object({ type: z.enum(actorKinds), id: z.string() }),
    sale_id: z.string().nullable(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: "StockMove" });

export const stockOperationSchema = z
  .object({ move: stockMoveSchema, product: productSchema })
  .meta({ id: "StockOperation", description: "The journaled move and the product as it now stands." });

export const stockMovePageSchema = pageSchema(stockMoveSchema);

export const listMovesQuery = z.strictObject({
  product_id: productIdField.optional(),
  kind: z.enum(stockMoveKinds).optional(),
  limit: limitSchema({ max: 100, fallback: 20 }),
  cursor: cursorSchema,
});

export const stockReportQuery = z.strictObject({
  limit: limitSchema({ max: 500, fallback: 100 }).meta({ description: "Products per page of `products`." }),
  cursor: cursorSchema,
});

const reportProduct = z.object({
  product_id: z.string(),
  name: z.string(),
  sku: z.string().nullable(),
  currency: z.enum(currencies),
  stock_qty: z.number().int(),
  low_stock_at: z.number().int(),
  low_stock: z.boolean(),
  price_cents: z.number().int().nullable(),
  value_cents: z
    .number()
    .int()
    .nullable()
    .meta({ description: "On-hand × current price; 0 when on-hand is negative; null when unpriced." }),
});

export const stockReportSchema = z
  .object({
    object: z.literal("stock_report"),
    generated_at: z.iso.datetime(),
    totals: z.array(
      z.object({
        currency: z.enum(currencies),
        products: z.number().int(),
        units: z.number().int(),
        value_cents: z.number().int(),
        unpriced_products: z.number().int(),
      }),
    ),
    low_stock: z.array(reportProduct),
    low_stock_count: z.number().int(),
    products: pageSchema(reportProduct),
  })
  .meta({ id: "StockReport" });

/** How many low-stock products the report lists at most (`low_stock_count` is the full number). */
export const LOW_STOCK_LIST_MAX = 500;
