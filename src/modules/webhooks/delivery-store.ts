import DataLoader from "dataloader";
import type { Database } from "../../platform/db/pool.ts";
import * as queries from "./queries.ts";
import type { DeliveryRow } from "./schemas.ts";

/** Claims of due deliveries, and records of their attempts, each one statement for many attempts. */
export type DeliveryStore = {
  /** Up to `limit` due deliveries, each with its next attempt counted and leased (`claimDueDeliveries`). */
  claimDue: (claim: {
    limit: number;
    leaseMs: number;
    merchantId: string | null;
  }) => Promise<readonly queries.ClaimedDelivery[]>;
  record: (record: queries.AttemptRecord) => Promise<DeliveryRow | null>;
};

// Bounds one statement's arrays; far above a pool's concurrency.
const BATCH_SIZE_MAX = 200;

/**
 * A delivery pool runs many attempts at once; a claim takes a batch of them in one statement, and each
 * attempt records its outcome when its post ends. Instead of a statement per record, the records that
 * arrive in the same turn of the event loop go to the database as one statement: the worker's
 * throughput is then bounded by posting, not by round trips. A batch that fails rejects each of its
 * callers, whose deliveries fall due again when their leases lapse.
 */
export function createDeliveryStore(database: Database): DeliveryStore {
  const records = new DataLoader<queries.AttemptRecord, DeliveryRow | null>(
    async (batch) => matchRows(batch, await queries.recordAttempts(database, batch)),
    { cache: false, maxBatchSize: BATCH_SIZE_MAX, batchScheduleFn: setImmediate },
  );
  return {
    claimDue: (claim) => queries.claimDueDeliveries(database, claim),
    record: (record) => records.load(record),
  };
}

/**
 * The rows in the order of the records that produced them. A delivery recorded twice in one batch is
 * settled once: the first record gets the row, a repeat gets null, as if it came second.
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
