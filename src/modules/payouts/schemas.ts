import { z } from "zod";
import { ERROR_CODE_META_KEY } from "../../kernel/error-code.ts";
import { currencies } from "../../kernel/money.ts";
import { amountCentsSchema, currencySchema } from "../../kernel/money-schemas.ts";
import { cursorSchema, limitSchema, pageSchema, timestampQuerySchema } from "../../platform/http/pagination.ts";

export const payoutStatuses = ["requested", "submitted", "confirmed", "failed", "reversed"] as const;
export type PayoutStatus = (typeof payoutStatuses)[number];
/** Statuses the payout-processor still works on. */
export const unfinishedPayoutStatuses = ["requested", "submitted"] as const satisfies readonly PayoutStatus[];

/** The largest payout: 10,000,000.00 in either currency. */
export const PAYOUT_AMOUNT_CENTS_MAX = 1_000_000_000;

export const payoutRowSchema = z.object({
  merchant_id: z.string(),
  id: z.string(),
  livemode: z.boolean(),
  status: z.enum(payoutStatuses),
  amount_cents: z.number().int(),
  currency: z.enum(currencies),
  destination_account: z.string(),
  destination_name: z.string().nullable(),
  reference: z.string(),
  gateway_reference: z.string().nullable(),
  failure_reason: z.string().nullable(),
  reversal_reason: z.string().nullable(),
  request_transaction_id: z.string(),
  confirm_transaction_id: z.string().nullable(),
  submit_attempts: z.number().int(),
  last_submit_attempt_at: z.date().nullable(),
  next_attempt_at: z.date(),
  lease_until: z.date().nullable(),
  submitted_at: z.date().nullable(),
  confirmed_at: z.date().nullable(),
  failed_at: z.date().nullable(),
  reversed_at: z.date().nullable(),
  created_at: z.date(),
  updated_at: z.date(),
});
export type PayoutRow = z.infer<typeof payoutRowSchema>;

export const createPayoutBody = z.strictObject({
  amount_cents: amountCentsSchema.max(PAYOUT_AMOUNT_CENTS_MAX).meta({ [ERROR_CODE_META_KEY]: "invalid_amount" }),
  currency: currencySchema.default("USD").meta({ description: "USD (default) or ZWG." }),
});
export type CreatePayoutInput = z.infer<typeof createPayoutBody>;

export const payoutSchema = z
  .object({
    id: z.string(),
    object: z.literal("payout"),
    livemode: z.boolean(),
    status: z.enum(payoutStatuses),
    amount_cents: z.number().int(),
    currency: z.enum(currencies),
    destination_account: z.string().meta({ description: "The merchant's verified payout wallet (MSISDN)." }),
    destination_name: z.string().nullable().meta({ description: "The wallet holder, as the gateway names it." }),
    reference: z.string(),
    failure_reason: z.string().nullable(),
    submitted_at: z.iso.datetime().nullable(),
    confirmed_at: z.iso.datetime().nullable(),
    failed_at: z.iso.datetime().nullable(),
    reversed_at: z.iso.datetime().nullable(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: "Payout" });

/** What an operator sees: the payout and whose it is. */
export const adminPayoutSchema = payoutSchema
  .extend({ merchant_id: z.string(), reversal_reason: z.string().nullable() })
  .meta({ id: "AdminPayout" });

export const payoutPageSchema = pageSchema(payoutSchema);

export const payoutIdParams = z.strictObject({ id: z.string().max(100) });

export const listPayoutsQuery = z.strictObject({
  status: z.enum(payoutStatuses).optional(),
  from: timestampQuerySchema.optional().meta({ description: "Created at or after." }),
  to: timestampQuerySchema.optional().meta({ description: "Created before." }),
  limit: limitSchema({ max: 100, fallback: 20 }),
  cursor: cursorSchema,
});

export const reversePayoutBody = z
  .strictObject({ reason: z.string().trim().min(1).max(200).optional() })
  .optional()
  .meta({ description: "Optional: why the payout is reversed." });
