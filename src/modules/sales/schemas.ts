import { z } from "zod";
import { ERROR_CODE_META_KEY } from "../../kernel/error-code.ts";
import { currencies } from "../../kernel/money.ts";
import { currencySchema } from "../../kernel/money-schemas.ts";
import { cursorSchema, limitSchema, pageSchema, timestampQuerySchema } from "../../platform/http/pagination.ts";
import { actorKinds } from "../../platform/tenant.ts";
import { PRICE_CENTS_MAX } from "../catalog/index.ts";
import { paymentSchema } from "../payments/index.ts";
import { tillIdSchema } from "../shifts/index.ts";
import { breakdownTotalSchema } from "./breakdown-schemas.ts";
import { LINE_QTY_MAX, SALE_ITEMS_MAX, SALE_TOTAL_CENTS_MAX } from "./limits.ts";
import { saleReturnSchema } from "./return-schemas.ts";
import { saleChangeSchema, saleTenderSchema, splitSaleFields } from "./tender-schemas.ts";

export const saleStatuses = ["pending", "completed", "cancelled"] as const;
export type SaleStatus = (typeof saleStatuses)[number];
export const tenders = ["cash", "wallet"] as const;
export type Tender = (typeof tenders)[number];
/** A sale's tender: one cash or wallet tender, or `split`: made with `tenders` (sale_tenders rows). */
export const saleTenders = ["cash", "wallet", "split"] as const;
export type SaleTender = (typeof saleTenders)[number];

export { LINE_QTY_MAX, SALE_ITEMS_MAX, SALE_TOTAL_CENTS_MAX } from "./limits.ts";

/** How far back an offline sale may be dated: a till offline longer exports its queue instead. */
export const TAKEN_AT_AGE_DAYS_MAX = 30;
/** How far ahead of the API's clock a till's clock may run (clock skew between devices). */
export const TAKEN_AT_FUTURE_SKEW_SECONDS = 300;

/**
 * A line as the sale keeps it: a snapshot, so later catalog edits never change it. The discount and
 * tax fields are kept only on a sale with a discount or tax (absent: no discount, net = line total,
 * rate 0), so a sale without either is kept and answered as before they existed.
 */
export const saleItemSchema = z.object({
  product_id: z.string().nullable().meta({ description: "Null for an ad hoc line." }),
  name: z.string(),
  qty: z.number().int(),
  unit_cents: z.number().int(),
  line_total_cents: z.number().int().meta({ description: "The line's gross: qty × unit_cents, before discounts." }),
  discount_cents: z
    .number()
    .int()
    .optional()
    .meta({ description: "What came off the line: its own discount and its share of the cart's." }),
  discount_reason: z.string().optional(),
  net_cents: z
    .number()
    .int()
    .optional()
    .meta({ description: "The line after discounts (in the prices' terms: with tax when tax-inclusive)." }),
  tax_rate_bp: z.number().int().optional().meta({ description: "The line's tax rate in basis points." }),
});
export type SaleItem = z.infer<typeof saleItemSchema>;

/** A sale's tax at one rate, rounded once per rate over the sale (src/kernel/basket.ts). */
export const saleTaxSchema = z.object({
  rate_bp: z.number().int(),
  taxable_cents: z.number().int().meta({ description: "What the tax is charged on, without the tax." }),
  tax_cents: z.number().int(),
});
export type SaleTax = z.infer<typeof saleTaxSchema>;

export const saleRowSchema = z.object({
  merchant_id: z.string(),
  id: z.string(),
  livemode: z.boolean(),
  status: z.enum(saleStatuses),
  tender: z.enum(saleTenders),
  currency: z.enum(currencies),
  total_cents: z.number().int(),
  items: z.array(saleItemSchema),
  discount_cents: z.number().int(),
  tax_cents: z.number().int(),
  taxes: z.array(saleTaxSchema),
  discount_reason: z.string().nullable(),
  cashier: z.string().nullable(),
  note: z.string().nullable(),
  payment_id: z.string().nullable(),
  actor_type: z.enum(actorKinds),
  actor_id: z.string(),
  client_sale_id: z.string().nullable(),
  taken_at: z.date().nullable(),
  till_id: z.string().nullable(),
  shift_id: z.string().nullable(),
  receipt_token: z.string().nullable(),
  created_at: z.date(),
  completed_at: z.date().nullable(),
  cancelled_at: z.date().nullable(),
  tendered_cents: z.number().int().nullable(),
});
export type SaleRow = z.infer<typeof saleRowSchema>;

