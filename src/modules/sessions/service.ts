import type { Config } from "../../platform/config.ts";
import type { Database, Queryable } from "../../platform/db/pool.ts";
import { ApiError, forbidden, notFound, unauthenticated } from "../../platform/errors.ts";
import type { SessionAuthenticator } from "../../platform/http/principal.ts";
import type { RequestClient } from "../../platform/http/route.ts";
import { newId } from "../../platform/ids.ts";
import type { Tenant } from "../../platform/tenant.ts";
import { recordAuditEntry } from "../audit/index.ts";
import { hashPassword, verifyPassword } from "../merchants/passwords.ts";
import * as queries from "./queries.ts";
import { csrfTokenOf, hashToken, newSessionToken, sessionCookieName } from "./tokens.ts";

export type { SessionKind, SessionRow, SignInUser } from "./queries.ts";

type SessionSettings = Config["sessions"];

/**
 * The hash an unknown email's password is checked against, so that an unknown email costs the same
 * scrypt work as a wrong password and both answers take the same time. Made once per process.
 */
let dummyPasswordHash: Promise<string> | undefined;
const dummyHash = () => {
  dummyPasswordHash ??= hashPassword("no user has this password");
  return dummyPasswordHash;
};

/** Starts hashing the dummy password, so the first unknown email does not pay for it. */
export function warmUp(): void {
  void dummyHash();
}

const invalidCredentials = () => unauthenticated("invalid_credentials", "The email or password is not correct.");

const clientColumns = (client: RequestClient) => ({
  address: client.address?.slice(0, 64) ?? null,
  userAgent: client.userAgent?.slice(0, 512) ?? null,
});

const subjectsOf = (email: string, client: RequestClient, settings: SessionSettings) => [
  { subject: `account:${email}`, limit: settings.failuresPerAccount },
  { subject: `address:${client.address ?? "unknown"}`, limit: settings.failuresPerAddress },
];

/**
 * Checks a password against the brute-force limits: 429 while the account or the address has too many
 * recent failures (whatever the password), a recorded failure and 401 when it is wrong. The same path
 * serves sign-in, step-up and password change.
 */
async function checkPassword(
  database: Database,
  settings: SessionSettings,
  attempt: { email: string; password: string; user: queries.SignInUser | null; client: RequestClient },
): Promise<queries.SignInUser> {
  const subjects = subjectsOf(attempt.email, attempt.client, settings);
  const lockout = await queries.selectLockout(database, subjects, settings.failureWindowMs);
  if (lockout.locked) {
    const retryAfterSeconds = Math.max(1, Math.ceil(lockout.retryAfterMs / 1000));
    throw new ApiError({
      status: 429,
      type: "rate_limited",
      code: "too_many_sign_in_attempts",
      message: `Too many failed attempts. Retry after ${retryAfterSeconds} s.`,
      headers: { "Retry-After": String(retryAfterSeconds) },
    });
  }
  const { matches, upgradedHash } = await verifyPassword(
    attempt.password,
    attempt.user?.password_hash ?? (await dummyHash()),
  );
  if (attempt.user === null || !matches) {
    await queries.insertFailure(database, {
      subjects: subjects.map((subject) => subject.subject),
      email: attempt.email,
      windowMs: settings.failureWindowMs,
      auditId: newId("aud"),
      client: clientColumns(attempt.client),
    });
    throw invalidCredentials();
  }
  if (upgradedHash !== null) {
    await queries.upgradePasswordHash(database, {
      merchantId: attempt.user.merchant_id,
      userId: attempt.user.user_id,
      from: attempt.user.password_hash,
      to: upgradedHash,
    });
  }
  return attempt.user;
}

const normalizeEmail = (email: string) => email.trim().toLowerCase();

export type SignedIn = { session: queries.SessionRow; token: string; user: queries.SignInUser; lifetimeMs: number };

/**
 * Signs a dashboard user in: a fresh token every time (a token the browser already had is revoked,
 * never adopted, so a planted token cannot become a signed-in session).
 */
