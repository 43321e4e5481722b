import { z } from "zod";
import { andAfterPreviousRow } from "../../platform/db/newest-first.ts";
import { type Queryable, sql, type Transaction } from "../../platform/db/pool.ts";
import { type ClaimRequest, claimStatement } from "../../platform/idempotency/service.ts";
import { type MerchantRow, merchantRowSchema, type ShopPricing } from "../../platform/tenant.ts";
import { pricingColumnsSchema, pricingOf, pricingOfMerchant } from "../shop-profile/index.ts";

const MERCHANT_COLUMNS = sql.fragment`id, name, type, status, fee_bps, fee_fixed_cents, payout_msisdn, payout_verified, timezone, created_at, updated_at`;

export async function insertMerchant(
  transaction: Transaction,
  merchant: Omit<MerchantRow, "created_at" | "updated_at">,
): Promise<MerchantRow> {
  return transaction.one(sql.type(merchantRowSchema)`
    INSERT INTO merchants (id, name, type, status, fee_bps, fee_fixed_cents, payout_msisdn, payout_verified, timezone)
    VALUES (${merchant.id}, ${merchant.name}, ${merchant.type}, ${merchant.status}, ${merchant.fee_bps},
      ${merchant.fee_fixed_cents}, ${merchant.payout_msisdn}, ${merchant.payout_verified}, ${merchant.timezone})
    RETURNING ${MERCHANT_COLUMNS}`);
}

export async function selectMerchant(database: Queryable, merchantId: string): Promise<MerchantRow | null> {
  return database.maybeOne(sql.type(merchantRowSchema)`
    SELECT ${MERCHANT_COLUMNS} FROM merchants WHERE id = ${merchantId}`);
}

export async function updateMerchantStatus(
  database: Queryable,
  merchantId: string,
  status: MerchantRow["status"],
): Promise<MerchantRow | null> {
  return database.maybeOne(sql.type(merchantRowSchema)`
    UPDATE merchants SET status = ${status}, updated_at = now() WHERE id = ${merchantId}
    RETURNING ${MERCHANT_COLUMNS}`);
}

export async function updateMerchantTimezone(
  database: Queryable,
  merchantId: string,
  timezone: string,
): Promise<MerchantRow | null> {
  return database.maybeOne(sql.type(merchantRowSchema)`
    UPDATE merchants SET timezone = ${timezone}, updated_at = now() WHERE id = ${merchantId}
    RETURNING ${MERCHANT_COLUMNS}`);
}

const timeZoneReadingSchema = z.object({
  known: z.boolean(),
  abbreviation_offset_seconds: z.number().int().nullable(),
});

/**
 * How this PostgreSQL reads a time zone name: whether its tz database has the zone (the view scans
 * that directory, some tens of milliseconds), and the fixed offset of the abbreviation of the same
 * name (matched without regard to case, as `AT TIME ZONE` does), which `AT TIME ZONE` prefers.
 */
export async function selectTimeZoneReading(
  database: Queryable,
  name: string,
): Promise<z.infer<typeof timeZoneReadingSchema>> {
  return database.one(sql.type(timeZoneReadingSchema)`
    SELECT EXISTS (SELECT 1 FROM pg_timezone_names WHERE name = ${name}) AS known,
      (SELECT extract(epoch FROM utc_offset)::integer FROM pg_timezone_abbrevs WHERE upper(abbrev) = upper(${name}))
        AS abbreviation_offset_seconds`);
}

export async function updatePayoutDestination(
  database: Queryable,
  merchantId: string,
  destination: { msisdn: string; verified: boolean },
): Promise<MerchantRow | null> {
  return database.maybeOne(sql.type(merchantRowSchema)`
    UPDATE merchants SET payout_msisdn = ${destination.msisdn}, payout_verified = ${destination.verified}, updated_at = now()
    WHERE id = ${merchantId}
    RETURNING ${MERCHANT_COLUMNS}`);
}

const userRowSchema = z.object({
  merchant_id: z.string(),
  id: z.string(),
  email: z.string(),
  password_hash: z.string(),
});
export type DashboardUserRow = z.infer<typeof userRowSchema>;

