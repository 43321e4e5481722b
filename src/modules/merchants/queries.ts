import { z } from "zod";
import { andAfterPreviousRow } from "../../platform/db/newest-first.ts";
import { type Queryable, sql, type Transaction } from "../../platform/db/pool.ts";
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
