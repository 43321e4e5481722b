import { z } from "zod";
import { type Queryable, sql, type Transaction } from "../../platform/db/pool.ts";
import { merchantRowSchema } from "../../platform/tenant.ts";
import { type RateLimit, rateLimitLog, takeRateLimitSlots } from "../merchants/queries.ts";

export type SessionKind = "dashboard" | "till";

const sessionRowSchema = z.object({
  merchant_id: z.string(),
  id: z.string(),
  user_id: z.string(),
  kind: z.enum(["dashboard", "till"]),
  user_agent: z.string().nullable(),
  client_address: z.string().nullable(),
  created_at: z.date(),
  last_seen_at: z.date(),
  idle_timeout_seconds: z.number().int().nullable(),
  expires_at: z.date(),
  password_verified_at: z.date(),
  revoked_at: z.date().nullable(),
  /** The paired till device that opened the session (null: a password sign-in). */
  device_id: z.string().nullable(),
});
export type SessionRow = z.infer<typeof sessionRowSchema>;
const SESSION_COLUMNS = sql.fragment`merchant_id, id, user_id, kind, user_agent, client_address, created_at,
  last_seen_at, idle_timeout_seconds, expires_at, password_verified_at, revoked_at, device_id`;

/** A session that has neither been revoked nor run out (absolute or idle), as of now. */
const LIVE = sql.fragment`revoked_at IS NULL AND expires_at > now()
  AND (idle_timeout_seconds IS NULL OR last_seen_at > now() - idle_timeout_seconds * interval '1 second')`;

const signInUserSchema = z.object({
  merchant_id: z.string(),
  user_id: z.string(),
  email: z.string(),
  password_hash: z.string(),
  merchant_name: z.string(),
  merchant_status: merchantRowSchema.shape.status,
});
export type SignInUser = z.infer<typeof signInUserSchema>;

export async function selectUserByEmail(database: Queryable, email: string): Promise<SignInUser | null> {
  return database.maybeOne(sql.type(signInUserSchema)`
    SELECT u.merchant_id, u.id AS user_id, u.email, u.password_hash, m.name AS merchant_name, m.status AS merchant_status
    FROM dashboard_users u JOIN merchants m ON m.id = u.merchant_id
    WHERE u.email = ${email}`);
}

export async function selectUser(database: Queryable, merchantId: string, userId: string): Promise<SignInUser | null> {
  return database.maybeOne(sql.type(signInUserSchema)`
    SELECT u.merchant_id, u.id AS user_id, u.email, u.password_hash, m.name AS merchant_name, m.status AS merchant_status
    FROM dashboard_users u JOIN merchants m ON m.id = u.merchant_id
    WHERE u.merchant_id = ${merchantId} AND u.id = ${userId}`);
}

export async function updatePasswordHash(
  transaction: Transaction,
  user: { merchantId: string; userId: string; passwordHash: string },
): Promise<void> {
  await transaction.query(sql.unsafe`
    UPDATE dashboard_users SET password_hash = ${user.passwordHash}
    WHERE merchant_id = ${user.merchantId} AND id = ${user.userId}`);
}

/** Replaces a hash made with older parameters; a password changed meanwhile is left as it is. */
export async function upgradePasswordHash(
  database: Queryable,
  user: { merchantId: string; userId: string; from: string; to: string },
): Promise<void> {
  await database.query(sql.unsafe`
    UPDATE dashboard_users SET password_hash = ${user.to}
    WHERE merchant_id = ${user.merchantId} AND id = ${user.userId} AND password_hash = ${user.from}`);
}

const lockoutSchema = z.object({ failures: z.number().int(), retry_after_ms: z.number().int() });

/**
 * For each subject (an account, an address), how many failures lie within the window and when the
 * oldest of them leaves it; the largest wait over the subjects that reached their limit.
 */
export async function selectLockout(
  database: Queryable,
  subjects: readonly { subject: string; limit: number }[],
  windowMs: number,
): Promise<{ locked: boolean; retryAfterMs: number }> {
  const rows = await database.any(sql.type(lockoutSchema)`
    SELECT count(f.failed_at)::integer AS failures,
      coalesce(ceil(extract(epoch FROM
        -- The failure whose departure brings the count back under the limit.
        (array_agg(f.failed_at ORDER BY f.failed_at DESC))[s.max_failures] + ${windowMs}::integer * interval '1 millisecond'
        - now()) * 1000)::integer, 0) AS retry_after_ms
    FROM unnest(${sql.array(
      subjects.map((subject) => subject.subject),
      "text",
    )}, ${sql.array(
      subjects.map((subject) => subject.limit),
      "int4",
    )}) AS s(subject, max_failures)
    LEFT JOIN sign_in_failures f
      ON f.subject = s.subject AND f.failed_at > now() - ${windowMs}::integer * interval '1 millisecond'
    GROUP BY s.subject, s.max_failures
    HAVING count(f.failed_at) >= s.max_failures`);
  return {
    locked: rows.length > 0,
    retryAfterMs: Math.max(0, ...rows.map((row) => row.retry_after_ms)),
  };
}

