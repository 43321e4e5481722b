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

export type ClaimRequest = {
  key: string;
  method: string;
  path: string;
  fingerprint: Buffer;
  ownerToken: string;
  lockTimeoutMs: number;
};

/**
 * Claims a key for the merchant and world of each row of `claimant` (a query with `merchant_id` and
 * `livemode` columns): returns `owner_token` when it inserted the in-flight record, nothing when the
 * key exists. A fragment, so authentication can claim in its own statement (one round trip less).
 */
export function claimStatement(claimant: FragmentSqlToken, request: ClaimRequest): FragmentSqlToken {
  return sql.fragment`
    INSERT INTO idempotency_keys
      (merchant_id, livemode, key, request_method, request_path, request_fingerprint, state, owner_token, locked_until)
    SELECT claimant.merchant_id, claimant.livemode, ${request.key}::text, ${request.method}::text, ${request.path}::text,
      ${sql.binary(request.fingerprint)}, 'in_flight', ${request.ownerToken}::text,
      now() + ${request.lockTimeoutMs}::integer * interval '1 millisecond'
    FROM (${claimant}) AS claimant
    ON CONFLICT (merchant_id, livemode, key) DO NOTHING
    RETURNING owner_token`;
}

/** The claim on its own: a prepared statement (planned once per connection). */
export async function insertInFlight(
  database: Queryable,
  scope: Omit<IdempotencyScope, "key">,
  request: ClaimRequest,
): Promise<boolean> {
  const claimant = sql.fragment`SELECT ${scope.merchantId}::text AS merchant_id, ${scope.livemode}::boolean AS livemode`;
  const inserted = await database.maybeOneFirst(
    sql.prepared("idempotency_claim", ownerTokenRowSchema)`${claimStatement(claimant, request)}`,
  );
  return inserted !== null;
}

export async function selectRecord(database: Queryable, scope: IdempotencyScope): Promise<IdempotencyRecord | null> {
  return database.maybeOne(sql.type(recordSchema)`
    SELECT request_fingerprint, state, locked_until <= now() AS lock_expired, response_status, response_body
    FROM idempotency_keys
    WHERE merchant_id = ${scope.merchantId} AND livemode = ${scope.livemode} AND key = ${scope.key}`);
}

/** Takes over an in-flight record whose owner's lock has expired (the owner crashed or hung). */
export async function takeOverAbandoned(
  database: Queryable,
  scope: IdempotencyScope,
  takeover: { ownerToken: string; lockTimeoutMs: number },
): Promise<boolean> {
  const updated = await database.maybeOneFirst(sql.type(ownerTokenRowSchema)`
    UPDATE idempotency_keys
    SET owner_token = ${takeover.ownerToken}, locked_until = now() + ${takeover.lockTimeoutMs} * interval '1 millisecond'
    WHERE merchant_id = ${scope.merchantId} AND livemode = ${scope.livemode} AND key = ${scope.key}
      AND state = 'in_flight' AND locked_until <= now()
    RETURNING owner_token`);
  return updated !== null;
}

export type IdempotencyCompletion = { ownerToken: string; status: number; body: string };

/**
 * The statement that stores the response, returning one row when this execution still owns the
 * record and none otherwise. A fragment, so a handler whose effects are one statement can run it in
 * that statement (see `commitWithResponse` in the HTTP platform).
 */
export function storeResponseStatement(scope: IdempotencyScope, completion: IdempotencyCompletion): FragmentSqlToken {
  return sql.fragment`
    UPDATE idempotency_keys
    SET state = 'completed', response_status = ${completion.status}, response_body = ${completion.body},
      completed_at = now()
    WHERE merchant_id = ${scope.merchantId} AND livemode = ${scope.livemode} AND key = ${scope.key}
      AND state = 'in_flight' AND owner_token = ${completion.ownerToken}
    RETURNING key`;
}

/** Stores the response; false when this execution no longer owns the record. */
export async function markCompleted(
  transaction: Transaction,
  scope: IdempotencyScope,
  completion: IdempotencyCompletion,
): Promise<boolean> {
  const updated = await transaction.maybeOneFirst(
    sql.prepared("idempotency_complete", z.object({ key: z.string() }))`${storeResponseStatement(scope, completion)}`,
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