export async function signIn(
  database: Database,
  settings: SessionSettings,
  input: { email: string; password: string; kind: queries.SessionKind; client: RequestClient; cookieName: string },
): Promise<SignedIn> {
  const email = normalizeEmail(input.email);
  const user = await checkPassword(database, settings, {
    email,
    password: input.password,
    user: await queries.selectUserByEmail(database, email),
    client: input.client,
  });
  const token = newSessionToken();
  const lifetimeMs = input.kind === "till" ? settings.tillLifetimeMs : settings.dashboardLifetimeMs;
  const presented = input.client.cookie(input.cookieName);
  const client = clientColumns(input.client);
  const session = await database.transaction(async (transaction) => {
    await queries.deleteFailures(transaction, `account:${email}`);
    if (presented !== undefined) {
      await queries.revokeSessionByToken(transaction, hashToken(presented));
    }
    const session = await queries.insertSession(transaction, {
      merchantId: user.merchant_id,
      id: newId("ses"),
      userId: user.user_id,
      kind: input.kind,
      tokenHash: hashToken(token),
      userAgent: client.userAgent,
      clientAddress: client.address,
      idleTimeoutSeconds: input.kind === "till" ? null : Math.ceil(settings.idleTimeoutMs / 1000),
      lifetimeMs,
    });
    await recordAuditEntry(transaction, {
      merchantId: user.merchant_id,
      action: "session.signed_in",
      actor: { kind: actorTypeOf(input.kind), id: user.user_id },
      livemode: null,
      target: { type: "session", id: session.id },
      client: input.client,
    });
    return session;
  });
  return { session, token, user, lifetimeMs };
}

const actorTypeOf = (kind: queries.SessionKind) => (kind === "till" ? "till_user" : "dashboard_user");

/** The session and user of a session request. */
export async function currentSession(
  database: Queryable,
  tenant: Tenant,
): Promise<{ session: queries.SessionRow; user: queries.SignInUser }> {
  const { sessionId, userId } = sessionOf(tenant);
  const [session, user] = await Promise.all([
    queries.selectSession(database, tenant.merchantId, sessionId),
    queries.selectUser(database, tenant.merchantId, userId),
  ]);
  if (session === null || user === null) {
    throw unauthenticated("session_expired", "The session has ended or is not valid: sign in again.");
  }
  return { session, user };
}

function sessionOf(tenant: Tenant): { sessionId: string; userId: string } {
  if (tenant.sessionId === undefined) {
    throw forbidden("session_required", "Only a signed-in dashboard user may do this.");
  }
  return { sessionId: tenant.sessionId, userId: tenant.sessionUserId ?? tenant.actor.id };
}

/** The session of a signed-in dashboard user (the owner), refused for till sessions and API keys. */
export function requireDashboardSession(tenant: Tenant): void {
  if (tenant.sessionKind !== "dashboard") {
    throw forbidden("dashboard_session_required", "Only the owner, signed in to the dashboard, may do this.");
  }
}

/** A till session's id, refused for anything else. */
export function tillSessionOf(tenant: Tenant): string {
  if (tenant.sessionKind !== "till" || tenant.sessionId === undefined) {
    throw forbidden("till_session_required", "Only a till signed in with the owner's credentials may do this.");
  }
  return tenant.sessionId;
}

/** Switches the cashier acting on a till session (null: the till is locked, nobody is switched in). */
export async function setSessionCashier(database: Queryable, tenant: Tenant, cashierId: string | null): Promise<void> {
  const sessionId = tillSessionOf(tenant);
  if (!(await queries.updateSessionCashier(database, { merchantId: tenant.merchantId, id: sessionId, cashierId }))) {
    throw unauthenticated("session_expired", "The session has ended or is not valid: sign in again.");
  }
}

export async function signOut(database: Database, tenant: Tenant, client: RequestClient): Promise<void> {
  const { sessionId, userId } = sessionOf(tenant);
  await database.transaction(async (transaction) => {
    await queries.revokeSession(transaction, { merchantId: tenant.merchantId, userId, id: sessionId });
    await recordAuditEntry(transaction, {
      merchantId: tenant.merchantId,
      action: "session.signed_out",
      actor: tenant.actor,
      livemode: null,
      target: { type: "session", id: sessionId },
      client,
    });
  });
}

