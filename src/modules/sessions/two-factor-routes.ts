import { z } from "zod";
import { type AnyRoute, defineRoute } from "../../platform/http/route.ts";
import { confirmTwoFactorBody, twoFactorEnabledSchema, twoFactorEnrolmentSchema } from "./schemas.ts";
import { currentSession } from "./service.ts";
import { confirmEnrolment, disableTwoFactor, startEnrolment } from "./two-factor.ts";

/**
 * Two-factor sign-in, turned on and off by the owner at the dashboard with a fresh step-up (with 2FA on,
 * that step-up took a code too): a till, a key or a stale session cannot change who may sign in.
 *
 * Longer than 70 lines as a list of route declarations (a container, docs/conventions.md); each of its
 * handlers keeps to the rule.
 */
export function twoFactorRoutes(): AnyRoute[] {
  return [
    defineRoute({
      method: "post",
      path: "/v1/session/two_factor",
      operationId: "startTwoFactorEnrolment",
      summary:
        "Start turning two-factor sign-in on: a new TOTP secret (otpauth URI, base32, QR code), pending until confirmed",
      tags: ["Account"],
      auth: { owner: "step_up" },
      responses: {
        201: { description: "The pending secret; answered only here.", schema: twoFactorEnrolmentSchema },
        409: { description: "`two_factor_already_enabled`: turn it off first." },
      },
      handler: async ({ database, config, tenant, client }) => {
        const { user } = await currentSession(database, tenant);
        const enrolment = await startEnrolment(database, config, tenant, { user, client });
        return {
          status: 201,
          headers: { "Cache-Control": "no-store" },
          body: {
            object: "two_factor_enrolment" as const,
            otpauth_uri: enrolment.otpauthUri,
            secret: enrolment.secret,
            qr_png_data_url: enrolment.qrPngDataUrl,
          },
        };
      },
    }),
    defineRoute({
      method: "post",
      path: "/v1/session/two_factor/confirm",
      operationId: "confirmTwoFactor",
      summary:
        "Turn two-factor sign-in on with a code from the pending secret; answers 10 one-time recovery codes, once",
      tags: ["Account"],
      auth: { owner: "step_up" },
      request: { body: confirmTwoFactorBody },
      responses: {
        200: { description: "On; the recovery codes are never shown again.", schema: twoFactorEnabledSchema },
        400: { description: "`invalid_otp`: not the code the authenticator app shows now." },
        409: { description: "`two_factor_not_pending`: no enrolment started (or already on)." },
      },
      handler: async ({ database, config, tenant, body, client }) => {
        const { user } = await currentSession(database, tenant);
        const codes = await confirmEnrolment(database, config, tenant, { user, code: body.code, client });
        return {
          headers: { "Cache-Control": "no-store" },
          body: { object: "two_factor" as const, enabled: true as const, recovery_codes: codes },
        };
      },
    }),
    defineRoute({
      method: "delete",
      path: "/v1/session/two_factor",
      operationId: "disableTwoFactor",
      summary: "Turn two-factor sign-in off: the secret and the recovery codes are deleted",
      tags: ["Account"],
      auth: { owner: "step_up" },
      responses: {
        200: {
          description: "Off.",
          schema: z.object({ object: z.literal("two_factor"), enabled: z.literal(false) }),
        },
        409: { description: "`two_factor_not_enabled`: it was not on." },
      },
      handler: async ({ database, tenant, client }) => {
        const { user } = await currentSession(database, tenant);
        await disableTwoFactor(database, tenant, { user, client });
        return { body: { object: "two_factor" as const, enabled: false as const } };
      },
    }),
  ];
}
