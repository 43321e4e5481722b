import { createHash, randomUUID } from "node:crypto";
import canonicalize from "canonicalize";
import type { Database, Transaction } from "../db/pool.ts";
import { ApiError, conflict } from "../errors.ts";
import * as queries from "./queries.ts";

/**
 * Idempotency for money-moving POSTs, following the specification's rules:
 * - a record is scoped by (merchant, world, key) and fingerprints the request (method, path and the
 *   canonical JSON body, RFC 8785), so a key reused with another body is a 409 `idempotency_mismatch`;
 * - the first request claims the record in its own short transaction, so concurrent duplicates see it
 *   in flight (409 `idempotency_in_flight`) while it runs;
 * - the response (status and exact bytes) is stored in the same transaction as the handler's effects,
 *   and replayed byte for byte afterwards;
 * - a record whose owner crashed becomes claimable again once its lock times out, and at once when
 *   it was claimed under a server that has since restarted or been replaced by a promoted standby;
 * - a 5xx releases the record, so the client retries with the same key as the specification asks.
 */

export type IdempotencyScope = queries.IdempotencyScope;

export type ClaimOutcome = { kind: "owner"; ownerToken: string } | { kind: "replay"; status: number; body: string };

export function fingerprintRequest(request: { method: string; path: string; body: unknown }): Buffer {
  const canonicalBody = canonicalize(request.body ?? null) ?? "null";
  return createHash("sha256").update(`${request.method}\n${request.path}\n${canonicalBody}`).digest();
}

export type ClaimRequest = queries.ClaimRequest;

/** What a money POST claims: its key, its fingerprint and a fresh owner token. */
export function claimRequestOf(
  request: { key: string; method: string; path: string; body: unknown },
  lockTimeoutMs: number,
): ClaimRequest {
  return {
    key: request.key,
    method: request.method,
    path: request.path,
    fingerprint: fingerprintRequest(request),
    ownerToken: randomUUID(),
    lockTimeoutMs,
  };
}

/**
 * The claim as a fragment over the rows of a query (see `queries.claimStatement` for its columns), for
 * authentication to claim in its own statement; `claim` then only settles what that insert did not.
 */
export const claimStatement = queries.claimStatement;

/**
 * Claims the key for this request, or answers from its record: a replay, 409 `idempotency_mismatch`,
 * 409 `idempotency_in_flight`, or a takeover of an abandoned record. `alreadyInserted`: the caller's
 * own statement inserted the in-flight record with this request's owner token.
 */
export async function claim(
  database: Database,
  scope: IdempotencyScope,
  request: ClaimRequest,
  options: { alreadyInserted: boolean } = { alreadyInserted: false },
): Promise<ClaimOutcome> {
  const { ownerToken } = request;
  if (options.alreadyInserted) {
    return { kind: "owner", ownerToken };
  }
  // Two passes cover the record disappearing between the insert and the read (released by a 5xx).
  for (let pass = 0; pass < 2; pass += 1) {
    if (await queries.insertInFlight(database, scope, request)) {
      return { kind: "owner", ownerToken };
    }
    const record = await queries.selectRecord(database, scope);
    if (record === null) {
      continue;
    }
    if (!record.request_fingerprint.equals(request.fingerprint)) {
      throw conflict(
        "idempotency_mismatch",
        "This Idempotency-Key was already used with a different request. Use a new key for a new request.",
      );
    }
    if (record.state === "completed" && record.response_status !== null && record.response_body !== null) {
      return { kind: "replay", status: record.response_status, body: record.response_body };
    }
    if (record.lock_expired && (await queries.takeOverAbandoned(database, scope, request))) {
      return { kind: "owner", ownerToken };
    }
    break;
  }
  throw inFlight("A request with this Idempotency-Key is still being processed. Retry shortly with the same key.");
}

/**
 * A 409 `idempotency_in_flight` says when to retry: the owner usually answers within the request's
 * own time, and a retry finds its replay or takes over an abandoned claim.
 */
const IN_FLIGHT_RETRY_AFTER_SECONDS = 1;
function inFlight(message: string): ApiError {
  return new ApiError({
    status: 409,
    type: "invalid_request",
    code: "idempotency_in_flight",
    message,
    headers: { "Retry-After": String(IN_FLIGHT_RETRY_AFTER_SECONDS) },
    retryWithSameKey: true,
  });
}

/**
 * The statement that stores the response, for a handler whose effects are one statement: embedded in
 * it, effects and response commit together in one round trip. It returns no row when another execution
 * took over, and the effects statement must then write nothing.
 */
export type ResponseToStore = queries.ResponseToStore;

/**
 * How a service's one-statement write commits with its request's stored answer (docs/conventions.md,
 * "One idempotent write"): `commit(result, write)` has the route make the answer of `result` (the
 * service never sees it), hands `write` that answer to store in the write's own statement (null: the
 * route stores none, the effects are unconditional), and fails the request with `takenOver` when
 * `write` answers that it wrote nothing (its request had lost its key).
 */
export type CommitWithAnswer<Result> = (
  result: Result,
  write: (response: ResponseToStore | null) => Promise<boolean>,
) => Promise<void>;

/**
 * How a service's write of several statements commits with its request's stored answer:
 * `inTransaction(effects)` runs `effects` in one transaction, in which the route's answer of their
 * result is stored too (on an idempotent route), and returns that result.
 */
export type TransactionWithAnswer<Result> = (effects: (transaction: Transaction) => Promise<Result>) => Promise<Result>;
export const storeResponsesStatement = queries.storeResponsesStatement;

export function takenOver(): Error {
  return inFlight("This request took longer than the idempotency lock and was taken over by a retry.");
}

/** Stores the response inside the handler's transaction; fails it if another execution took over. */
export async function complete(transaction: Transaction, response: ResponseToStore): Promise<void> {
  if (!(await queries.markCompleted(transaction, response))) {
    throw takenOver();
  }
}

export async function release(database: Database, scope: IdempotencyScope, ownerToken: string): Promise<void> {
  await queries.deleteInFlight(database, scope, ownerToken);
}

/** Deletes records past the retention period in bounded batches; returns the number deleted. */
export async function purgeExpired(database: Database, options: { retentionMs: number }): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await queries.deleteExpiredBatch(database, { retentionMs: options.retentionMs, batchSize: 1000 });
    total += deleted;
    if (deleted < 1000) {
      return total;
    }
  }
}