/** A discount a till gives: a percentage (basis points of what it comes off) or an amount in cents. */
export const discountInput = z
  .discriminatedUnion("type", [
    z.strictObject({
      type: z.literal("percent"),
      percent_bp: z.number().int().min(1).max(10_000).meta({ description: "Basis points: 10 % = 1000." }),
    }),
    z.strictObject({
      type: z.literal("amount"),
      amount_cents: z
        .number()
        .int()
        .min(1)
        .max(SALE_TOTAL_CENTS_MAX)
        .meta({ description: "Cents off (never more than what it comes off)." }),
    }),
  ])
  .meta({ [ERROR_CODE_META_KEY]: "invalid_discount" });
export type DiscountInput = z.output<typeof discountInput>;

const discountReason = z.string().trim().min(1).max(200).meta({ description: "Why the discount was given." });

/**
 * An input line: `{product_id, qty, unit_cents?}` (catalog price unless overridden) or ad hoc
 * `{name, qty, unit_cents}`. One flat object rather than a union, so each field keeps its own error code.
 */
export const saleItemInput = z.strictObject({
  product_id: z.string().min(1).max(100).optional(),
  name: z.string().trim().min(1).max(200).optional().meta({ description: "Ad hoc line (no product_id)." }),
  qty: z
    .number()
    .int()
    .min(1)
    .max(LINE_QTY_MAX)
    .meta({ [ERROR_CODE_META_KEY]: "invalid_quantity", description: `Units: 1 to ${LINE_QTY_MAX}.` }),
  unit_cents: z
    .number()
    .int()
    .min(0)
    .max(PRICE_CENTS_MAX)
    .optional()
    .meta({
      [ERROR_CODE_META_KEY]: "invalid_amount",
      description:
        "Unit price in cents: required for ad hoc lines and unpriced products, else overrides the catalog " +
        "(below it, a discount toward the shop's limit for a cashier).",
    }),
  discount: discountInput.optional().meta({ description: "Off this line's gross (qty × unit price)." }),
  discount_reason: discountReason.optional(),
  tax_rate_bp: z.number().int().min(0).max(10_000).optional().meta({
    description: "An ad hoc line's tax rate in basis points (default: the shop's). A product line has its product's.",
  }),
});
export type SaleItemInput = z.output<typeof saleItemInput>;

