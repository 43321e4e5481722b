import { z } from "zod";
import { ERROR_CODE_META_KEY } from "../../kernel/error-code.ts";
import { currencies } from "../../kernel/money.ts";
import { amountCentsSchema, currencySchema } from "../../kernel/money-schemas.ts";
import { msisdnSchema } from "../../platform/http/validation.ts";

/** The largest withdrawal code: 1,000,000.00 in either currency (cash a till can hand over is far less). */
export const WITHDRAWAL_AMOUNT_CENTS_MAX = 100_000_000;

// Withdrawal codes.

export const withdrawalStatuses = ["pending", "redeemed", "expired"] as const;
export type WithdrawalStatus = (typeof withdrawalStatuses)[number];

export const withdrawalRowSchema = z.object({
  merchant_id: z.string(),
  id: z.string(),
  livemode: z.boolean(),
  status: z.enum(withdrawalStatuses),
  amount_cents: z.number().int(),
  currency: z.enum(currencies),
  code: z.string(),
  reference: z.string(),
  gateway_reference: z.string(),
  qr_png_data_url: z.string(),
  expires_at: z.date(),
  redeemed_at: z.date().nullable(),
  customer_msisdn: z.string().nullable(),
  last_inquiry_at: z.date().nullable(),
  inquiry_count: z.number().int(),
  created_at: z.date(),
  updated_at: z.date(),
});
export type WithdrawalRow = z.infer<typeof withdrawalRowSchema>;

export const createWithdrawalBody = z.strictObject({
  amount_cents: amountCentsSchema.max(WITHDRAWAL_AMOUNT_CENTS_MAX).meta({ [ERROR_CODE_META_KEY]: "invalid_amount" }),
  currency: currencySchema.default("USD").meta({ description: "USD (default) or ZWG." }),
});
export type CreateWithdrawalInput = z.infer<typeof createWithdrawalBody>;

export const claimWithdrawalBody = z
  .strictObject({ customer_msisdn: msisdnSchema.optional() })
  .optional()
  .meta({ description: "Optional: the customer's wallet that claims the code." });

export const withdrawalSchema = z
  .object({
    id: z.string(),
    object: z.literal("withdrawal_code"),
    livemode: z.boolean(),
    status: z.enum(withdrawalStatuses),
    amount_cents: z.number().int(),
    currency: z.enum(currencies),
    code: z.string().meta({ description: "Nine digits the customer enters (or scans) in their wallet app." }),
    qr_png_data_url: z.string().meta({ description: "PNG of the deep link, as a data URL." }),
    deep_link: z.string(),
    reference: z.string(),
    expires_at: z.iso.datetime(),
    redeemed_at: z.iso.datetime().nullable(),
    customer_msisdn: z.string().nullable(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: "WithdrawalCode" });

export const idParams = z.strictObject({ id: z.string().max(100) });

// Change-to-wallet.

export const transferStatuses = ["processing", "completed", "failed"] as const;

export const bankChangeRowSchema = z.object({
  merchant_id: z.string(),
  id: z.string(),
  livemode: z.boolean(),
  idempotency_key: z.string(),
  status: z.enum(transferStatuses),
  amount_cents: z.number().int(),
  currency: z.enum(currencies),
  destination_msisdn: z.string(),
  recipient_name: z.string().nullable(),
  narration: z.string().nullable(),
  reference: z.string(),
  gateway_reference: z.string().nullable(),
  failure_reason: z.string().nullable(),
  debit_transaction_id: z.string(),
  attempts: z.number().int(),
  last_attempt_at: z.date().nullable(),
  lease_until: z.date().nullable(),
  completed_at: z.date().nullable(),
  failed_at: z.date().nullable(),
  created_at: z.date(),
  updated_at: z.date(),
});
export type BankChangeRow = z.infer<typeof bankChangeRowSchema>;

export const createBankChangeBody = z.strictObject({
  amount_cents: amountCentsSchema.meta({ [ERROR_CODE_META_KEY]: "invalid_amount" }),
  currency: currencySchema.default("USD").meta({ description: "USD (default) or ZWG." }),
  destination_msisdn: msisdnSchema,
  narration: z.string().max(200).optional(),
});
export type CreateBankChangeInput = z.infer<typeof createBankChangeBody>;

export const bankChangeSchema = z
  .object({
    id: z.string(),
    object: z.literal("bank_change"),
    livemode: z.boolean(),
    status: z.enum(transferStatuses),
    amount_cents: z.number().int(),
    currency: z.enum(currencies),
    destination_msisdn: z.string(),
    recipient_name: z.string().nullable().meta({ description: "Who received it: the wallet holder's name." }),
    narration: z.string().nullable(),
    reference: z.string(),
    gateway_reference: z.string().nullable(),
    failure_reason: z.string().nullable(),
    completed_at: z.iso.datetime().nullable(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: "BankChange" });

// Account lookup.

export const accountLookupQuery = z.strictObject({
  msisdn: msisdnSchema,
  currency: currencySchema.default("USD").meta({ description: "USD (default) or ZWG." }),
});

export const accountLookupSchema = z
  .object({
    object: z.literal("account_lookup"),
    livemode: z.boolean(),
    msisdn: z.string(),
    currency: z.enum(currencies),
    name: z.string().meta({ description: "The wallet holder's name." }),
    accounts: z.array(
      z.object({ account_number: z.string(), currency: z.enum(currencies), type: z.literal("wallet") }),
    ),
  })
  .meta({ id: "AccountLookup" });
