import { z } from "zod";

/**
 * The merchant as every request sees it: the tenant that scopes all data. Authentication returns it,
 * so handlers that only need the profile cost no further query. The merchants module owns how
 * merchants change; this schema is the row they are read as.
 */
export const merchantStatuses = ["pending", "active", "suspended"] as const;
export const merchantTypes = ["business", "individual", "agent"] as const;

export const merchantRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(merchantTypes),
  status: z.enum(merchantStatuses),
  fee_bps: z.number().int(),
  fee_fixed_cents: z.number().int(),
  payout_msisdn: z.string().nullable(),
  payout_verified: z.boolean(),
  /** IANA time zone: "today" in the merchant's reports. */
  timezone: z.string(),
  created_at: z.date(),
  updated_at: z.date(),
});
export type MerchantRow = z.infer<typeof merchantRowSchema>;

/** Who is calling /v1: the merchant, the world chosen by the key prefix, and the key itself. */
export type Tenant = {
  merchant: MerchantRow;
  merchantId: string;
  livemode: boolean;
  keyId: string;
};