/** Inserts the user; null when the email is already taken. */
export async function insertDashboardUser(
  transaction: Transaction,
  user: DashboardUserRow,
): Promise<DashboardUserRow | null> {
  return transaction.maybeOne(sql.type(userRowSchema)`
    INSERT INTO dashboard_users (merchant_id, id, email, password_hash)
    VALUES (${user.merchant_id}, ${user.id}, ${user.email}, ${user.password_hash})
    ON CONFLICT (email) DO NOTHING
    RETURNING merchant_id, id, email, password_hash`);
}

const apiKeyRowSchema = z.object({
  merchant_id: z.string(),
  id: z.string(),
  livemode: z.boolean(),
  secret_last4: z.string(),
  created_at: z.date(),
  last_used_at: z.date().nullable(),
  revoked_at: z.date().nullable(),
  expires_at: z.date().nullable(),
});
export type ApiKeyRow = z.infer<typeof apiKeyRowSchema>;
const API_KEY_COLUMNS = sql.fragment`merchant_id, id, livemode, secret_last4, created_at, last_used_at, revoked_at, expires_at`;

export async function insertApiKey(
  database: Queryable,
  key: { merchantId: string; id: string; livemode: boolean; secretHash: Buffer; last4: string },
): Promise<ApiKeyRow> {
  return database.one(sql.type(apiKeyRowSchema)`
    INSERT INTO api_keys (merchant_id, id, livemode, secret_hash, secret_last4)
    VALUES (${key.merchantId}, ${key.id}, ${key.livemode}, ${sql.binary(key.secretHash)}, ${key.last4})
    RETURNING ${API_KEY_COLUMNS}`);
}

export async function selectApiKeys(database: Queryable, merchantId: string): Promise<readonly ApiKeyRow[]> {
  return database.any(sql.type(apiKeyRowSchema)`
    SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE merchant_id = ${merchantId} ORDER BY created_at, id`);
}

/** One world's keys, newest first, after the (created_at, id) of the previous page's last key. */
export async function selectWorldApiKeys(
  database: Queryable,
  world: { merchantId: string; livemode: boolean; after: { createdAt: string; id: string } | undefined; limit: number },
): Promise<readonly ApiKeyRow[]> {
  const after = andAfterPreviousRow(sql.identifier(["api_keys"]), world.merchantId, world.after);
  return database.any(sql.type(apiKeyRowSchema)`
    SELECT ${API_KEY_COLUMNS} FROM api_keys
    WHERE merchant_id = ${world.merchantId} AND livemode = ${world.livemode} ${after}
    ORDER BY created_at DESC, id DESC
    LIMIT ${world.limit}`);
}

/** Revokes the key (keeping the first revocation time when repeated); null when there is no such key. */
/** Revokes a key of the merchant; of one world only when `livemode` is given (a /v1 caller's), any world for the operator. */
export async function revokeApiKey(
  database: Queryable,
  key: { merchantId: string; id: string; livemode: boolean | null },
): Promise<ApiKeyRow | null> {
  return database.maybeOne(sql.type(apiKeyRowSchema)`
    UPDATE api_keys SET revoked_at = coalesce(revoked_at, now())
    WHERE merchant_id = ${key.merchantId} AND id = ${key.id}
      AND (${key.livemode}::boolean IS NULL OR livemode = ${key.livemode}::boolean)
    RETURNING ${API_KEY_COLUMNS}`);
}

export async function selectApiKey(database: Queryable, merchantId: string, keyId: string): Promise<ApiKeyRow | null> {
  return database.maybeOne(sql.type(apiKeyRowSchema)`
    SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE merchant_id = ${merchantId} AND id = ${keyId}`);
}

/**
 * Lets a key work for `seconds` more (0: revoked now), keeping an earlier end; null when the key is
 * not the merchant's or has already ended.
 */
export async function endApiKey(
  transaction: Transaction,
  merchantId: string,
  keyId: string,
  seconds: number,
): Promise<ApiKeyRow | null> {
  return transaction.maybeOne(sql.type(apiKeyRowSchema)`
    UPDATE api_keys
    SET revoked_at = CASE WHEN ${seconds}::integer = 0 THEN now() END,
      expires_at = CASE WHEN ${seconds}::integer > 0
        THEN least(expires_at, now() + ${seconds}::integer * interval '1 second') END
    WHERE merchant_id = ${merchantId} AND id = ${keyId}
      AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())
    RETURNING ${API_KEY_COLUMNS}`);
}

