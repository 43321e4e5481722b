import { z } from "zod";
import type { Config } from "../../platform/config.ts";
import { forbidden } from "../../platform/errors.ts";
import { type AnyRoute, defineRoute, type RequestClient } from "../../platform/http/route.ts";
import type { SessionFacts } from "../../platform/tenant.ts";
import { deviceOf } from "./device.ts";
import {
  changePasswordBody,
  sessionIdParams,
  sessionListItemSchema,
  sessionSchema,
  signInBody,
  stepUpBody,
} from "./schemas.ts";
import * as sessions from "./service.ts";
import { clearedSessionCookie, csrfTokenOf, sessionCookie, sessionCookieName } from "./tokens.ts";
import { secondFactorOf, twoFactorEnabled } from "./two-factor.ts";
import { twoFactorRoutes } from "./two-factor-routes.ts";

function presentSession(
  config: Config,
  signedIn: { session: sessions.SessionRow; user: sessions.SignInUser; token: string },
  facts?: SessionFacts,
): z.infer<typeof sessionSchema> {
  const { session, user } = signedIn;
  const idleEnd =
    session.idle_timeout_seconds === null
      ? null
      : new Date(
          Math.min(session.last_seen_at.getTime() + session.idle_timeout_seconds * 1000, session.expires_at.getTime()),
        );
  return {
    id: session.id,
    object: "session",
    kind: session.kind,
    user: { id: user.user_id, email: user.email },
    merchant: { id: user.merchant_id, name: user.merchant_name, status: user.merchant_status },
    csrf_token: csrfTokenOf(signedIn.token),
    created_at: session.created_at.toISOString(),
    expires_at: session.expires_at.toISOString(),
    idle_expires_at: idleEnd?.toISOString() ?? null,
    step_up_expires_at:
      session.kind === "till" || session.password_verified_at === null
        ? null
        : new Date(session.password_verified_at.getTime() + config.sessions.stepUpWindowMs).toISOString(),
    // The request's facts, not the row: a disabled cashier no longer acts (the session lookup drops it).
    cashier_id: facts?.cashier?.id ?? null,
    cashier_role: facts?.cashier?.role ?? null,
    device_id: session.device_id,
    two_factor_enabled: twoFactorEnabled(user),
  };
}

/** The token of the request's own session (present on every `session` route, which checked it). */
function tokenOf(config: Config, client: RequestClient): string {
  return client.cookie(sessionCookieName(config.publicBaseUrl)) ?? "";
}

const errorsOfSignIn = {
  401: {
    description:
      "`invalid_credentials`: unknown email or wrong password (the same answer for both). With two-factor sign-in on: " +
      "`otp_required` (the password was right; send `otp`) or `invalid_otp` (wrong, or already used).",
  },
  429: {
    description: "`too_many_sign_in_attempts`: too many failures for the account or the address; see Retry-After.",
  },
};

/** Step-up and a password change: the session stays good whatever the password typed again. */
const errorsOfStepUp = {
  403: {
    description:
      "`invalid_password`: the password typed again is wrong; with two-factor sign-in on (step-up), `otp_required` " +
      "or `invalid_otp`. The session stays signed in.",
  },
  429: errorsOfSignIn[429],
};

/**
 * Signing in and out, step-up, password change and the session list.
 * Longer than 70 lines as a list of route declarations (a container, docs/conventions.md); each of its
 * handlers keeps to the rule.
 */
