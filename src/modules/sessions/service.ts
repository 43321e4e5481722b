import type { Config } from "../../platform/config.ts";
import type { Database, Queryable, Transaction } from "../../platform/db/pool.ts";
import { forbidden, notFound, unauthenticated } from "../../platform/errors.ts";
import type { SessionAuthenticator } from "../../platform/http/principal.ts";
import type { RequestClient } from "../../platform/http/route.ts";
import type { SessionFacts, Tenant } from "../../platform/tenant.ts";
import { hashPassword } from "../merchants/index.ts";
import { pricingOf } from "../shop-profile/index.ts";
import { auditAccountAction } from "./account-audit.ts";
import * as devices from "./device-queries.ts";
import { checkPassword, type PasswordPurpose, type SecondFactor } from "./password-check.ts";
import * as queries from "./queries.ts";
import { openSession } from "./session-opening.ts";
import { csrfTokenOf, hashToken, newSessionToken, sessionCookieName } from "./tokens.ts";

export { warmUp } from "./password-check.ts";
export type { SessionKind, SessionRow, SignInUser } from "./queries.ts";

type SessionSettings = Config["sessions"];

const normalizeEmail = (email: string) => email.trim().toLowerCase();

export type SignedIn = { session: queries.SessionRow; token: string; user: queries.SignInUser; lifetimeMs: number };

/**
 * Signs the owner in to the dashboard: a fresh token every time (a token the browser already had is
 * revoked, never adopted, so a planted token cannot become a signed-in session). A till is never
 * signed in with a password: it is paired once (`POST /v1/till_devices`) and opens its sessions with
 * its device token, so no password is typed at the counter and a till holds none of the owner's powers.
 */
export async function signIn(
  database: Database,
  settings: SessionSettings,
  input: {
    email: string;
    password: string;
    kind: queries.SessionKind;
    client: RequestClient;
    cookieName: string;
    secondFactor?: SecondFactor;
  },
): Promise<SignedIn> {
  if (input.kind === "till") {
    throw forbidden(
      "till_device_required",
      "A till opens with its paired device: pair it (POST /v1/till_devices with keep_in_cookie), then POST /v1/session/device.",
    );
  }
  const email = normalizeEmail(input.email);
  const user = await checkPassword(database, settings, {
    email,
    password: input.password,
    user: await queries.selectUserByEmail(database, email),
    client: input.client,
    purpose: "sign_in",
    secondFactor: input.secondFactor,
  });
  const token = newSessionToken();
  const lifetimeMs = settings.dashboardLifetimeMs;
  const session = await openSession(database, {
    merchantId: user.merchant_id,
    userId: user.user_id,
    kind: "dashboard",
    token,
    presented: input.client.cookie(input.cookieName),
    client: input.client,
    idleTimeoutSeconds: Math.ceil(settings.idleTimeoutMs / 1000),
    lifetimeMs,
    deviceId: null,
    passwordVerified: true,
    opened: { action: "session.signed_in", actor: { kind: "dashboard_user", id: user.user_id } },
  });
  return { session, token, user, lifetimeMs };
}

/** The session and user of a session request. */
export async function currentSession(
  database: Queryable,
  tenant: Tenant,
): Promise<{ session: queries.SessionRow; user: queries.SignInUser }> {
  const { id, userId } = sessionOf(tenant);
  const [session, user] = await Promise.all([
    queries.selectSession(database, tenant.merchantId, id),
    queries.selectUser(database, tenant.merchantId, userId),
  ]);
  if (session === null || user === null) {
    throw unauthenticated("session_expired", "The session has ended or is not valid: sign in again.");
  }
  return { session, user };
}

/** The session and user of a session request whose user has just typed their password (refused otherwise). */
async function sessionWithPassword(
  database: Database,
  settings: SessionSettings,
  tenant: Tenant,
  attempt: {
    password: string;
    client: RequestClient;
    purpose: PasswordPurpose;
    secondFactor?: SecondFactor | undefined;
  },
): Promise<{ session: queries.SessionRow; user: queries.SignInUser }> {
  const { session, user } = await currentSession(database, tenant);
  await checkPassword(database, settings, { ...attempt, email: user.email, user });
  return { session, user };
}

