import { createHash } from "node:crypto";
import DataLoader from "dataloader";
import type { Config } from "../../platform/config.ts";
import type { Database, Queryable } from "../../platform/db/pool.ts";
import { conflict, notFound } from "../../platform/errors.ts";
import type { ApiKeyAuthenticator } from "../../platform/http/authentication.ts";
import { createdAtKey, decodeCreatedAtCursor, type Page, toPage } from "../../platform/http/pagination.ts";
import { newId, randomSecret } from "../../platform/ids.ts";
import type { MerchantRow } from "../../platform/tenant.ts";
import { hashPassword } from "./passwords.ts";
import * as queries from "./queries.ts";
import { type CreateMerchantInput, DEFAULT_MERCHANT_TIMEZONE } from "./schemas.ts";
import { assertDatabaseReadsTimeZoneAlike } from "./time-zones.ts";

export type { ApiKeyRow } from "./queries.ts";

export type MintedKey = { key: queries.ApiKeyRow; secretKey: string };

function hashSecret(secretKey: string): Buffer {
  return createHash("sha256").update(secretKey).digest();
}

async function mintKey(
  database: Parameters<typeof queries.insertApiKey>[0],
  merchantId: string,
  livemode: boolean,
): Promise<MintedKey> {
  const secretKey = `${livemode ? "sk_live_" : "sk_test_"}${randomSecret()}`;
  const key = await queries.insertApiKey(database, {
    merchantId,
    id: newId("key"),
    livemode,
    secretHash: hashSecret(secretKey),
    last4: secretKey.slice(-4),
  });
  return { key, secretKey };
}

/** Creates a merchant, its dashboard user and one key per world, all or nothing. */
export async function createMerchant(
  database: Database,
  input: Omit<CreateMerchantInput, "timezone"> & { timezone?: string },
): Promise<{ merchant: MerchantRow; email: string; testKey: MintedKey; liveKey: MintedKey }> {
  const timezone = input.timezone ?? DEFAULT_MERCHANT_TIMEZONE;
  // The default is a constant the platform ships: creating a merchant with it asks the database nothing.
  if (timezone !== DEFAULT_MERCHANT_TIMEZONE) {
    await assertDatabaseReadsTimeZoneAlike(database, timezone);
  }
  const passwordHash = await hashPassword(input.password);
  return database.transaction(async (transaction) => {
    const merchant = await queries.insertMerchant(transaction, {
      id: newId("mch"),
      name: input.name,
      type: input.type,
      status: input.status,
      fee_bps: input.fee_bps,
      fee_fixed_cents: input.fee_fixed_cents,
      payout_msisdn: input.payout_msisdn ?? null,
      payout_verified: input.payout_msisdn !== undefined && input.payout_verified,
      timezone,
    });
    const user = await queries.insertDashboardUser(transaction, {
      merchant_id: merchant.id,
      id: newId("usr"),
      email: input.email,
      password_hash: passwordHash,
    });
    if (user === null) {
      throw conflict("email_taken", "A dashboard user with this email already exists.");
    }
    const testKey = await mintKey(transaction, merchant.id, false);
    const liveKey = await mintKey(transaction, merchant.id, true);
    return { merchant, email: user.email, testKey, liveKey };
  });
}

export async function getMerchant(database: Database, merchantId: string): Promise<MerchantRow> {
  return (await queries.selectMerchant(database, merchantId)) ?? throwNotFound("No such merchant.");
}

export async function setStatus(
  database: Database,
  merchantId: string,
  status: MerchantRow["status"],
): Promise<MerchantRow> {
  return (await queries.updateMerchantStatus(database, merchantId, status)) ?? throwNotFound("No such merchant.");
}

/**
 * The time zone of the merchant's day (sales reports' default period); past sales are unchanged.
 * A name the database would read otherwise than Intl is refused before anything is written.
 */
export async function setTimezone(database: Database, merchantId: string, timezone: string): Promise<MerchantRow> {
  await assertDatabaseReadsTimeZoneAlike(database, timezone);
  return (await queries.updateMerchantTimezone(database, merchantId, timezone)) ?? throwNotFound("No such merchant.");
}

export async function setPayoutDestination(
  database: Database,
  merchantId: string,
  destination: { msisdn: string; verified: boolean },
): Promise<MerchantRow> {
  return (
    (await queries.updatePayoutDestination(database, merchantId, destination)) ?? throwNotFound("No such merchant.")
  );
}

export async function createApiKey(database: Database, merchantId: string, livemode: boolean): Promise<MintedKey> {
  await getMerchant(database, merchantId);
  return mintKey(database, merchantId, livemode);
}

export async function listApiKeys(database: Database, merchantId: string): Promise<readonly queries.ApiKeyRow[]> {
  await getMerchant(database, merchantId);
  return queries.selectApiKeys(database, merchantId);
}

