import { z } from "zod";
import { ERROR_CODE_META_KEY } from "../../kernel/error-code.ts";
import { currencies } from "../../kernel/money.ts";
import { amountCentsSchema, currencySchema } from "../../kernel/money-schemas.ts";
import { cursorSchema, limitSchema, pageSchema, timestampQuerySchema } from "../../platform/http/pagination.ts";

export const paymentStatuses = ["pending", "paid", "expired", "failed", "cancelled"] as const;

/** What is to become of a late payment's money: refund due, refunded to the payer's wallet, or to refund in cash. */
export const lateRefundStates = ["due", "wallet", "cash"] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];

/** The largest payment: 10,000,000.00 in either currency. */
export const PAYMENT_AMOUNT_CENTS_MAX = 1_000_000_000;

/** What a payment's row and its representation hold alike, in the representation's order. */
const paymentFields = {
  livemode: z.boolean(),
  status: z.enum(paymentStatuses),
  amount_cents: z.number().int(),
  currency: z.enum(currencies),
  fee_cents: z.number().int(),
  narration: z.string().nullable(),
  merchant_ref: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
};

export const paymentRowSchema = z.object({
  merchant_id: z.string(),
  id: z.string(),
  ...paymentFields,
  success_url: z.string().nullable(),
  cancel_url: z.string().nullable(),
  reference: z.string(),
  code: z.string(),
  gateway_reference: z.string(),
  expires_at: z.date(),
  paid_at: z.date().nullable(),
  payer_msisdn: z.string().nullable(),
  failure_reason: z.string().nullable(),
  last_inquiry_at: z.date().nullable(),
  inquiry_count: z.number().int(),
  created_at: z.date(),
  updated_at: z.date(),
  cancelled_at: z.date().nullable(),
  void_state: z.enum(["voided", "unconfirmed"]).nullable(),
  late_paid_at: z.date().nullable(),
  late_refund: z.enum(lateRefundStates).nullable(),
  late_refund_reference: z.string().nullable(),
});
export type PaymentRow = z.infer<typeof paymentRowSchema>;

/** A new payment's cancellation and late-payment columns: none yet. */
export const NOT_CANCELLED = {
  cancelled_at: null,
  void_state: null,
  late_paid_at: null,
  late_refund: null,
  late_refund_reference: null,
} as const satisfies Partial<PaymentRow>;

const absoluteHttpUrl = z.url({ protocol: /^https?$/ }).max(2048);

/** JSON numbers are doubles: an integer past 2^53 would be stored as another integer, so it is refused. */
const metadataNumber = z
  .number()
  .refine((value) => !Number.isInteger(value) || Number.isSafeInteger(value), "integers must be within ±(2^53 − 1)");

/** Metadata: up to 20 keys of at most 40 characters; values are short strings, numbers, booleans or null. */
const metadataSchema = z
  .record(z.string().min(1).max(40), z.union([z.string().max(500), metadataNumber, z.boolean(), z.null()]))
  .refine((value) => Object.keys(value).length <= 20, "at most 20 keys")
  .meta({ description: "Up to 20 keys (≤ 40 characters); values: strings (≤ 500), numbers, booleans or null." });

export const createPaymentBody = z.strictObject({
  amount_cents: amountCentsSchema.max(PAYMENT_AMOUNT_CENTS_MAX).meta({ [ERROR_CODE_META_KEY]: "invalid_amount" }),
  currency: currencySchema.default("USD").meta({ description: "USD (default) or ZWG." }),
  narration: z.string().max(200).optional(),
  merchant_ref: z.string().min(1).max(200).optional(),
  metadata: metadataSchema.optional(),
  success_url: absoluteHttpUrl.optional(),
  cancel_url: absoluteHttpUrl.optional(),
});
export type CreatePaymentInput = z.infer<typeof createPaymentBody>;

export const paymentSchema = z
  .object({
    id: z.string(),
    object: z.literal("payment"),
    ...paymentFields,
    reference: z.string(),
    code: z.string(),
    qr_png_data_url: z.string(),
    deep_link: z.string(),
    ussd: z.string(),
    checkout_url: z.string(),
    expires_at: z.iso.datetime(),
    paid_at: z.iso.datetime().nullable(),
    failure_reason: z.string().nullable(),
    success_url: z.string().nullable(),
    cancel_url: z.string().nullable(),
    cancelled_at: z.iso.datetime().nullable(),
    late_payment: z
      .object({
        paid_at: z.iso.datetime(),
        payer_msisdn: z.string().nullable(),
        refund: z.enum(lateRefundStates),
        refund_reference: z.string().nullable(),
      })
      .nullable()
      .meta({
        description:
          "Money that arrived after the payment was cancelled or expired: credited to the balance, the sale left " +
          "cancelled. `refund`: `due` (POST /v1/payments/:id/refund_late), `wallet` (sent back to the payer's " +
          "wallet) or `cash` (to hand back in cash).",
      }),
    created_at: z.iso.datetime(),
  })
  .meta({ id: "Payment" });

export const paymentPageSchema = pageSchema(paymentSchema);

export const paymentIdParams = z.strictObject({ id: z.string().max(100) });

export const listPaymentsQuery = z.strictObject({
  status: z.enum(paymentStatuses).optional(),
  merchant_ref: z.string().max(200).optional(),
  from: timestampQuerySchema.optional().meta({ description: "Created at or after." }),
  to: timestampQuerySchema.optional().meta({ description: "Created before." }),
  limit: limitSchema({ max: 100, fallback: 20 }),
  cursor: cursorSchema,
});
