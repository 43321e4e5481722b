import { z } from "zod";
import { cursorSchema, limitSchema, pageSchema } from "../../platform/http/pagination.ts";
import { msisdnSchema } from "../../platform/http/validation.ts";
import { merchantStatuses, merchantTypes } from "../../platform/tenant.ts";
import { isNamedIntlTimeZone, TIME_ZONE_REFUSAL } from "./time-zones.ts";

export const DEFAULT_MERCHANT_TIMEZONE = "Africa/Harare";

/**
 * An IANA time zone name that Node's Intl knows, not an offset. The service also asks the database
 * (`time-zones.ts`), which this synchronous schema cannot.
 */
export const timeZoneSchema = z
  .string()
  .min(1)
  .max(64)
  .refine(isNamedIntlTimeZone, TIME_ZONE_REFUSAL)
  .meta({ description: "IANA time zone, e.g. Africa/Harare (default)." });

export const merchantIdParams = z.strictObject({ id: z.string().min(1).max(64) });
export const apiKeyParams = z.strictObject({ id: z.string().min(1).max(64), key_id: z.string().min(1).max(64) });

export const createMerchantBody = z.strictObject({
  name: z.string().trim().min(1).max(200),
  type: z.enum(merchantTypes).default("business"),
  email: z
    .email()
    .max(254)
    .transform((email) => email.toLowerCase()),
  password: z.string().min(10, "must be at least 10 characters").max(200),
  status: z.enum(merchantStatuses).default("active"),
  fee_bps: z.number().int().min(0).max(10_000).default(0),
  fee_fixed_cents: z.number().int().min(0).max(1_000_000).default(0),
  payout_msisdn: msisdnSchema.optional(),
  payout_verified: z.boolean().default(false),
  timezone: timeZoneSchema.default(DEFAULT_MERCHANT_TIMEZONE),
});
export type CreateMerchantInput = z.output<typeof createMerchantBody>;

export const setStatusBody = z.strictObject({ status: z.enum(merchantStatuses) });
export const setTimezoneBody = z.strictObject({ timezone: timeZoneSchema });
export const mintKeyBody = z.strictObject({ mode: z.enum(["test", "live"]) });
export const payoutDestinationBody = z.strictObject({ msisdn: msisdnSchema, verified: z.boolean() });

const payoutDestination = z.object({ msisdn: z.string().nullable(), verified: z.boolean() });
const timezoneField = z.string().meta({ description: "IANA time zone of the merchant's day (sales reports)." });

/** What the merchant's own profile and an operator's view of it both show. */
const merchantFields = {
  name: z.string(),
  type: z.enum(merchantTypes),
  status: z.enum(merchantStatuses),
  fee_bps: z.number().int(),
  fee_fixed_cents: z.number().int(),
  payout_destination: payoutDestination,
  timezone: timezoneField,
  created_at: z.iso.datetime(),
};

export const merchantProfileSchema = z
  .object({ id: z.string(), object: z.literal("merchant"), livemode: z.boolean(), ...merchantFields })
  .meta({ id: "MerchantProfile" });

export const adminMerchantSchema = z
  .object({ id: z.string(), object: z.literal("merchant"), ...merchantFields, updated_at: z.iso.datetime() })
  .meta({ id: "AdminMerchant" });

export const createdMerchantSchema = adminMerchantSchema
  .extend({
    email: z.string(),
    test_secret_key: z.string().meta({ description: "Shown once." }),
    live_secret_key: z.string().meta({ description: "Shown once." }),
  })
  .meta({ id: "CreatedMerchant" });

/** A key as the merchant sees it: enough to recognise it, its secret only in the answer that minted it. */
export const apiKeySchema = z
  .object({
    id: z.string(),
    object: z.literal("api_key"),
    livemode: z.boolean(),
    prefix: z.enum(["sk_test_", "sk_live_"]),
    last4: z.string(),
    created_at: z.iso.datetime(),
    last_used_at: z.iso
      .datetime()
      .nullable()
      .meta({ description: "Coarse: updated at most once a minute; null if never used." }),
    expires_at: z.iso.datetime().nullable().meta({ description: "When a rolled key stops working; else null." }),
    revoked_at: z.iso.datetime().nullable(),
    secret_key: z.string().optional().meta({ description: "Only in the response that creates the key." }),
  })
  .meta({ id: "ApiKey" });

export const apiKeyListSchema = pageSchema(apiKeySchema);

export const listApiKeysQuery = z.strictObject({
  limit: limitSchema({ max: 100, fallback: 20 }),
  cursor: cursorSchema,
});