/** The request's session (routes that take sessions only; a key never reaches them). */
function sessionOf(tenant: Tenant): SessionFacts {
  if (tenant.session === undefined) {
    throw forbidden("principal_not_allowed", "Only a signed-in session may do this.");
  }
  return tenant.session;
}

/** A till session's id, refused for anything else. */
export function tillSessionOf(tenant: Tenant): string {
  if (tenant.session?.kind !== "till") {
    throw forbidden("principal_not_allowed", "Only a till may do this.");
  }
  return tenant.session.id;
}

/** Switches the cashier acting on a till session (null: the till is locked, nobody is switched in). */
export async function setSessionCashier(database: Queryable, tenant: Tenant, cashierId: string | null): Promise<void> {
  const sessionId = tillSessionOf(tenant);
  if (!(await queries.updateSessionCashier(database, { merchantId: tenant.merchantId, id: sessionId, cashierId }))) {
    throw unauthenticated("session_expired", "The session has ended or is not valid: sign in again.");
  }
}

export async function signOut(database: Database, tenant: Tenant, client: RequestClient): Promise<void> {
  const { id, userId } = sessionOf(tenant);
  await database.transaction(async (transaction) => {
    await queries.revokeSession(transaction, { merchantId: tenant.merchantId, userId, id });
    await auditAccountAction(transaction, tenant, {
      action: "session.signed_out",
      target: { type: "session", id },
      client,
    });
  });
}

/**
 * Step-up: the password (and the second factor, when on) typed again in this dashboard session;
 * step-up routes accept it for a while after.
 */
export async function stepUp(
  database: Database,
  settings: SessionSettings,
  tenant: Tenant,
  input: { password: string; client: RequestClient; secondFactor?: SecondFactor },
): Promise<queries.SessionRow> {
  const { session } = await sessionWithPassword(database, settings, tenant, {
    password: input.password,
    client: input.client,
    purpose: "step_up",
    secondFactor: input.secondFactor,
  });
  await database.transaction(async (transaction) => {
    await queries.markPasswordVerified(transaction, tenant.merchantId, session.id);
    await auditAccountAction(transaction, tenant, {
      action: "session.stepped_up",
      target: { type: "session", id: session.id },
      client: input.client,
    });
  });
  return (await queries.selectSession(database, tenant.merchantId, session.id)) ?? session;
}

/**
 * Changes the password (the current one required). Credentials end together: every other session of
 * the user is signed out and every till device unpaired (re-pairing needs the owner); the session that
 * typed both passwords stays, with its step-up window open.
 */
export async function changePassword(
  database: Database,
  settings: SessionSettings,
  tenant: Tenant,
  input: { currentPassword: string; newPassword: string; client: RequestClient },
): Promise<{ revokedSessions: number; unpairedDevices: number }> {
  const { session, user } = await sessionWithPassword(database, settings, tenant, {
    password: input.currentPassword,
    client: input.client,
    purpose: "password_change",
  });
  const passwordHash = await hashPassword(input.newPassword);
  return database.transaction(async (transaction) => {
    await queries.updatePasswordHash(transaction, {
      merchantId: tenant.merchantId,
      userId: user.user_id,
      passwordHash,
    });
    const ended = await endCredentials(transaction, tenant, { userId: user.user_id, keepSessionId: session.id });
    await queries.markPasswordVerified(transaction, tenant.merchantId, session.id);
    await auditAccountAction(transaction, tenant, {
      action: "user.password_changed",
      target: { type: "dashboard_user", id: user.user_id },
      client: input.client,
    });
    return ended;
  });
}

/** Sign out everywhere: every session of the user, this one too, and every till device unpaired. */
export async function signOutEverywhere(
  database: Database,
  tenant: Tenant,
  client: RequestClient,
): Promise<{ revokedSessions: number; unpairedDevices: number }> {
  const { userId } = sessionOf(tenant);
  return database.transaction(async (transaction) => {
    const ended = await endCredentials(transaction, tenant, { userId, keepSessionId: null });
    await auditAccountAction(transaction, tenant, {
      action: "session.signed_out_everywhere",
      target: { type: "dashboard_user", id: userId },
      client,
    });
    return ended;
  });
}

async function endCredentials(
  transaction: Transaction,
  tenant: Tenant,
  input: { userId: string; keepSessionId: string | null },
): Promise<{ revokedSessions: number; unpairedDevices: number }> {
  const unpairedDevices = await devices.revokeAllDevices(transaction, tenant.merchantId);
  const revokedSessions = await queries.revokeUserSessions(transaction, {
    merchantId: tenant.merchantId,
    userId: input.userId,
    keepId: input.keepSessionId,
  });
  return { revokedSessions, unpairedDevices };
}