export const createSaleBody = z.strictObject({
  items: z
    .array(saleItemInput)
    .min(1)
    .meta({ description: `1 to ${SALE_ITEMS_MAX} lines (more: too_many_items).` }),
  tender: z
    .enum(tenders)
    .optional()
    .meta({ description: "One tender for the whole sale; or `tenders` (one of the two is required)." }),
  ...splitSaleFields,
  discount: discountInput.optional().meta({
    description:
      "A cart discount: off what the lines come to after their own discounts, spread over them in proportion. " +
      "Discounts above the shop's discount_limit_bp of the gross need a manager at a till with cashiers.",
  }),
  discount_reason: discountReason.optional(),
  currency: currencySchema
    .optional()
    .meta({ description: "Default: the catalog products' currency (USD for ad hoc lines only)." }),
  cashier: z.string().trim().max(100).optional(),
  note: z.string().trim().max(500).optional(),
  till_id: tillIdSchema.optional().meta({
    description:
      "The till (device) ringing the sale up. A cash sale on a till joins its open shift (its cash is expected " +
      "in that drawer) and is refused with 409 shift_not_open when the till has none; without till_id a " +
      "sale belongs to no drawer. A wallet sale from a paired till's session without till_id is that till's.",
  }),
  client_sale_id: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{8,100}$/)
    .optional()
    .meta({
      description:
        "The till's own id for this sale (8 to 100 of A-Z a-z 0-9 _ . : -, e.g. a UUID), unique per merchant and " +
        "world for ever. A request naming a sale already recorded with the same body answers that sale " +
        "(201, Idempotent-Replayed: true) and records nothing, even after its Idempotency-Key has expired; " +
        "with another body it is refused (409 client_sale_id_mismatch). For sales queued offline and replayed later.",
    }),
  taken_at: z.iso
    .datetime({ offset: true })
    .optional()
    .meta({
      description:
        `When the sale was rung up at the counter (cash only), if earlier than now: at most ` +
        `${TAKEN_AT_AGE_DAYS_MAX} days ago and at most ${TAKEN_AT_FUTURE_SKEW_SECONDS} seconds ahead of the ` +
        "API's clock (else taken_at_out_of_range). A cash sale is completed at that time, so reports count it " +
        "on the day it was taken. Default: now.",
    }),
  tendered_cents: z
    .number()
    .int()
    .min(0)
    .max(SALE_TOTAL_CENTS_MAX * 10)
    .optional()
    .meta({
      [ERROR_CODE_META_KEY]: "invalid_amount",
      description:
        "Cash only: what the customer handed over, in the sale's currency, at least its total (else invalid_amount; " +
        "a wallet sale naming it: parameter_invalid). Kept on the sale, so its receipt shows tendered and change.",
    }),
});
export type CreateSaleInput = z.output<typeof createSaleBody>;

