import { z } from "zod";
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
  rate_limited: z.boolean(),
  rate_remaining: z.number().int(),
  rate_reset_ms: z.number().int(),
  merchant_timezone: z.string(),
});

/** One round trip: key lookup, merchant, and one request taken from the rate limit when active. */
export async function authenticateApiKey(
  database: Queryable,
  request: { secretHash: Buffer; rateLimit: number; rateWindowMs: number },
): Promise<{
  keyId: string;
  livemode: boolean;
  keyRevoked: boolean;
  merchant: MerchantRow;
  rate: { limited: boolean; remaining: number; resetMs: number };
} | null> {
  const row = await database.maybeOne(sql.type(authenticationRowSchema)`
    SELECT * FROM authenticate_api_key(${sql.binary(request.secretHash)}, ${request.rateLimit}, ${request.rateWindowMs})`);
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
    rate: { limited: row.rate_limited, remaining: row.rate_remaining, resetMs: row.rate_reset_ms },
  };
}
