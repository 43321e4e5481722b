import type { FragmentSqlToken } from "slonik";
import { z } from "zod";
import { type Queryable, sql, type Transaction } from "../db/pool.ts";

export type IdempotencyScope = { merchantId: string; livemode: boolean; key: string };

const recordSchema = z.object({
  request_fingerprint: z.instanceof(Buffer),
  state: z.enum(["in_flight", "completed"]),
  lock_expired: z.boolean(),
  response_status: z.number().int().nullable(),
  response_body: z.string().nullable(),
});
export type IdempotencyRecord = z.infer<typeof recordSchema>;
const ownerTokenRowSchema = z.object({ owner_token: z.string() });
const storedKeySchema = z.object({ merchant_id: z.string(), livemode: z.boolean(), key: z.string() });

export type ClaimRequest = {
  key: string;
  method: string;
  path: string;
  fingerprint: Buffer;
  ownerToken: string;
  lockTimeoutMs: number;
};

/**
 * Claims keys: one in-flight record per row of `claimants`, a query with the columns `merchant_id`,
 * `livemode`, `key`, `request_method`, `request_path`, `request_fingerprint` (bytea), `owner_token` and
 * `lock_timeout_ms`. Returns the `owner_token` of each record it inserted, nothing for a key that
 * exists (or that an earlier row of the same statement claimed). A fragment, so authentication can
 * claim in its own statement (one round trip less).
 */
export function claimStatement(claimants: FragmentSqlToken): FragmentSqlToken {
  return sql.fragment`
    INSERT INTO idempotency_keys
      (merchant_id, livemode, key, request_method, request_path, request_fingerprint, state, owner_token, locked_until)
    SELECT claimant.merchant_id, claimant.livemode, claimant.key, claimant.request_method, claimant.request_path,
      claimant.request_fingerprint, 'in_flight', claimant.owner_token,
      now() + claimant.lock_timeout_ms * interval '1 millisecond'
    FROM (${claimants}) AS claimant
    ON CONFLICT (merchant_id, livemode, key) DO NOTHING
    RETURNING owner_token`;
}

/** The claim on its own: a prepared statement (planned once per connection). */
export async function insertInFlight(
  database: Queryable,
  scope: Omit<IdempotencyScope, "key">,
  request: ClaimRequest,
): Promise<boolean> {
  const claimant = sql.fragment`
    SELECT ${scope.merchantId}::text AS merchant_id, ${scope.livemode}::boolean AS livemode, ${request.key}::text AS key,
      ${request.method}::text AS request_method, ${request.path}::text AS request_path,
      ${sql.binary(request.fingerprint)}::bytea AS request_fingerprint, ${request.ownerToken}::text AS owner_token,
      ${request.lockTimeoutMs}::integer AS lock_timeout_ms`;
  const inserted = await database.maybeOneFirst(
    sql.prepared("idempotency_claim", ownerTokenRowSchema)`${claimStatement(claimant)}`,
  );
  return inserted !== null;
}

/**
 * An in-flight record is abandoned once its lock has timed out (its owner crashed or hung) or when it
 * was claimed under another postmaster (the migration that added `claimed_under` says why).
 */
const ABANDONED = sql.fragment`(locked_until <= now() OR claimed_under <> pg_postmaster_start_time())`;

export async function selectRecord(database: Queryable, scope: IdempotencyScope): Promise<IdempotencyRecord | null> {
  return database.maybeOne(sql.type(recordSchema)`
    SELECT request_fingerprint, state, ${ABANDONED} AS lock_expired, response_status, response_body
    FROM idempotency_keys
    WHERE merchant_id = ${scope.merchantId} AND livemode = ${scope.livemode} AND key = ${scope.key}`);
}

/** Takes over an abandoned in-flight record (its lock expired, or the server it was claimed on is gone). */
export async function takeOverAbandoned(
  database: Queryable,
  scope: IdempotencyScope,
  takeover: { ownerToken: string; lockTimeoutMs: number },
): Promise<boolean> {
  const updated = await database.maybeOneFirst(sql.type(ownerTokenRowSchema)`
    UPDATE idempotency_keys
    SET owner_token = ${takeover.ownerToken}, locked_until = now() + ${takeover.lockTimeoutMs} * interval '1 millisecond',
      claimed_under = pg_postmaster_start_time()
    WHERE merchant_id = ${scope.merchantId} AND livemode = ${scope.livemode} AND key = ${scope.key}
      AND state = 'in_flight' AND ${ABANDONED}
    RETURNING owner_token`);
  return updated !== null;
}

export type IdempotencyCompletion = { ownerToken: string; status: number; body: string };

/** A response to store under its key, by the execution that owns the key. */
export type ResponseToStore = IdempotencyScope & IdempotencyCompletion;

/**
 * Stores responses: one per row of `responses`, a query with the columns `merchant_id`, `livemode`,
 * `key`, `owner_token`, `response_status` and `response_body`. Each is stored only while its
 * execution still owns the record; returns `merchant_id`, `livemode` and `key` of each one stored. A
 * fragment, so a handler whose effects are one statement can store its response (or a batch of
 * them) in that statement (see `answeredWrite` in the HTTP platform).
 */
export function storeResponsesStatement(responses: FragmentSqlToken): FragmentSqlToken {
  return sql.fragment`
    UPDATE idempotency_keys AS k
    SET state = 'completed', response_status = r.response_status, response_body = r.response_body,
      completed_at = now()
    FROM (${responses}) AS r
    WHERE k.merchant_id = r.merchant_id AND k.livemode = r.livemode AND k.key = r.key
      AND k.state = 'in_flight' AND k.owner_token = r.owner_token
    RETURNING k.merchant_id, k.livemode, k.key`;
}

/** Stores the response; false when this execution no longer owns the record. */
export async function markCompleted(transaction: Transaction, response: ResponseToStore): Promise<boolean> {
  const updated = await transaction.maybeOne(
    sql.prepared("idempotency_complete", storedKeySchema)`
      ${storeResponsesStatement(sql.fragment`
        SELECT ${response.merchantId}::text AS merchant_id, ${response.livemode}::boolean AS livemode,
          ${response.key}::text AS key, ${response.ownerToken}::text AS owner_token,
          ${response.status}::integer AS response_status, ${response.body}::text AS response_body`)}`,
  );
  return updated !== null;
}

export async function deleteInFlight(database: Queryable, scope: IdempotencyScope, ownerToken: string): Promise<void> {
  await database.query(sql.unsafe`
    DELETE FROM idempotency_keys
    WHERE merchant_id = ${scope.merchantId} AND livemode = ${scope.livemode} AND key = ${scope.key}
      AND state = 'in_flight' AND owner_token = ${ownerToken}`);
}

/** Deletes up to `batchSize` records older than the retention; returns how many it deleted. */
export async function deleteExpiredBatch(
  database: Queryable,
  options: { retentionMs: number; batchSize: number },
): Promise<number> {
  const result = await database.query(sql.unsafe`
    DELETE FROM idempotency_keys
    WHERE ctid = ANY (ARRAY(
      SELECT ctid FROM idempotency_keys
      WHERE created_at < now() - ${options.retentionMs} * interval '1 millisecond'
      LIMIT ${options.batchSize}))`);
  return result.rowCount;
}