export async function listSessions(database: Queryable, tenant: Tenant): Promise<readonly queries.SessionRow[]> {
  const { userId } = sessionOf(tenant);
  return queries.selectLiveSessions(database, tenant.merchantId, userId);
}

export async function revokeSession(
  database: Database,
  tenant: Tenant,
  input: { id: string; client: RequestClient },
): Promise<queries.SessionRow> {
  const { userId } = sessionOf(tenant);
  return database.transaction(async (transaction) => {
    const revoked =
      (await queries.revokeSession(transaction, { merchantId: tenant.merchantId, userId, id: input.id })) ??
      throwNotFound();
    await auditAccountAction(transaction, tenant, {
      action: "session.revoked",
      target: { type: "session", id: revoked.id },
      client: input.client,
    });
    return revoked;
  });
}

function throwNotFound(): never {
  throw notFound("No such session of yours.");
}

/** The HTTP platform's view of sessions: the cookie, its CSRF token, and one statement per request. */
export function sessionAuthenticator(
  database: Queryable,
  config: Pick<Config, "rateLimit" | "publicBaseUrl" | "sessions">,
): SessionAuthenticator {
  const rateLimit = { limit: config.rateLimit.requests, windowMs: config.rateLimit.windowMs };
  return {
    cookieName: sessionCookieName(config.publicBaseUrl),
    csrfTokenOf,
    authenticate: async (token, request) => {
      const row = await queries.authenticateSession(
        database,
        {
          tokenHash: hashToken(token),
          livemode: request.livemode,
          stepUpWindowMs: config.sessions.stepUpWindowMs,
          // Bounded before hashing: a header of any length costs one hash, never a match.
          managerApprovalHash:
            request.managerApproval === undefined || request.managerApproval.length > 200
              ? null
              : hashToken(request.managerApproval),
        },
        rateLimit,
      );
      if (row === null) {
        return { kind: "unknown" };
      }
      const { rate_taken, in_window, reset_ms, ...rest } = row;
      const tenant = tenantOf(rest, request.livemode);
      if (request.livemode && tenant.merchant.status !== "active") {
        return { kind: "inactive", tenant };
      }
      const state = {
        limit: rateLimit.limit,
        windowMs: rateLimit.windowMs,
        remaining: Math.max(0, rateLimit.limit - in_window),
        resetMs: Math.max(0, reset_ms),
      };
      return rate_taken
        ? { kind: "accepted", tenant, rateLimit: state }
        : { kind: "rate_limited", tenant, rateLimit: state };
    },
  };
}

function tenantOf(
  row: Omit<queries.SessionAuthentication, "rate_taken" | "in_window" | "reset_ms">,
  livemode: boolean,
): Tenant {
  const {
    session_id,
    user_id,
    session_kind,
    device_id,
    step_up_fresh,
    cashier_id,
    cashier_role,
    has_cashiers,
    approved_by,
    approval_id,
    approval_action,
    pricing_tax_mode,
    pricing_default_tax_rate_bp,
    pricing_discount_limit_bp,
    ...merchant
  } = row;
  const cashier = cashier_id === null || cashier_role === null ? null : { id: cashier_id, role: cashier_role };
  return {
    merchant,
    pricing: pricingOf({ pricing_tax_mode, pricing_default_tax_rate_bp, pricing_discount_limit_bp }),
    merchantId: merchant.id,
    livemode,
    // The actor is who really acts: the owner at the dashboard; at a till, the cashier switched in
    // (sales, returns and shifts record them) or, with nobody switched in, the till device itself.
    actor:
      session_kind === "dashboard"
        ? { kind: "dashboard_user", id: user_id }
        : { kind: "till_user", id: cashier?.id ?? device_id ?? user_id },
    session: {
      id: session_id,
      userId: user_id,
      kind: session_kind,
      deviceId: device_id,
      stepUpFresh: step_up_fresh,
      cashier,
      hasCashiers: has_cashiers,
      approvedBy: approved_by,
      approval: approval_id === null || approval_action === null ? null : { id: approval_id, action: approval_action },
    },
  };
}