/** Step-up: the password entered again; live-key minting and rolling accept the session for a while after. */
export async function stepUp(
  database: Database,
  settings: SessionSettings,
  tenant: Tenant,
  input: { password: string; client: RequestClient },
): Promise<queries.SessionRow> {
  const { session, user } = await currentSession(database, tenant);
  await checkPassword(database, settings, { email: user.email, password: input.password, user, client: input.client });
  await database.transaction(async (transaction) => {
    await queries.markPasswordVerified(transaction, tenant.merchantId, session.id);
    await recordAuditEntry(transaction, {
      merchantId: tenant.merchantId,
      action: "session.stepped_up",
      actor: tenant.actor,
      livemode: null,
      target: { type: "session", id: session.id },
      client: input.client,
    });
  });
  return (await queries.selectSession(database, tenant.merchantId, session.id)) ?? session;
}

/** Refuses with 403 `step_up_required` unless the session's password was entered within the window. */
export async function requireStepUp(database: Queryable, settings: SessionSettings, tenant: Tenant): Promise<void> {
  const { sessionId } = sessionOf(tenant);
  const fresh = await queries.passwordVerifiedWithin(
    database,
    { merchantId: tenant.merchantId, id: sessionId },
    settings.stepUpWindowMs,
  );
  if (!fresh) {
    throw forbidden(
      "step_up_required",
      `Enter your password again (POST /v1/session/step_up): this action needs it within the last ${Math.round(settings.stepUpWindowMs / 60_000)} minutes.`,
    );
  }
}

/**
 * For actions a stolen browser session must not take alone (rolling a webhook secret, requesting a
 * payout): a session must have entered its password within the window. An API key is the merchant's
 * server, with no password to enter: its requests pass.
 */
export async function requireStepUpOfSessions(
  database: Queryable,
  settings: SessionSettings,
  tenant: Tenant,
): Promise<void> {
  if (tenant.sessionId !== undefined) {
    await requireStepUp(database, settings, tenant);
  }
}

/** Changes the password (the current one required) and signs every other session of the user out. */
export async function changePassword(
  database: Database,
  settings: SessionSettings,
  tenant: Tenant,
  input: { currentPassword: string; newPassword: string; client: RequestClient },
): Promise<{ revokedSessions: number }> {
  const { session, user } = await currentSession(database, tenant);
  await checkPassword(database, settings, {
    email: user.email,
    password: input.currentPassword,
    user,
    client: input.client,
  });
  const passwordHash = await hashPassword(input.newPassword);
  return database.transaction(async (transaction) => {
    await queries.updatePasswordHash(transaction, {
      merchantId: tenant.merchantId,
      userId: user.user_id,
      passwordHash,
    });
    const revokedSessions = await queries.revokeOtherSessions(transaction, {
      merchantId: tenant.merchantId,
      userId: user.user_id,
      keepId: session.id,
    });
    await queries.markPasswordVerified(transaction, tenant.merchantId, session.id);
    await recordAuditEntry(transaction, {
      merchantId: tenant.merchantId,
      action: "user.password_changed",
      actor: tenant.actor,
      livemode: null,
      target: { type: "dashboard_user", id: user.user_id },
      client: input.client,
    });
    return { revokedSessions };
  });
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
    await recordAuditEntry(transaction, {
      merchantId: tenant.merchantId,
      action: "session.revoked",
      actor: tenant.actor,
      livemode: null,
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
  config: Pick<Config, "rateLimit" | "publicBaseUrl">,
): SessionAuthenticator {
  const rateLimit = { limit: config.rateLimit.requests, windowMs: config.rateLimit.windowMs };
  return {
    cookieName: sessionCookieName(config.publicBaseUrl),
    csrfTokenOf,
    authenticate: async (token, livemode) => {
      const row = await queries.authenticateSession(database, { tokenHash: hashToken(token), livemode }, rateLimit);
      if (row === null) {
        return { kind: "unknown" };
      }
      const { session_id, user_id, session_kind, cashier_id, rate_taken, in_window, reset_ms, ...merchant } = row;
      const tenant: Tenant = {
        merchant,
        merchantId: merchant.id,
        livemode,
        // A till session with a cashier switched in acts as that cashier (sales, returns, shifts record it).
        actor:
          cashier_id === null
            ? { kind: actorTypeOf(session_kind), id: user_id }
            : { kind: "till_user", id: cashier_id },
        sessionId: session_id,
        sessionUserId: user_id,
        sessionKind: session_kind,
      };
      if (livemode && merchant.status !== "active") {
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
