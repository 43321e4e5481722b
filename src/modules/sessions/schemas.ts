import { z } from "zod";
import { merchantStatuses } from "../../platform/tenant.ts";
import { apiKeySchema } from "../merchants/index.ts";

/**
 * The second factor, when the user has two-factor sign-in on: the 6 digits of the authenticator app
 * (each time step once), or one of the recovery codes (each once).
 */
const otpField = z.string().max(64).optional();

export const signInBody = z.object({
  email: z.string().min(3).max(254),
  password: z.string().min(1).max(200),
  /**
   * Only "dashboard": a till is not signed in with a password but paired (POST /v1/till_devices) and
   * opened with its device (POST /v1/session/device); "till" is refused with 403 till_device_required.
   */
  kind: z.enum(["dashboard", "till"]).default("dashboard"),
  otp: otpField,
});

export const stepUpBody = z.object({ password: z.string().min(1).max(200), otp: otpField });

export const confirmTwoFactorBody = z.object({ code: z.string().min(1).max(64) });

export const twoFactorEnrolmentSchema = z
  .object({
    object: z.literal("two_factor_enrolment"),
    /** For an authenticator app: the QR code shows it; shown once, on this answer only. */
    otpauth_uri: z.string(),
    /** The same secret, base32, to type in by hand. */
    secret: z.string(),
    qr_png_data_url: z.string(),
  })
  .meta({ id: "TwoFactorEnrolment" });

export const twoFactorEnabledSchema = z
  .object({
    object: z.literal("two_factor"),
    enabled: z.literal(true),
    /** Ten one-time codes, each good for one sign-in or step-up without the app. Answered only here, once. */
    recovery_codes: z.array(z.string()),
  })
  .meta({ id: "TwoFactorEnabled" });

export const changePasswordBody = z.object({
  current_password: z.string().min(1).max(200),
  new_password: z.string().min(10, "must be at least 10 characters").max(200),
});

export const sessionIdParams = z.object({ id: z.string().min(1).max(64) });

export const sessionSchema = z
  .object({
    id: z.string(),
    object: z.literal("session"),
    kind: z.enum(["dashboard", "till"]),
    user: z.object({ id: z.string(), email: z.string() }),
    merchant: z.object({ id: z.string(), name: z.string(), status: z.enum(merchantStatuses) }),
    /** Send it back in the Pos-Csrf-Token header of every POST, PATCH and DELETE made with this session. */
    csrf_token: z.string(),
    created_at: z.string(),
    expires_at: z.string(),
    /** When the session ends if unused (null for till sessions). */
    idle_expires_at: z.string().nullable(),
    /**
     * Until then, step-up actions (live keys, payouts, money to others) need no password again; null
     * when no password was typed in this session (a till's session never has one).
     */
    step_up_expires_at: z.string().nullable(),
    /** The cashier switched in on this till session (null: nobody; the PIN screen). */
    cashier_id: z.string().nullable(),
    /** That cashier's role: a manager approves returns, cash pay-outs and a drawer closed with a difference. */
    cashier_role: z.enum(["cashier", "manager"]).nullable(),
    /** The paired till device that opened this session (null: signed in with the password). */
    device_id: z.string().nullable(),
    /** Whether the user has two-factor sign-in on: sign-in and step-up then need `otp`. */
    two_factor_enabled: z.boolean(),
  })
  .meta({ id: "Session" });

export const sessionListItemSchema = z
  .object({
    id: z.string(),
    object: z.literal("session"),
    kind: z.enum(["dashboard", "till"]),
    device: z.string(),
    client_address: z.string().nullable(),
    created_at: z.string(),
    last_seen_at: z.string(),
    expires_at: z.string(),
    current: z.boolean(),
  })
  .meta({ id: "SessionListItem" });

export const mintKeyBody = z.object({ livemode: z.boolean() });

/** When the old secret of a rolled key stops working: now, in 1 hour, 24 hours or 7 days. */
export const rollKeyBody = z.object({
  expires_in_seconds: z.union([z.literal(0), z.literal(3600), z.literal(86_400), z.literal(604_800)]),
});

export const keyIdParams = z.object({ id: z.string().min(1).max(64) });

export const rolledKeySchema = z.object({ previous: apiKeySchema, key: apiKeySchema }).meta({ id: "RolledApiKey" });