const authenticationRowSchema = z
  .object({
    ordinal: z.number().int(),
    key_id: z.string(),
    livemode: z.boolean(),
    key_revoked: z.boolean(),
    merchant_id: z.string(),
    merchant_name: z.string(),
    merchant_type: merchantRowSchema.shape.type,
    merchant_status: merchantRowSchema.shape.status,
    fee_bps: z.number().int(),
    fee_fixed_cents: z.number().int(),
    payout_msisdn: z.string().nullable(),
    payout_verified: z.boolean(),
    merchant_created_at: z.date(),
    merchant_updated_at: z.date(),
    merchant_timezone: z.string(),
    rate_taken: z.boolean(),
    rate_remaining: z.number().int(),
    rate_reset_ms: z.number().int(),
    claimed: z.boolean(),
  })
  .extend(pricingColumnsSchema.shape);

export type AuthenticationRequest = {
  secretHash: Buffer;
  /** The world the key's prefix names. */
  livemode: boolean;
  /** A money POST's Idempotency-Key, claimed here when the request is accepted. */
  claim: ClaimRequest | undefined;
};

export type Authentication = {
  keyId: string;
  livemode: boolean;
  keyRevoked: boolean;
  merchant: MerchantRow;
  pricing: ShopPricing;
  rate: { limited: boolean; remaining: number; resetMs: number };
  claimed: boolean;
};

const windowOf = (rateLimit: RateLimit) => sql.fragment`(${rateLimit.windowMs}::integer * interval '1 millisecond')`;

export type RateLimit = { limit: number; windowMs: number };

/**
 * The rate limiter's statement, for a CTE named `taken`: it grants the requests of a CTE named
 * `eligible` (columns `merchant_id`, one row per request) the free slots of their merchant's window
 * and returns each merchant's new log and how many it granted (`merchant_id, accepted_at,
 * last_granted`). Shared by key and session authentication, so every principal counts against the
 * same per-merchant limit.
 */
export function takeRateLimitSlots(rateLimit: RateLimit) {
  const { limit } = rateLimit;
  const window = windowOf(rateLimit);
  return sql.fragment`
      INSERT INTO rate_limit_windows AS w (merchant_id, accepted_at, last_granted)
        SELECT e.merchant_id, array_fill(clock_timestamp(), ARRAY[least(count(*), ${limit}::integer)::integer]),
          least(count(*), ${limit}::integer)
        FROM eligible e GROUP BY e.merchant_id ORDER BY e.merchant_id
      ON CONFLICT (merchant_id) DO UPDATE
        SET (accepted_at, last_granted) = (
          SELECT (kept.log || array_fill(now_.t, ARRAY[free.granted]))
              [greatest(1, cardinality(kept.log) + free.granted - ${limit}::integer + 1):],
            free.granted
          FROM (SELECT clock_timestamp() AS t) AS now_
          -- Only the times still in the window are kept: the log's size follows the merchant's
          -- traffic, not its limit (an operator's limit of thousands would otherwise be counted and
          -- rewritten whole at every request).
          CROSS JOIN LATERAL (
            SELECT coalesce(array_agg(a ORDER BY n), '{}') AS log
            FROM unnest(w.accepted_at) WITH ORDINALITY AS kept_time (a, n) WHERE a > now_.t - ${window}) AS kept
          CROSS JOIN LATERAL (
            SELECT least(excluded.last_granted, ${limit}::integer - cardinality(kept.log))::integer AS granted) AS free)
        WHERE cardinality(w.accepted_at) < ${limit}::integer
          OR w.accepted_at[cardinality(w.accepted_at) - ${limit}::integer + 1] <= clock_timestamp() - ${window}
      RETURNING w.merchant_id, w.accepted_at, w.last_granted`;
}

/**
 * A merchant's window after `takeRateLimitSlots` (`takenLog`; when nothing was granted, the stored
 * log, since nothing was appended): `in_window` requests and `reset_ms` until the oldest leaves it.
 */
export function rateLimitLog(
  rateLimit: RateLimit,
  takenLog: ReturnType<typeof sql.fragment>,
  merchantId: ReturnType<typeof sql.fragment>,
) {
  const window = windowOf(rateLimit);
  return sql.fragment`
      SELECT count(*)::integer AS in_window,
        coalesce(ceil(extract(epoch FROM min(l) + ${window} - clock_timestamp()) * 1000)::integer, 0) AS reset_ms
      FROM unnest(coalesce(${takenLog},
        (SELECT w.accepted_at FROM rate_limit_windows w WHERE w.merchant_id = ${merchantId}))) AS l
      WHERE l > clock_timestamp() - ${window}`;
}