export function sessionRoutes(): AnyRoute[] {
  return [
    defineRoute({
      method: "post",
      path: "/v1/session",
      operationId: "signIn",
      summary: "Sign in with the dashboard user's email and password; sets the session cookie",
      tags: ["Account"],
      auth: "none",
      request: { body: signInBody },
      responses: { 201: { description: "The new session.", schema: sessionSchema }, ...errorsOfSignIn },
      handler: async ({ database, config, body, client }) => {
        // A sign-in form on another site must not sign the browser into its attacker's account.
        if (client.origin !== undefined && !client.sameOrigin) {
          throw forbidden("origin_invalid", "Sign in from the dashboard's own origin.");
        }
        const signedIn = await sessions.signIn(database, config.sessions, {
          email: body.email,
          password: body.password,
          kind: body.kind,
          client,
          cookieName: sessionCookieName(config.publicBaseUrl),
          secondFactor: secondFactorOf(database, config, body.otp, client),
        });
        return {
          status: 201,
          headers: {
            "Set-Cookie": sessionCookie(config.publicBaseUrl, signedIn.token, signedIn.lifetimeMs),
            "Cache-Control": "no-store",
          },
          body: presentSession(config, signedIn),
        };
      },
    }),
    defineRoute({
      method: "get",
      path: "/v1/session",
      operationId: "getSession",
      summary: "The current session, its user and merchant, and its CSRF token",
      tags: ["Account"],
      auth: { owner: "session", till: "till" },
      responses: { 200: { description: "The session.", schema: sessionSchema } },
      handler: async ({ database, config, tenant, client }) => {
        const current = await sessions.currentSession(database, tenant);
        return {
          headers: { "Cache-Control": "no-store" },
          body: presentSession(config, { ...current, token: tokenOf(config, client) }, tenant.session),
        };
      },
    }),
    defineRoute({
      method: "delete",
      path: "/v1/session",
      operationId: "signOut",
      summary: "Sign out: the session is revoked on the server and the cookie cleared",
      tags: ["Account"],
      auth: { owner: "session", till: "till" },
      responses: { 200: { description: "Signed out.", schema: z.object({ signed_out: z.literal(true) }) } },
      handler: async ({ database, config, tenant, client }) => {
        await sessions.signOut(database, tenant, client);
        return {
          headers: { "Set-Cookie": clearedSessionCookie(config.publicBaseUrl) },
          body: { signed_out: true as const },
        };
      },
    }),
    defineRoute({
      method: "post",
      path: "/v1/session/step_up",
      operationId: "stepUpSession",
      summary:
        "Type the password again in this dashboard session: step-up actions are then allowed for 5 minutes (never at a till)",
      tags: ["Account"],
      auth: { owner: "session" },
      request: { body: stepUpBody },
      responses: { 200: { description: "The session.", schema: sessionSchema }, ...errorsOfStepUp },
      handler: async ({ database, config, tenant, body, client }) => {
        await sessions.stepUp(database, config.sessions, tenant, {
          password: body.password,
          client,
          secondFactor: secondFactorOf(database, config, body.otp, client),
        });
        const current = await sessions.currentSession(database, tenant);
        return { body: presentSession(config, { ...current, token: tokenOf(config, client) }, tenant.session) };
      },
    }),
    defineRoute({
      method: "post",
      path: "/v1/session/password",
      operationId: "changePassword",
      summary:
        "Change the password (the current one required): every other session is signed out and every till device unpaired",
      tags: ["Account"],
      auth: { owner: "session" },
      request: { body: changePasswordBody },
      responses: {
        200: {
          description: "Changed.",
          schema: z.object({
            password_changed: z.literal(true),
            revoked_sessions: z.number().int(),
            unpaired_devices: z.number().int(),
          }),
        },
        ...errorsOfStepUp,
      },
      handler: async ({ database, config, tenant, body, client }) => {
        const ended = await sessions.changePassword(database, config.sessions, tenant, {
          currentPassword: body.current_password,
          newPassword: body.new_password,
          client,
        });
        return {
          body: {
            password_changed: true as const,
            revoked_sessions: ended.revokedSessions,
            unpaired_devices: ended.unpairedDevices,
          },
        };
      },
    }),
    defineRoute({
      method: "get",
      path: "/v1/sessions",
      operationId: "listSessions",
      summary: "The signed-in user's live sessions (device, address, last seen)",
      tags: ["Account"],
      auth: { owner: "session" },
      responses: {
        200: {
          description: "Live sessions, most recently seen first.",
          schema: z.object({ data: z.array(sessionListItemSchema), has_more: z.literal(false) }),
        },
      },
      handler: async ({ database, tenant }) => {
        const rows = await sessions.listSessions(database, tenant);
        return {
          body: {
            data: rows.map((row) => ({
              id: row.id,
              object: "session" as const,
              kind: row.kind,
              device: deviceOf(row.user_agent),
              client_address: row.client_address,
              created_at: row.created_at.toISOString(),
              last_seen_at: row.last_seen_at.toISOString(),
              expires_at: row.expires_at.toISOString(),
              current: row.id === tenant.session?.id,
            })),
            has_more: false as const,
          },
        };
      },
    }),
    defineRoute({
      method: "delete",
      path: "/v1/sessions",
      operationId: "signOutEverywhere",
      summary: "Sign out everywhere: every session of the user (this one too) ends and every till device is unpaired",
      tags: ["Account"],
      auth: { owner: "session" },
      responses: {
        200: {
          description: "Signed out everywhere; the cookie is cleared.",
          schema: z.object({
            signed_out: z.literal(true),
            revoked_sessions: z.number().int(),
            unpaired_devices: z.number().int(),
          }),
        },
      },
      handler: async ({ database, config, tenant, client }) => {
        const ended = await sessions.signOutEverywhere(database, tenant, client);
        return {
          headers: { "Set-Cookie": clearedSessionCookie(config.publicBaseUrl) },
          body: {
            signed_out: true as const,
            revoked_sessions: ended.revokedSessions,
            unpaired_devices: ended.unpairedDevices,
          },
        };
      },
    }),
    defineRoute({
      method: "delete",
      path: "/v1/sessions/:id",
      operationId: "revokeSession",
      summary: "Sign one of the user's sessions out",
      tags: ["Account"],
      auth: { owner: "session" },
      request: { params: sessionIdParams },
      responses: { 200: { description: "Revoked.", schema: z.object({ id: z.string(), revoked: z.literal(true) }) } },
      handler: async ({ database, tenant, params, client }) => {
        const revoked = await sessions.revokeSession(database, tenant, { id: params.id, client });
        return { body: { id: revoked.id, revoked: true as const } };
      },
    }),
    ...twoFactorRoutes(),
  ];
}
