import { z } from "zod";
import { type Queryable, sql, type Transaction } from "../../platform/db/pool.ts";
import { cashierRoles, managerActions, merchantRowSchema } from "../../platform/tenant.ts";
import { type RateLimit, rateLimitLog, takeRateLimitSlots } from "../merchants/index.ts";
import { pricingColumnsSchema, pricingOfMerchant } from "../shop-profile/index.ts";

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
  /** When the password was last typed in this session (null: never; a device's till session never has). */
  password_verified_at: z.date().nullable(),
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
  /** The TOTP secret, sealed (two-factor.ts): pending until two_factor_enabled_at is set. */
  two_factor_secret_ciphertext: z.instanceof(Buffer).nullable(),
  two_factor_enabled_at: z.date().nullable(),
});
export type SignInUser = z.infer<typeof signInUserSchema>;

const USER_COLUMNS = sql.fragment`u.merchant_id, u.id AS user_id, u.email, u.password_hash,
  m.name AS merchant_name, m.status AS merchant_status, u.two_factor_secret_ciphertext, u.two_factor_enabled_at`;

export async function selectUserByEmail(database: Queryable, email: string): Promise<SignInUser | null> {
  return database.maybeOne(sql.type(signInUserSchema)`
    SELECT ${USER_COLUMNS}
    FROM dashboard_users u JOIN merchants m ON m.id = u.merchant_id
    WHERE u.email = ${email}`);
}

