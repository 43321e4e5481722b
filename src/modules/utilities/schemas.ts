import { z } from "zod";
import { ERROR_CODE_META_KEY } from "../../kernel/error-code.ts";
import { currencies } from "../../kernel/money.ts";
import { amountCentsSchema, currencySchema } from "../../kernel/money-schemas.ts";
import { pageSchema } from "../../platform/http/pagination.ts";

export const utilityPaymentStatuses = ["processing", "completed", "failed"] as const;

const receiptDetails = z.record(z.string(), z.union([z.string(), z.number(), z.null()]));

export const utilityPaymentRowSchema = z.object({
  merchant_id: z.string(),
  id: z.string(),
  livemode: z.boolean(),
  idempotency_key: z.string(),
  status: z.enum(utilityPaymentStatuses),
  provider: z.string(),
  provider_product: z.string(),
  amount_cents: z.number().int(),
  fee_cents: z.number().int(),
  commission_cents: z.number().int(),
  currency: z.enum(currencies),
  destination_account: z.string(),
  narration: z.string().nullable(),
  additional_data: z.record(z.string(), z.unknown()),
  reference: z.string(),
  provider_reference: z.string().nullable(),
  token: z.string().nullable(),
  receipt: receiptDetails.nullable(),
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
export type UtilityPaymentRow = z.infer<typeof utilityPaymentRowSchema>;

export const createUtilityPaymentBody = z.strictObject({
  provider: z.string().min(1).max(50).meta({ description: "A provider id from GET /v1/utilities/providers." }),
  provider_product: z.string().min(1).max(50).meta({ description: "One of the provider's product codes." }),
  amount_cents: amountCentsSchema.meta({ [ERROR_CODE_META_KEY]: "invalid_amount" }),
  currency: currencySchema.default("USD").meta({ description: "USD (default) or ZWG, as the provider takes." }),
  destination_account: z
    .string()
    .min(1)
    .max(64)
    .meta({ description: "The provider's account: meter, phone number, smartcard or council account." }),
  narration: z.string().max(200).optional(),
  additional_data: z
    .record(z.string(), z.unknown())
    .optional()
    .meta({ description: "What the provider needs besides the account; its shape is in the provider's entry." }),
});
export type CreateUtilityPaymentInput = z.infer<typeof createUtilityPaymentBody>;

export const utilityPaymentSchema = z
  .object({
    id: z.string(),
    object: z.literal("utility_payment"),
    livemode: z.boolean(),
    status: z.enum(utilityPaymentStatuses),
    provider: z.string(),
    provider_product: z.string(),
    amount_cents: z.number().int().meta({ description: "What the customer buys (the provider receives this)." }),
    fee_cents: z.number().int().meta({ description: "The platform's fee, debited with the amount." }),
    commission_cents: z.number().int().meta({ description: "The provider's commission, credited to the balance." }),
    total_debited_cents: z.number().int().meta({ description: "amount_cents + fee_cents." }),
    net_cost_cents: z.number().int().meta({ description: "total_debited_cents − commission_cents." }),
    currency: z.enum(currencies),
    destination_account: z.string(),
    narration: z.string().nullable(),
    additional_data: z.record(z.string(), z.unknown()),
    reference: z.string(),
    receipt: z
      .object({
        provider_reference: z.string(),
        token: z.string().nullable().meta({ description: "Prepaid electricity: the 20-digit token." }),
        details: receiptDetails,
      })
      .nullable(),
    failure_reason: z.string().nullable(),
    completed_at: z.iso.datetime().nullable(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: "UtilityPayment" });

const cents = z.record(z.string(), z.number().int());
export const utilityProviderSchema = z
  .object({
    id: z.string(),
    object: z.literal("utility_provider"),
    name: z.string(),
    category: z.enum(["electricity", "airtime", "tv", "water"]),
    currencies: z.array(z.enum(currencies)),
    destination_account: z.object({ label: z.string(), pattern: z.string(), example: z.string() }),
    products: z.array(
      z.union([
        z.object({
          code: z.string(),
          name: z.string(),
          pricing: z.literal("variable"),
          min_cents: cents,
          max_cents: cents,
        }),
        z.object({
          code: z.string(),
          name: z.string(),
          pricing: z.literal("fixed"),
          price_cents: cents,
          unit: z.string(),
        }),
      ]),
    ),
    additional_data_schema: z.record(z.string(), z.unknown()).meta({ description: "JSON Schema of additional_data." }),
    fee: z.object({ bps: z.number().int(), fixed_cents: cents }),
    commission_bps: z.number().int(),
  })
  .meta({ id: "UtilityProvider" });

export const utilityProviderListSchema = pageSchema(utilityProviderSchema);

export const idParams = z.strictObject({ id: z.string().max(100) });
