import { z } from "zod";
import { type Queryable, sql, type Transaction } from "../../platform/db/pool.ts";
import { type ClaimRequest, claimStatement } from "../../platform/idempotency/service.ts";
import { type MerchantRow, merchantRowSchema } from "../../platform/tenant.ts";

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

export async function selectDashboardUserByEmail(database: Queryable, email: string): Promise<DashboardUserRow | null> {
  return database.maybeOne(sql.type(userRowSchema)`
    SELECT merchant_id, id, email, password_hash FROM dashboard_users WHERE email = ${email}`);
}

const apiKeyRowSchema = z.object({
  merchant_id: z.string(),
  id: z.string(),
  livemode: z.boolean(),
  secret_last4: z.string(),
  created_at: z.date(),
  last_used_at: z.date().nullable(),
  revoked_at: z.date().nullable(),
});
export type ApiKeyRow = z.infer<typeof apiKeyRowSchema>;
const API_KEY_COLUMNS = sql.fragment`merchant_id, id, livemode, secret_last4, created_at, last_used_at, revoked_at`;

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

/** Revokes the key (keeping the first revocation time when repeated); null when there is no such key. */
export async function revokeApiKey(database: Queryable, merchantId: string, keyId: string): Promise<ApiKeyRow | null> {
  return database.maybeOne(sql.type(apiKeyRowSchema)`
    UPDATE api_keys SET revoked_at = coalesce(revoked_at, now())
    WHERE merchant_id = ${merchantId} AND id = ${keyId}
    RETURNING ${API_KEY_COLUMNS}`);
}

const authenticationRowSchema = z.object({
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
  rate_taken: z.boolean(),
  claimed: z.boolean(),
  rate_in_window: z.number().int(),
  rate_reset_ms: z.number().int(),
  merchant_timezone: z.string(),
});

/**
 * One round trip, one statement: key lookup, merchant, and for an active merchant one request taken
 * from its rate limit. It runs on every /v1 request, so it is a named prepared statement (planned once
 * per connection; planning this statement costs more than executing it).
 *
 * The limiter keeps, per merchant, the times of its last `limit` accepted requests, oldest first, in
 * an unlogged table (its commit writes no WAL and waits for no flush). A request is accepted when the
 * limit-th most recent of them has left the window, an O(1) test. The upsert evaluates that test on
 * the latest row version once the row is locked, and the appended time is read after the lock
 * (`clock_timestamp()`), so the log stays ordered across replicas and no window of `windowMs` ever
 * holds more than `limit` accepted requests. The database clock decides the time for every replica.
 * The key's coarse "last used" time is written at most once a minute.
 */
export async function authenticateApiKey(
  database: Queryable,
  request: {
    secretHash: Buffer;
    /** The world the key's prefix names. */
    livemode: boolean;
    rateLimit: number;
    rateWindowMs: number;
    /** A money POST's Idempotency-Key, claimed here when the request is accepted. */
    claim: ClaimRequest | undefined;
  },
): Promise<{
  keyId: string;
  livemode: boolean;
  keyRevoked: boolean;
  merchant: MerchantRow;
  rate: { limited: boolean; remaining: number; resetMs: number };
  claimed: boolean;
} | null> {
  const limit = request.rateLimit;
  const window = sql.fragment`(${request.rateWindowMs}::integer * interval '1 millisecond')`;
  const claimed =
    request.claim === undefined
      ? sql.fragment`SELECT NULL::text AS owner_token WHERE false`
      : claimStatement(
          sql.fragment`SELECT p.merchant_id, p.livemode FROM presented p
            WHERE p.livemode = ${request.livemode}::boolean AND EXISTS (SELECT 1 FROM taken)`,
          request.claim,
        );
  const statementName =
    request.claim === undefined ? "authenticate_api_key_and_take_rate" : "authenticate_api_key_take_rate_and_claim";
  const row = await database.maybeOne(sql.prepared(statementName, authenticationRowSchema)`
    WITH presented AS (
      SELECT k.id AS key_id, k.livemode, k.revoked_at IS NOT NULL AS key_revoked, k.last_used_at,
        m.id AS merchant_id, m.name AS merchant_name, m.type AS merchant_type, m.status AS merchant_status,
        m.fee_bps, m.fee_fixed_cents, m.payout_msisdn, m.payout_verified,
        m.timezone AS merchant_timezone, m.created_at AS merchant_created_at, m.updated_at AS merchant_updated_at
      FROM api_keys k JOIN merchants m ON m.id = k.merchant_id
      WHERE k.secret_hash = ${sql.binary(request.secretHash)}),
    taken AS (
      INSERT INTO rate_limit_windows AS w (merchant_id, accepted_at)
        SELECT merchant_id, ARRAY[clock_timestamp()] FROM presented
        WHERE NOT key_revoked AND merchant_status = 'active'
      ON CONFLICT (merchant_id) DO UPDATE
        SET accepted_at = w.accepted_at[greatest(1, cardinality(w.accepted_at) - ${limit}::integer + 2) : cardinality(w.accepted_at)]
          || clock_timestamp()
        WHERE cardinality(w.accepted_at) < ${limit}::integer
          OR w.accepted_at[cardinality(w.accepted_at) - ${limit}::integer + 1] <= clock_timestamp() - ${window}
      RETURNING w.accepted_at),
    touched AS (
      UPDATE api_keys k SET last_used_at = now()
      FROM presented p
      WHERE k.merchant_id = p.merchant_id AND k.id = p.key_id AND NOT p.key_revoked
        AND (p.last_used_at IS NULL OR p.last_used_at < now() - interval '1 minute')),
    claimed AS (${claimed}),
    -- This statement's own transaction does not wait for its WAL flush. Safe: the rate window is
    -- unlogged anyway, the key's last-used time is coarse, and a claim lost in a crash is only a claim
    -- that never happened, because every write that depends on it (storing the response with the
    -- effects) commits synchronously later, and a later flush covers every earlier WAL record.
    commit_mode AS (SELECT set_config('synchronous_commit', 'off', true))
    SELECT p.key_id, p.livemode, p.key_revoked, p.merchant_id, p.merchant_name, p.merchant_type, p.merchant_status,
      p.fee_bps, p.fee_fixed_cents, p.payout_msisdn, p.payout_verified, p.merchant_timezone, p.merchant_created_at,
      p.merchant_updated_at,
      EXISTS (SELECT 1 FROM taken) AS rate_taken, log.in_window AS rate_in_window, log.reset_ms AS rate_reset_ms,
      EXISTS (SELECT 1 FROM claimed) AS claimed
    FROM presented p
    CROSS JOIN commit_mode
    CROSS JOIN LATERAL (
      -- The log as this request left it; when refused, as it stood (the refusal appended nothing).
      SELECT count(*)::integer AS in_window,
        coalesce(ceil(extract(epoch FROM min(t) + ${window} - clock_timestamp()) * 1000)::integer, 0) AS reset_ms
      FROM unnest(coalesce(
        (SELECT accepted_at FROM taken),
        (SELECT w.accepted_at FROM rate_limit_windows w WHERE w.merchant_id = p.merchant_id))) AS t
      WHERE t > clock_timestamp() - ${window}) AS log`);
  if (row === null) {
    return null;
  }
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
    rate: {
      limited: !row.rate_taken,
      remaining: row.rate_taken ? Math.max(0, limit - row.rate_in_window) : 0,
      resetMs: Math.max(0, row.rate_reset_ms),
    },
    claimed: row.claimed,
  };
}