/**
 * One statement for a batch of requests: key lookups, merchants, and for each request of an active
 * merchant one request taken from its rate limit, and the Idempotency-Key claims of the accepted ones.
 * It runs for every /v1 request, so it is a named prepared statement (planned once per connection;
 * planning it costs more than executing it). The answers come in the order of the requests, null for
 * an unknown key.
 *
 * The limiter keeps, per merchant, the times of its accepted requests still in the window (at most
 * `limit`; older ones are dropped at its next write), oldest first, in an unlogged table (its commit
 * writes no WAL and waits for no flush). A merchant's requests in the
 * batch are granted the free slots of its window in the batch's order: the slots are counted on the
 * latest row version once the row is locked, and the appended time is read after the lock, so the log
 * stays ordered across replicas and no window of `windowMs` ever holds more than `limit` accepted
 * requests. A full window is not written at all (the update's condition is an O(1) test on the
 * limit-th most recent time). Rows are locked in merchant order, so concurrent batches cannot
 * deadlock; a claim of merchant M is only inserted after M's row is locked, so two batches never wait
 * on each other's claims either. The database clock decides the time for every replica. The key's
 * coarse "last used" time is written at most once a minute, skipping a key another batch is touching.
 *
 * Longer than 70 lines on purpose: almost all of it is the one statement's SQL text, which reads (and
 * is planned) as one statement; its reusable parts are already fragments (`takeRateLimitSlots`,
 * `claimStatement`, `rateLimitLog`).
 */
