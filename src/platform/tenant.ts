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

/**
 * Who acts for the merchant: a secret key, a dashboard user signed in from a browser, or a till user
 * (a dashboard user's till session). Records that say who did something store the kind and id.
 */
export const actorKinds = ["api_key", "dashboard_user", "till_user"] as const;
export type ActorKind = (typeof actorKinds)[number];
export type Actor = { kind: ActorKind; id: string };

/**
 * The principal of a merchant request, resolved once per request by the HTTP platform: the merchant,
 * the world (a key's prefix, or a session request's explicit choice) and the actor.
 */
export type Tenant = {
  merchant: MerchantRow;
  merchantId: string;
  livemode: boolean;
  actor: Actor;
  /** The browser session that carried the request, when a session did. */
  sessionId?: string;
  /** That session's signed-in user (the actor is a cashier when one is switched in on a till session). */
  sessionUserId?: string;
  sessionKind?: "dashboard" | "till";
};