/**
 * The keys of the caller's world, newest first, revoked ones included; never their secrets or hashes.
 * One world only, like every other `/v1` list: a test key (handed to a staging server, a contractor)
 * must not learn what live keys exist.
 */
export async function listWorldApiKeys(
  database: Queryable,
  world: { merchantId: string; livemode: boolean; limit: number; cursor: string | undefined },
): Promise<Page<queries.ApiKeyRow>> {
  const rows = await queries.selectWorldApiKeys(database, {
    ...world,
    after: decodeCreatedAtCursor(world.cursor),
    limit: world.limit + 1,
  });
  return toPage(rows, { limit: world.limit, keyOf: createdAtKey, present: (row) => row });
}

/**
 * Revokes a key. A /v1 caller names its world and reaches only that world's keys (a test key must not
 * revoke a live one); the operator (`livemode` null) any of the merchant's keys.
 */
export async function revokeApiKey(
  database: Database,
  key: { merchantId: string; id: string; livemode: boolean | null },
): Promise<queries.ApiKeyRow> {
  return (await queries.revokeApiKey(database, key)) ?? throwNotFound("No such API key in this world.");
}

/** A key of the caller's world (the dashboard's world header picks it). */
export async function getWorldApiKey(
  database: Database,
  world: { merchantId: string; livemode: boolean },
  keyId: string,
): Promise<queries.ApiKeyRow> {
  const key = await queries.selectApiKey(database, world.merchantId, keyId);
  if (key === null || key.livemode !== world.livemode) {
    return throwNotFound("No such API key in this world.");
  }
  return key;
}

/**
 * Replaces a key with a new one of the same world; the old secret keeps working for `overlapSeconds`
 * (0: refused at once), so the merchant can deploy the new one first. A key that has ended cannot roll.
 */
export async function rollApiKey(
  database: Database,
  merchantId: string,
  keyId: string,
  overlapSeconds: number,
): Promise<{ previous: queries.ApiKeyRow; minted: MintedKey }> {
  return database.transaction(async (transaction) => {
    const previous =
      (await queries.endApiKey(transaction, merchantId, keyId, overlapSeconds)) ??
      throwNotFound("No such active API key for this merchant.");
    return { previous, minted: await mintKey(transaction, merchantId, previous.livemode) };
  });
}

// Bounds one statement's arrays; far above the requests one API process has in flight.
const AUTHENTICATION_BATCH_SIZE_MAX = 200;

/**
 * The authenticator the HTTP platform calls for every /v1 request. The requests that arrive in the
 * same turn of the event loop are authenticated (and rate limited, and their keys claimed) by one
 * statement: under load a round trip serves several requests, and the database runs one statement
 * for them instead of one each. A batch that fails rejects each of its requests.
 */
export function apiKeyAuthenticator(database: Queryable, config: Pick<Config, "rateLimit">): ApiKeyAuthenticator {
  const rateLimit = { limit: config.rateLimit.requests, windowMs: config.rateLimit.windowMs };
  const batches = new DataLoader<queries.AuthenticationRequest, queries.Authentication | null>(
    (requests) => queries.authenticateApiKeys(database, requests, rateLimit),
    { cache: false, maxBatchSize: AUTHENTICATION_BATCH_SIZE_MAX, batchScheduleFn: setImmediate },
  );
  return async (secretKey, claim) => {
    const row = await batches.load({
      secretHash: hashSecret(secretKey),
      // The prefix alone selects the world: only a key of that world may claim.
      livemode: secretKey.startsWith("sk_live_"),
      claim,
    });
    if (row === null) {
      return { kind: "unknown" };
    }
    // The prefix alone selects the world; the stored flag must agree, or the key is not ours.
    if (row.livemode !== secretKey.startsWith("sk_live_")) {
      return { kind: "unknown" };
    }
    if (row.keyRevoked) {
      return { kind: "revoked" };
    }
    const tenant = {
      merchant: row.merchant,
      pricing: row.pricing,
      merchantId: row.merchant.id,
      livemode: row.livemode,
      actor: { kind: "api_key" as const, id: row.keyId },
    };
    if (row.merchant.status !== "active") {
      return { kind: "inactive", tenant };
    }
    const rateLimit = {
      limit: config.rateLimit.requests,
      windowMs: config.rateLimit.windowMs,
      remaining: row.rate.remaining,
      resetMs: row.rate.resetMs,
    };
    return row.rate.limited
      ? { kind: "rate_limited", tenant, rateLimit }
      : { kind: "accepted", tenant, rateLimit, claimed: row.claimed };
  };
}

function throwNotFound(message: string): never {
  throw notFound(message);
}