export async function selectUser(database: Queryable, merchantId: string, userId: string): Promise<SignInUser | null> {
  return database.maybeOne(sql.type(signInUserSchema)`
    SELECT ${USER_COLUMNS}
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

const attemptSchema = z.object({ over_limit: z.boolean(), retry_after_ms: z.number().int() });

/**
 * Takes one attempt's slot for each subject (an account, an address) before the password is checked:
 * an upsert that locks the subject's row, so concurrent attempts count one after another. A subject's
 * window starts at its first attempt and restarts once it has passed. Answers whether any subject is
 * now past its limit, and the longest wait until the windows that are restart.
 */
export async function takeAttempt(
  database: Queryable,
  subjects: readonly { subject: string; limit: number }[],
  windowMs: number,
): Promise<{ overLimit: boolean; retryAfterMs: number }> {
  const rows = await database.any(sql.type(attemptSchema)`
    WITH s AS (
      SELECT * FROM unnest(${sql.array(
        subjects.map((subject) => subject.subject),
        "text",
      )}, ${sql.array(
        subjects.map((subject) => subject.limit),
        "int4",
      )}) AS s(subject, attempts_max)),
    taken AS (
      INSERT INTO auth_attempts AS a (subject, attempts, window_started_at)
      SELECT subject, 1, now() FROM s
      ON CONFLICT (subject) DO UPDATE SET
        attempts = CASE WHEN a.window_started_at <= now() - ${windowMs}::integer * interval '1 millisecond'
          THEN 1 ELSE a.attempts + 1 END,
        window_started_at = CASE WHEN a.window_started_at <= now() - ${windowMs}::integer * interval '1 millisecond'
          THEN now() ELSE a.window_started_at END
      RETURNING subject, attempts, window_started_at)
    SELECT t.attempts > s.attempts_max AS over_limit,
      greatest(0, ceil(extract(epoch FROM
        t.window_started_at + ${windowMs}::integer * interval '1 millisecond' - now()) * 1000))::integer AS retry_after_ms
    FROM taken t JOIN s USING (subject)`);
  const over = rows.filter((row) => row.over_limit);
  return { overLimit: over.length > 0, retryAfterMs: Math.max(0, ...over.map((row) => row.retry_after_ms)) };
}

/**
 * A right password gives its slot back: the account's count starts again, and the address's loses the
 * attempt (other accounts may be under attack from it, so its earlier failures stay counted).
 */
export async function returnAttempt(
  database: Queryable,
  subjects: { account: string; address: string },
): Promise<void> {
  await database.query(sql.unsafe`
    UPDATE auth_attempts SET attempts = CASE WHEN subject = ${subjects.account} THEN 0 ELSE greatest(attempts - 1, 0) END
    WHERE subject IN (${subjects.account}, ${subjects.address})`);
}

/** The audit entry of a wrong password (sign-in, step-up or password change), in the user's merchant log. */
export async function insertFailureAudit(
  database: Queryable,
  failure: {
    action:
      | "session.sign_in_failed"
      | "session.step_up_failed"
      | "session.two_factor_failed"
      | "user.password_change_failed";
    email: string;
    auditId: string;
    client: { address: string | null; userAgent: string | null };
  },
): Promise<void> {
  await database.query(sql.unsafe`
    INSERT INTO audit_log (merchant_id, id, action, actor_type, actor_id, client_address, user_agent)
    SELECT u.merchant_id, ${failure.auditId}, ${failure.action}, 'dashboard_user', u.id,
      ${failure.client.address}, ${failure.client.userAgent}
    FROM dashboard_users u WHERE u.email = ${failure.email}`);
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
    deviceId: string | null;
    /** The password was typed to open it (a dashboard sign-in): the step-up window starts now. */
    passwordVerified: boolean;
  },
): Promise<SessionRow> {
  return transaction.one(sql.type(sessionRowSchema)`
    INSERT INTO sessions (merchant_id, id, user_id, kind, token_hash, user_agent, client_address,
      idle_timeout_seconds, device_id, password_verified_at, expires_at)
    VALUES (${session.merchantId}, ${session.id}, ${session.userId}, ${session.kind}, ${sql.binary(session.tokenHash)},
      ${session.userAgent}, ${session.clientAddress}, ${session.idleTimeoutSeconds}, ${session.deviceId},
      CASE WHEN ${session.passwordVerified}::boolean THEN now() END,
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

/** Revokes every live session of the user but one (null: all of them); how many it revoked. */
export async function revokeUserSessions(
  transaction: Transaction,
  session: { merchantId: string; userId: string; keepId: string | null },
): Promise<number> {
  const result = await transaction.query(sql.unsafe`
    UPDATE sessions SET revoked_at = now()
    WHERE merchant_id = ${session.merchantId} AND user_id = ${session.userId}
      AND id IS DISTINCT FROM ${session.keepId} AND revoked_at IS NULL`);
  return result.rowCount;
}

export async function markPasswordVerified(database: Queryable, merchantId: string, id: string): Promise<void> {
  await database.query(sql.unsafe`
    UPDATE sessions SET password_verified_at = now() WHERE merchant_id = ${merchantId} AND id = ${id}`);
}

const authenticationRowSchema = merchantRowSchema
  .extend({
    session_id: z.string(),
    user_id: z.string(),
    session_kind: z.enum(["dashboard", "till"]),
    device_id: z.string().nullable(),
    step_up_fresh: z.boolean(),
    cashier_id: z.string().nullable(),
    cashier_role: z.enum(cashierRoles).nullable(),
    has_cashiers: z.boolean(),
    approved_by: z.string().nullable(),
    approval_id: z.string().nullable(),
    approval_action: z.enum(managerActions).nullable(),
    rate_taken: z.boolean(),
    in_window: z.number().int(),
    reset_ms: z.number().int(),
  })
  .extend(pricingColumnsSchema.shape);
export type SessionAuthentication = z.infer<typeof authenticationRowSchema>;

/**
 * One statement per session request: the live session the token names, its merchant, and (when the
 * world may be used: test always, live only for an active merchant) one request taken from the
 * merchant's rate limit, the same limiter as API keys'. The session's last-seen time moves, which
 * pushes its idle end back.
 */
export async function authenticateSession(
  database: Queryable,
  request: { tokenHash: Buffer; livemode: boolean; stepUpWindowMs: number; managerApprovalHash: Buffer | null },
  rateLimit: RateLimit,
): Promise<SessionAuthentication | null> {
  return database.maybeOne(sql.type(authenticationRowSchema)`
    WITH found AS (
      SELECT s.merchant_id, s.id AS session_id, s.user_id, s.kind AS session_kind, m.status AS merchant_status,
        s.device_id, c.id AS cashier_id, c.role AS cashier_role,
        mc.id AS approved_by, CASE WHEN mc.id IS NOT NULL THEN ma.id END AS approval_id,
        CASE WHEN mc.id IS NOT NULL THEN ma.action END AS approval_action,
        -- A till never steps up: only the owner's dashboard session, with the password typed in it.
        coalesce(s.kind = 'dashboard'
          AND s.password_verified_at > now() - ${request.stepUpWindowMs}::integer * interval '1 millisecond', false)
          AS step_up_fresh,
        s.kind = 'till' AND EXISTS (
          SELECT 1 FROM cashiers a WHERE a.merchant_id = s.merchant_id AND a.disabled_at IS NULL) AS has_cashiers
      FROM sessions s JOIN merchants m ON m.id = s.merchant_id
        -- A disabled or locked cashier stops acting at once: the session falls back to no cashier.
        LEFT JOIN cashiers c ON c.merchant_id = s.merchant_id AND c.id = s.cashier_id AND c.disabled_at IS NULL
          AND c.locked_at IS NULL
        -- A manager's approval (Pos-Manager-Approval): this session's, unused, unexpired, and its
        -- manager still an enabled, unlocked manager. Without the header the join finds nothing.
        LEFT JOIN manager_approvals ma ON ma.merchant_id = s.merchant_id AND ma.session_id = s.id
          AND ma.token_hash = ${request.managerApprovalHash === null ? sql.fragment`NULL::bytea` : sql.binary(request.managerApprovalHash)}
          AND ma.used_at IS NULL AND ma.expires_at > now()
        LEFT JOIN cashiers mc ON mc.merchant_id = ma.merchant_id AND mc.id = ma.manager_id AND mc.role = 'manager'
          AND mc.disabled_at IS NULL AND mc.locked_at IS NULL
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
      f.session_id, f.user_id, f.session_kind, f.device_id, f.step_up_fresh, f.cashier_id, f.cashier_role,
      f.has_cashiers, f.approved_by, f.approval_id, f.approval_action,
      pricing.*, t.merchant_id IS NOT NULL AS rate_taken, log.in_window, log.reset_ms
    FROM found f
    JOIN merchants m ON m.id = f.merchant_id
    LEFT JOIN taken t ON t.merchant_id = f.merchant_id
    CROSS JOIN LATERAL (${rateLimitLog(rateLimit, sql.fragment`t.accepted_at`, sql.fragment`f.merchant_id`)}) AS log
    CROSS JOIN LATERAL (${pricingOfMerchant(sql.fragment`f.merchant_id`)}) AS pricing`);
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
