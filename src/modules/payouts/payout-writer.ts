import { batchPerTurn } from "../../platform/db/batch-per-turn.ts";
import type { Queryable } from "../../platform/db/pool.ts";
import { type PayoutToWrite, writeRequestedPayouts } from "./service.ts";

/** Writes a requested payout with its debit and its idempotent response; false when its request lost its key. */
export type PayoutWriter = (row: PayoutToWrite) => Promise<boolean>;

/**
 * Writes the payouts requested in one turn of the event loop, each with its debit and its stored
 * response, in one statement (`writeRequestedPayouts`): one round trip, one commit and one WAL flush
 * for all of them instead of one each, as payment creations are written. Each payout is still written
 * only if its own request owns its key, and a debit beyond its balance fails only its own request
 * (402): the batch is then written payout by payout. A batch that fails otherwise rejects each of its
 * requests, which answer 5xx and release their keys, so the clients' retries run again.
 */
export function createPayoutWriter(database: Queryable): PayoutWriter {
  return batchPerTurn((rows) => writeRequestedPayouts(database, rows));
}