export const saleSchema = z
  .object({
    id: z.string(),
    object: z.literal("sale"),
    livemode: z.boolean(),
    status: z.enum(saleStatuses),
    tender: z.enum(saleTenders).meta({ description: "split: made with `tenders` (even one)." }),
    tenders: z.array(saleTenderSchema).meta({
      description: "The tenders, oldest first (a sale of one tender shows it as one entry).",
    }),
    paid_cents: z.number().int().meta({ description: "What the paid tenders contributed (basket currency)." }),
    due_cents: z.number().int().meta({ description: "total_cents − paid_cents, never below 0." }),
    change: saleChangeSchema,
    total_cents: z.number().int(),
    currency: z.enum(currencies),
    items: z.array(saleItemSchema),
    discount_cents: z.number().int().meta({ description: "Line and cart discounts together." }),
    discount_reason: z.string().nullable().meta({ description: "The cart discount's reason." }),
    tax_cents: z
      .number()
      .int()
      .meta({ description: "The tax the total holds (tax-inclusive prices) or adds (tax-exclusive)." }),
    taxes: z.array(saleTaxSchema).meta({ description: "The tax per rate, lowest rate first." }),
    cashier: z.string().nullable(),
    note: z.string().nullable(),
    payment_id: z.string().nullable(),
    payment: paymentSchema.nullable().meta({
      description:
        "Wallet sales, on create and GET by id (null in lists and for cash); a split sale shows its newest wallet " +
        "tender's payment (its code and QR while it is pending).",
    }),
    actor: z.object({ type: z.enum(actorKinds), id: z.string() }),
    client_sale_id: z.string().nullable().meta({ description: "The till's own id for the sale, when it gave one." }),
    till_id: z.string().nullable(),
    shift_id: z.string().nullable().meta({ description: "The drawer shift a cash sale's money went into." }),
    tendered_cents: z
      .number()
      .int()
      .nullable()
      .meta({ description: "Cash handed over, when the till said (null: wallet, or not given)." }),
    change_cents: z
      .number()
      .int()
      .nullable()
      .meta({ description: "Change given: tendered_cents − total_cents (null when tendered_cents is)." }),
    returns: z.array(saleReturnSchema).meta({ description: "What came back, oldest first." }),
    receipt_url: z.string().nullable().meta({
      description: "The public receipt page (no sign-in, no personal data; null for sales made before receipts).",
    }),
    taken_at: z.iso.datetime().meta({ description: "When the sale was rung up at the counter (default: created_at)." }),
    completed_at: z.iso.datetime().nullable(),
    cancelled_at: z.iso.datetime().nullable(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: "Sale" });

export const salePageSchema = pageSchema(saleSchema);

export const saleIdParams = z.strictObject({ id: z.string().max(100) });

/** How long a GET of a pending sale may wait for its end: below load balancers' idle timeouts and the API's shutdown timeout. */
export const SALE_WAIT_SECONDS_MAX = 25;

export const getSaleQuery = z.strictObject({
  wait_seconds: z.coerce
    .number()
    .int()
    .min(0)
    .max(SALE_WAIT_SECONDS_MAX)
    .default(0)
    .meta({
      description:
        `Long poll: while the sale is pending, answer only once it has completed or been cancelled, or after ` +
        `this many seconds (0 to ${SALE_WAIT_SECONDS_MAX}; default 0, answer at once), whichever is first, and ` +
        "never later than a second after its payment's expires_at. The wait is woken by the settlement " +
        "itself (PostgreSQL NOTIFY), so one waiting request per pending sale replaces polling. The answer " +
        "is the sale as it then is: still pending when the time ran out.",
    }),
});

export const listSalesQuery = z.strictObject({
  status: z.enum(saleStatuses).optional(),
  from: timestampQuerySchema.optional().meta({ description: "Created at or after." }),
  to: timestampQuerySchema.optional().meta({ description: "Created before." }),
  cashier_id: z
    .string()
    .max(100)
    .optional()
    .meta({ description: "Only the sales a cashier (csh_…) recorded, switched in on a till." }),
  receipt_token: z
    .string()
    .max(100)
    .optional()
    .meta({
      description:
        "Only the sale whose receipt link (…/receipts/<token>), or one of whose return receipts' links, ends in " +
        "this token: how a till finds the sale a customer brings back by scanning the receipt's QR.",
    }),
  limit: limitSchema({ max: 100, fallback: 20 }),
  cursor: cursorSchema,
});

/** Longest report period. */
export const REPORT_PERIOD_DAYS_MAX = 366;

export const salesReportQuery = z.strictObject({
  from: timestampQuerySchema
    .optional()
    .meta({ description: "Completed at or after (default: start of today in the merchant's time zone)." }),
  to: timestampQuerySchema
    .optional()
    .meta({ description: "Completed before (default: start of tomorrow in the merchant's time zone)." }),
  top: z.coerce
    .number()
    .int()
    .min(1)
    .max(50)
    .default(10)
    .meta({ description: "Best sellers listed per currency (1 to 50, default 10)." }),
  cashier_id: z
    .string()
    .max(100)
    .optional()
    .meta({ description: "Only the sales a cashier (csh_…) recorded, switched in on a till." }),
});

const currencyTotals = z.array(
  z.object({ currency: z.enum(currencies), count: z.number().int(), total_cents: z.number().int() }),
);

export const salesReportSchema = z
  .object({
    object: z.literal("sales_report"),
    livemode: z.boolean(),
    timezone: z.string(),
    from: z.iso.datetime(),
    to: z.iso.datetime(),
    totals: z.object({ count: z.number().int(), by_currency: currencyTotals }),
    by_tender: z
      .array(z.object({ tender: z.enum(saleTenders), count: z.number().int(), by_currency: currencyTotals }))
      .meta({ description: "Cash, wallet and split (sales made with tenders), in the baskets' currencies." }),
    top_products: z.array(
      z.object({
        product_id: z.string().nullable(),
        name: z.string(),
        currency: z.enum(currencies),
        units: z.number().int(),
        revenue_cents: z.number().int(),
      }),
    ),
    net: z.object({ by_currency: z.array(breakdownTotalSchema) }).meta({
      description:
        "The period's gross, discounts, refunds (paid in the period, also of earlier sales), tax and net per " +
        "currency, cash and wallet: the totals of GET /v1/sales/reports/:dimension for the same period.",
    }),
  })
  .meta({ id: "SalesReport" });

export const saleReturnResultSchema = z
  .object({ sale_return: saleReturnSchema, sale: saleSchema })
  .meta({ id: "SaleReturnResult" });