/**
 * Records a failed password check for each subject (dropping the subjects' failures older than the
 * window) and, when the email is a user's, an audit entry in that user's merchant log. One statement
 * whether or not the user exists, so both answers take the same time.
 */
export async function insertFailure(
  database: Queryable,
  failure: {
    subjects: readonly string[];
    email: string;
    windowMs: number;
    auditId: string;
    client: { address: string | null; userAgent: string | null };
  },
): Promise<void> {
  await database.query(sql.unsafe`
    WITH subjects AS (SELECT unnest(${sql.array(failure.subjects, "text")}) AS subject),
    aged AS (
      DELETE FROM sign_in_failures f USING subjects s
      WHERE f.subject = s.subject AND f.failed_at <= now() - ${failure.windowMs}::integer * interval '1 millisecond'),
    recorded AS (INSERT INTO sign_in_failures (subject) SELECT subject FROM subjects)
    INSERT INTO audit_log (merchant_id, id, action, actor_type, actor_id, client_address, user_agent)
    SELECT u.merchant_id, ${failure.auditId}, 'session.sign_in_failed', 'dashboard_user', u.id,
      ${failure.client.address}, ${failure.client.userAgent}
    FROM dashboard_users u WHERE u.email = ${failure.email}`);
}

/** A successful sign-in clears the account's failures (not the address's: other accounts may be under attack from it). */
export async function deleteFailures(database: Queryable, subject: string): Promise<void> {
  await database.query(sql.unsafe`DELETE FROM sign_in_failures WHERE subject = ${subject}`);
}

export async function insertSession(
  transaction: Transaction,
  session: {
    merchantId: string;
    id: string;
    userId: string;
    kind: SessionKind;
    tokenHash: Buffer;
    userAgent: string | null;
    clientAddress: string | null;
    idleTimeoutSeconds: number | null;
    lifetimeMs: number;
    deviceId?: string;
  },
): Promise<SessionRow> {
  return transaction.one(sql.type(sessionRowSchema)`
    INSERT INTO sessions (merchant_id, id, user_id, kind, token_hash, user_agent, client_address,
      idle_timeout_seconds, device_id, expires_at)
    VALUES (${session.merchantId}, ${session.id}, ${session.userId}, ${session.kind}, ${sql.binary(session.tokenHash)},
      ${session.userAgent}, ${session.clientAddress}, ${session.idleTimeoutSeconds}, ${session.deviceId ?? null},
      now() + ${session.lifetimeMs}::integer * interval '1 millisecond')
    RETURNING ${SESSION_COLUMNS}`);
}

/** Ends the session a token names, if any (sign-in on top of an older session in the same browser). */
export async function revokeSessionByToken(database: Queryable, tokenHash: Buffer): Promise<void> {
  await database.query(sql.unsafe`
    UPDATE sessions SET revoked_at = now() WHERE token_hash = ${sql.binary(tokenHash)} AND revoked_at IS NULL`);
}

export async function selectSession(database: Queryable, merchantId: string, id: string): Promise<SessionRow | null> {
  return database.maybeOne(sql.type(sessionRowSchema)`
    SELECT ${SESSION_COLUMNS} FROM sessions WHERE merchant_id = ${merchantId} AND id = ${id}`);
}

/** The user's sessions still alive, most recently seen first. */
export async function selectLiveSessions(
  database: Queryable,
  merchantId: string,
  userId: string,
): Promise<readonly SessionRow[]> {
  return database.any(sql.type(sessionRowSchema)`
    SELECT ${SESSION_COLUMNS} FROM sessions
    WHERE merchant_id = ${merchantId} AND user_id = ${userId} AND ${LIVE}
    ORDER BY last_seen_at DESC, id`);
}

/** Revokes one of the user's live sessions; null when there is no such live session. */
export async function revokeSession(
  database: Queryable,
  session: { merchantId: string; userId: string; id: string },
): Promise<SessionRow | null> {
  return database.maybeOne(sql.type(sessionRowSchema)`
    UPDATE sessions SET revoked_at = now()
    WHERE merchant_id = ${session.merchantId} AND user_id = ${session.userId} AND id = ${session.id} AND ${LIVE}
    RETURNING ${SESSION_COLUMNS}`);
}