export async function authenticateApiKeys(
  database: Queryable,
  requests: readonly AuthenticationRequest[],
  rateLimit: { limit: number; windowMs: number },
): Promise<(Authentication | null)[]> {
  const { limit } = rateLimit;
  const texts = (pick: (request: AuthenticationRequest) => string | null) => sql.array(requests.map(pick), "text");
  const rows = await database.any(sql.prepared("authenticate_api_keys", authenticationRowSchema)`
    WITH presented AS (
      SELECT r.ordinal, r.prefix_livemode, r.idempotency_key, r.request_method, r.request_path,
        decode(r.request_fingerprint, 'hex') AS request_fingerprint, r.owner_token, r.lock_timeout_ms,
        -- A rolled key's old secret works until its expiry, then is refused like a revoked one.
        k.id AS key_id, k.livemode, (k.revoked_at IS NOT NULL OR coalesce(k.expires_at <= now(), false)) AS key_revoked, k.last_used_at,
        m.id AS merchant_id, m.name AS merchant_name, m.type AS merchant_type, m.status AS merchant_status,
        m.fee_bps, m.fee_fixed_cents, m.payout_msisdn, m.payout_verified,
        m.timezone AS merchant_timezone, m.created_at AS merchant_created_at, m.updated_at AS merchant_updated_at
      FROM unnest(
          ${texts((request) => request.secretHash.toString("hex"))}, ${sql.array(
            requests.map((request) => request.livemode),
            "bool",
          )},
          ${texts((request) => request.claim?.key ?? null)}, ${texts((request) => request.claim?.method ?? null)},
          ${texts((request) => request.claim?.path ?? null)},
          ${texts((request) => request.claim?.fingerprint.toString("hex") ?? null)},
          ${texts((request) => request.claim?.ownerToken ?? null)}, ${sql.array(
            requests.map((request) => request.claim?.lockTimeoutMs ?? null),
            "int4",
          )})
        WITH ORDINALITY AS r(secret_hash, prefix_livemode, idempotency_key, request_method, request_path,
          request_fingerprint, owner_token, lock_timeout_ms, ordinal)
      JOIN api_keys k ON k.secret_hash = decode(r.secret_hash, 'hex')
      JOIN merchants m ON m.id = k.merchant_id),
    eligible AS (
      SELECT p.ordinal, p.merchant_id, row_number() OVER (PARTITION BY p.merchant_id ORDER BY p.ordinal)::integer AS nth
      FROM presented p
      WHERE NOT p.key_revoked AND p.merchant_status = 'active'),
    -- The proposed row's last_granted carries how many slots the batch asks for (at most the limit).
    taken AS (${takeRateLimitSlots(rateLimit)}),
    accepted AS (
      SELECT e.ordinal, t.last_granted - e.nth AS granted_after
      FROM eligible e JOIN taken t ON t.merchant_id = e.merchant_id
      WHERE e.nth <= t.last_granted),
    -- Only a key of the world its prefix names may claim; of two claims of one key, the earlier request's wins.
    claimed AS (${claimStatement(sql.fragment`
      SELECT p.merchant_id, p.livemode, p.idempotency_key AS key, p.request_method, p.request_path,
        p.request_fingerprint, p.owner_token, p.lock_timeout_ms
      FROM presented p JOIN accepted a ON a.ordinal = p.ordinal
      WHERE p.idempotency_key IS NOT NULL AND p.livemode = p.prefix_livemode
      ORDER BY p.ordinal`)}),
    touched AS (
      UPDATE api_keys k SET last_used_at = now()
      WHERE (k.merchant_id, k.id) IN (
        SELECT s.merchant_id, s.id FROM api_keys s
        WHERE (s.merchant_id, s.id) IN (
          SELECT p.merchant_id, p.key_id FROM presented p
          WHERE NOT p.key_revoked AND (p.last_used_at IS NULL OR p.last_used_at < now() - interval '1 minute'))
        FOR UPDATE SKIP LOCKED)),
    -- This statement's own transaction does not wait for its WAL flush. Safe: the rate window is
    -- unlogged anyway, the key's last-used time is coarse, and a claim lost in a crash is only a claim
    -- that never happened, because every write that depends on it (storing the response with the
    -- effects) commits synchronously later, and a later flush covers every earlier WAL record.
    commit_mode AS (SELECT set_config('synchronous_commit', 'off', true))
    SELECT p.ordinal::integer, p.key_id, p.livemode, p.key_revoked, p.merchant_id, p.merchant_name, p.merchant_type,
      p.merchant_status, p.fee_bps, p.fee_fixed_cents, p.payout_msisdn, p.payout_verified, p.merchant_timezone,
      p.merchant_created_at, p.merchant_updated_at, pricing.*,
      a.ordinal IS NOT NULL AS rate_taken,
      -- An accepted request sees the slots left after it (the batch's later requests come after it).
      CASE WHEN a.ordinal IS NULL THEN 0 ELSE greatest(0, ${limit}::integer - log.in_window + a.granted_after) END
        AS rate_remaining,
      log.reset_ms AS rate_reset_ms,
      EXISTS (SELECT 1 FROM claimed c WHERE c.owner_token = p.owner_token) AS claimed
    FROM presented p
    CROSS JOIN commit_mode
    LEFT JOIN accepted a ON a.ordinal = p.ordinal
    LEFT JOIN taken t ON t.merchant_id = p.merchant_id
    CROSS JOIN LATERAL (${rateLimitLog(rateLimit, sql.fragment`t.accepted_at`, sql.fragment`p.merchant_id`)}) AS log
    CROSS JOIN LATERAL (${pricingOfMerchant(sql.fragment`p.merchant_id`)}) AS pricing`);
  const byOrdinal = new Map(rows.map((row) => [row.ordinal, row]));
  return requests.map((_request, index) => {
    const row = byOrdinal.get(index + 1);
    return row === undefined ? null : authenticationOf(row);
  });
}

function authenticationOf(row: z.infer<typeof authenticationRowSchema>): Authentication {
  return {
    keyId: row.key_id,
    livemode: row.livemode,
    keyRevoked: row.key_revoked,
    merchant: {
      id: row.merchant_id,
      name: row.merchant_name,
      type: row.merchant_type,
      status: row.merchant_status,
      fee_bps: row.fee_bps,
      fee_fixed_cents: row.fee_fixed_cents,
      payout_msisdn: row.payout_msisdn,
      payout_verified: row.payout_verified,
      timezone: row.merchant_timezone,
      created_at: row.merchant_created_at,
      updated_at: row.merchant_updated_at,
    },
    pricing: pricingOf(row),
    rate: { limited: !row.rate_taken, remaining: row.rate_remaining, resetMs: Math.max(0, row.rate_reset_ms) },
    claimed: row.claimed,
  };
}
