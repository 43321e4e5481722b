import { z } from "zod";
import type { TaxMode } from "../kernel/basket.ts";

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
 * How the shop prices a sale (its shop profile's tax mode, default tax rate and the discount above
 * which a manager approves), read by the statement that authenticates the request for the same reason
 * as the merchant: ringing up a sale costs no statement for it.
 */
export type ShopPricing = { taxMode: TaxMode; defaultTaxRateBp: number; discountLimitBp: number };

/**
 * Who acts for the merchant: a secret key, the owner signed in to the dashboard, or a till. A till's
 * actor is the cashier switched in (`csh_…`) or, with nobody switched in, the paired device (`dev_…`).
 * Records that say who did something store the kind and id.
 */
export const actorKinds = ["api_key", "dashboard_user", "till_user"] as const;
export type ActorKind = (typeof actorKinds)[number];
export type Actor = { kind: ActorKind; id: string };

export const cashierRoles = ["cashier", "manager"] as const;
export type CashierRole = (typeof cashierRoles)[number];

/** What a manager's PIN at a till approves, one request at a time (an approval names one). */
export const managerActions = [
  "return",
  "cash_pay_out",
  "shift_close",
  "product_update",
  "exchange_rate",
  "discount",
] as const;
export type ManagerAction = (typeof managerActions)[number];

/** What the statement that authenticated a browser session found, for the route's access check. */
export type SessionFacts = {
  id: string;
  /** The signed-in dashboard user (the owner), whichever kind of session. */
  userId: string;
  kind: "dashboard" | "till";
  /** The paired till device that opened a till session (every till session has one). */
  deviceId: string | null;
  /** The password (and second factor) was typed in this session within the step-up window. */
  stepUpFresh: boolean;
  /** The cashier switched in on a till session, with their role. */
  cashier: { id: string; role: CashierRole } | null;
  /** The merchant has active cashiers: till work then needs one switched in. */
  hasCashiers: boolean;
  /** The manager whose PIN approved this request (`Pos-Manager-Approval`), when one did. */
  approvedBy: string | null;
  /** The approval that request carried (with `approvedBy`): the action it is for, used up by that action. */
  approval: { id: string; action: ManagerAction } | null;
};

/**
 * The principal of a merchant request, resolved once per request by the HTTP platform: the merchant,
 * the world (a key's prefix, or a session request's explicit choice) and the actor.
 */
export type Tenant = {
  merchant: MerchantRow;
  pricing: ShopPricing;
  merchantId: string;
  livemode: boolean;
  actor: Actor;
  /** The browser session that carried the request, when a session did (undefined: a secret key). */
  session?: SessionFacts;
};
