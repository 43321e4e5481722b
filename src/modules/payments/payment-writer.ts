import { batchPerTurn, oncePerDatabase } from "../../platform/db/batch-per-turn.ts";
import type { Database, Queryable } from "../../platform/db/pool.ts";
import { insertPendingPayments } from "./creation.ts";
import type { PaymentToInsert } from "./queries.ts";

/** Writes a created payment with its idempotent response; false when its request lost its key. */
export type PaymentWriter = (row: PaymentToInsert) => Promise<boolean>;

/**
 * Writes the payments created in one turn of the event loop, each with its stored response, in one
 * statement: one round trip, one commit and one WAL flush for all of them instead of one each (the
 * flush was the largest cost of a creation). Each payment is still written only if its own request
 * owns its key. A batch that fails rejects each of its creations, which answer 5xx and release their
 * keys, so the clients' retries run again.
 */
export function createPaymentWriter(database: Queryable): PaymentWriter {
  return batchPerTurn((rows) => insertPendingPayments(database, rows));
}

/**
 * The process's payment writer on each database, for the wiring to build once (`src/wiring/modules.ts`):
 * the concurrent creations of the process share its batches.
 */
export function paymentWriterPerDatabase(): (database: Database) => PaymentWriter {
  return oncePerDatabase(createPaymentWriter);
}