/** Revokes every live session of the user but one (the one that changed the password). */
export async function revokeOtherSessions(
  transaction: Transaction,
  session: { merchantId: string; userId: string; keepId: string },
): Promise<number> {
  const result = await transaction.query(sql.unsafe`
    UPDATE sessions SET revoked_at = now()
    WHERE merchant_id = ${session.merchantId} AND user_id = ${session.userId} AND id <> ${session.keepId}
      AND revoked_at IS NULL`);
  return result.rowCount;
}

export async function markPasswordVerified(database: Queryable, merchantId: string, id: string): Promise<void> {
  await database.query(sql.unsafe`
    UPDATE sessions SET password_verified_at = now() WHERE merchant_id = ${merchantId} AND id = ${id}`);
}

/** Whether the session's password was entered within the window (the database clock decides). */
export async function passwordVerifiedWithin(
  database: Queryable,
  session: { merchantId: string; id: string },
  windowMs: number,
): Promise<boolean> {
  return database.oneFirst(sql.type(z.object({ fresh: z.boolean() }))`
    SELECT coalesce((SELECT password_verified_at > now() - ${windowMs}::integer * interval '1 millisecond'
      FROM sessions WHERE merchant_id = ${session.merchantId} AND id = ${session.id}), false) AS fresh`);
}

const authenticationRowSchema = merchantRowSchema.extend({
  session_id: z.string(),
  user_id: z.string(),
  session_kind: z.enum(["dashboard", "till"]),
  cashier_id: z.string().nullable(),
  rate_taken: z.boolean(),
  in_window: z.number().int(),
  reset_ms: z.number().int(),
});
export type SessionAuthentication = z.infer<typeof authenticationRowSchema>;

/**
 * One statement per session request: the live session the token names, its merchant, and (when the
 * world may be used: test always, live only for an active merchant) one request taken from the
 * merchant's rate limit, the same limiter as API keys'. The session's last-seen time moves, which
 * pushes its idle end back.
 */
export async function authenticateSession(
  database: Queryable,
  request: { tokenHash: Buffer; livemode: boolean },
  rateLimit: RateLimit,
): Promise<SessionAuthentication | null> {
  return database.maybeOne(sql.type(authenticationRowSchema)`
    WITH found AS (
      SELECT s.merchant_id, s.id AS session_id, s.user_id, s.kind AS session_kind, m.status AS merchant_status,
        c.id AS cashier_id
      FROM sessions s JOIN merchants m ON m.id = s.merchant_id
        -- A disabled cashier stops acting at once: the session falls back to no cashier.
        LEFT JOIN cashiers c ON c.merchant_id = s.merchant_id AND c.id = s.cashier_id AND c.disabled_at IS NULL
        -- A session a paired device opened ends with the device's revocation.
        LEFT JOIN till_devices d ON d.merchant_id = s.merchant_id AND d.id = s.device_id
      WHERE (s.device_id IS NULL OR d.revoked_at IS NULL) AND s.token_hash = ${sql.binary(request.tokenHash)} AND s.revoked_at IS NULL AND s.expires_at > now()
        AND (s.idle_timeout_seconds IS NULL
          OR s.last_seen_at > now() - s.idle_timeout_seconds * interval '1 second')),
    eligible AS (
      SELECT f.merchant_id FROM found f WHERE NOT ${request.livemode}::boolean OR f.merchant_status = 'active'),
    taken AS (${takeRateLimitSlots(rateLimit)}),
    seen AS (
      UPDATE sessions s SET last_seen_at = now()
      FROM found f WHERE s.merchant_id = f.merchant_id AND s.id = f.session_id)
    SELECT m.id, m.name, m.type, m.status, m.fee_bps, m.fee_fixed_cents, m.payout_msisdn, m.payout_verified,
      m.timezone, m.created_at, m.updated_at,
      f.session_id, f.user_id, f.session_kind, f.cashier_id, t.merchant_id IS NOT NULL AS rate_taken, log.in_window, log.reset_ms
    FROM found f
    JOIN merchants m ON m.id = f.merchant_id
    LEFT JOIN taken t ON t.merchant_id = f.merchant_id
    CROSS JOIN LATERAL (${rateLimitLog(rateLimit, sql.fragment`t.accepted_at`, sql.fragment`f.merchant_id`)}) AS log`);
}

/** Switches a till session's cashier (null: nobody); false when the session is not a live till session. */
export async function updateSessionCashier(
  database: Queryable,
  session: { merchantId: string; id: string; cashierId: string | null },
): Promise<boolean> {
  const result = await database.query(sql.unsafe`
    UPDATE sessions SET cashier_id = ${session.cashierId}
    WHERE merchant_id = ${session.merchantId} AND id = ${session.id} AND kind = 'till' AND revoked_at IS NULL`);
  return result.rowCount === 1;
}
