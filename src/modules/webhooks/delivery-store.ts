import DataLoader from "dataloader";
import type { Queryable } from "../../platform/db/pool.ts";
import * as queries from "./queries.ts";
import type { DeliveryRow } from "./schemas.ts";

/** Claims and records of delivery attempts, each one statement for all the attempts of a moment. */
export type DeliveryStore = {
  claim: (request: queries.ClaimRequest) => Promise<queries.ClaimedDelivery | null>;
  record: (record: queries.AttemptRecord) => Promise<DeliveryRow | null>;
};

// Bounds one statement's arrays; far above a pool's concurrency.
const BATCH_SIZE_MAX = 200;

/**
 * A delivery pool runs many attempts at once; each claims before posting and records after. Instead
 * of two statements per attempt, the claims (and the records) that arrive in the same turn of the
 * event loop go to the database as one statement: the worker's throughput is then bounded by posting,
 * not by round trips. A batch that fails rejects each of its callers, whose jobs retry.
 */
export function createDeliveryStore(database: Queryable): DeliveryStore {
  const options = { cache: false, maxBatchSize: BATCH_SIZE_MAX, batchScheduleFn: setImmediate } as const;
  const claims = new DataLoader<queries.ClaimRequest, queries.ClaimedDelivery | null>(
    async (requests) => matchRows(requests, await queries.claimDeliveries(database, requests)),
    options,
  );
  const records = new DataLoader<queries.AttemptRecord, DeliveryRow | null>(
    async (batch) => matchRows(batch, await queries.recordAttempts(database, batch)),
    options,
  );
  return { claim: (request) => claims.load(request), record: (record) => records.load(record) };
}

/**
 * The rows in the order of the requests that produced them. A delivery asked twice in one batch is
 * claimed (or settled) once: the first request gets the row, a repeat gets null, as if it came second.
 */
function matchRows<Row extends { merchant_id: string; id: string }>(
  requests: readonly { merchantId: string; deliveryId: string }[],
  rows: readonly Row[],
): (Row | null)[] {
  const unclaimed = new Map(rows.map((row) => [keyOf(row.merchant_id, row.id), row]));
  return requests.map((request) => {
    const key = keyOf(request.merchantId, request.deliveryId);
    const row = unclaimed.get(key) ?? null;
    unclaimed.delete(key);
    return row;
  });
}

const keyOf = (merchantId: string, deliveryId: string) => `${merchantId}\u0000${deliveryId}`;
