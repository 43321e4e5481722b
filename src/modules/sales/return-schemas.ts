import { z } from "zod";
import { ERROR_CODE_META_KEY } from "../../kernel/error-code.ts";
import { currencies } from "../../kernel/money.ts";
import { actorKinds } from "../../platform/tenant.ts";
import { tillIdSchema } from "../shifts/index.ts";
import { LINE_QTY_MAX, SALE_ITEMS_MAX } from "./limits.ts";
import { returnRefundSchema } from "./tender-schemas.ts";

/** A returned line: which line of the sale (0-based), its snapshot, and how many units came back. */
export const returnItemSchema = z.object({
  line: z.number().int(),
  product_id: z.string().nullable(),
  name: z.string(),
  qty: z.number().int(),
  unit_cents: z.number().int(),
  line_total_cents: z.number().int(),
});
export type ReturnItem = z.infer<typeof returnItemSchema>;

export const saleReturnRowSchema = z.object({
  merchant_id: z.string(),
  id: z.string(),
  livemode: z.boolean(),
  sale_id: z.string(),
  currency: z.enum(currencies),
  refund_cents: z.number().int(),
  refund_tender: z.literal("cash"),
  refunds: z.array(returnRefundSchema).nullable(),
  items: z.array(returnItemSchema),
  till_id: z.string().nullable(),
  shift_id: z.string().nullable(),
  reason: z.string().nullable(),
  actor_type: z.enum(actorKinds),
  actor_id: z.string(),
  receipt_token: z.string().nullable(),
  created_at: z.date(),
});
export type SaleReturnRow = z.infer<typeof saleReturnRowSchema>;

export const createReturnBody = z.strictObject({
  items: z
    .array(
      z.strictObject({
        line: z
          .number()
          .int()
          .min(0)
          .max(SALE_ITEMS_MAX - 1)
          .meta({ description: "The line's position in the sale's items (0-based)." }),
        qty: z
          .number()
          .int()
          .min(1)
          .max(LINE_QTY_MAX)
          .meta({ [ERROR_CODE_META_KEY]: "invalid_quantity", description: "Units returned." }),
      }),
    )
    .min(1)
    .max(SALE_ITEMS_MAX)
    .refine((items) => new Set(items.map((item) => item.line)).size === items.length, "each line at most once")
    .meta({ description: "The lines returned, each at most once." }),
  till_id: tillIdSchema.optional().meta({
    description:
      "The till paying the refund out of its drawer: it must have an open shift (409 shift_not_open), " +
      "which records the refund. Without till_id the refund is paid outside any drawer.",
  }),
  reason: z.string().trim().max(500).optional(),
});
export type CreateReturnInput = z.output<typeof createReturnBody>;

export const saleReturnSchema = z
  .object({
    id: z.string(),
    object: z.literal("sale_return"),
    livemode: z.boolean(),
    sale_id: z.string(),
    currency: z.enum(currencies),
    refund_cents: z.number().int().meta({ description: "Cash paid back: the returned units at the sale's prices." }),
    refund_tender: z.literal("cash").meta({ description: "Always cash for now, whatever the sale's tender." }),
    refunds: z.array(returnRefundSchema).meta({
      description:
        "The refund per tender paid back, each in the tender's currency (a split sale's refund is spread over its " +
        "tenders, the last taken first; a sale of one tender has one share, refund_cents in its currency).",
    }),
    items: z.array(returnItemSchema),
    till_id: z.string().nullable(),
    shift_id: z.string().nullable(),
    reason: z.string().nullable(),
    actor: z.object({ type: z.enum(actorKinds), id: z.string() }),
    receipt_url: z.string().nullable().meta({ description: "The return's public receipt page." }),
    created_at: z.iso.datetime(),
  })
  .meta({ id: "SaleReturn" });
