import {
  batchPerTurn,
  batchPerTurnOn,
  oncePerDatabase,
  writeInKeyOrder,
  writeTogetherOrAlone,
} from "../../platform/db/batch-per-turn.ts";
import type { Database, Queryable } from "../../platform/db/pool.ts";
import { events } from "../events/index.ts";
import { ledger } from "../ledger/index.ts";
import * as queries from "./queries.ts";
import type { PayoutToWrite } from "./request.ts";
import type { PayoutRow } from "./schemas.ts";

/**
 * The process's batching writers: the writes of one turn of the event loop (the requests of the
 * moment, the payouts of a claim the gateway answers together) in one statement, one commit and one
 * WAL flush instead of one each. Each row is still guarded as it would be alone, and a statement the
 * database refuses is written again row by row (`writeTogetherOrAlone`).
 */

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

/**
 * The process's payout writer on each database, for the wiring to build once (`src/wiring/modules.ts`):
 * the concurrent requests of the process share its batches.
 */
export function payoutWriterPerDatabase(): (database: Database) => PayoutWriter {
  return oncePerDatabase(createPayoutWriter);
}

/**
 * Writes requested payouts in one statement (`queries.insertRequestedPayouts`), ordered by merchant so
 * that concurrent statements take balance locks in one order; per row, whether it was written (false:
 * its request had lost its key) or why it failed. When the database refuses the statement (a debit
 * beyond its balance fails it whole), each payout is written alone (`writeTogetherOrAlone`), so that
 * only the one that overdraws answers 402 (`insufficient_funds`) and the others are written as they
 * would have been alone.
 */
export async function writeRequestedPayouts(
  database: Queryable,
  rows: readonly PayoutToWrite[],
): Promise<(boolean | Error)[]> {
  const ordered = [...rows].sort((left, right) => lockOrder(left).localeCompare(lockOrder(right)));
  const outcomes = await writeTogetherOrAlone(ordered, async (some) => {
    const written = await queries.insertRequestedPayouts(database, some, (when) =>
      ledger.postingCtes(
        some.map((row) => row.debit),
        when,
      ),
    );
    return some.map((row) => written.has(row.payout.id));
  });
  const outcomeOf = new Map(ordered.map((row, position) => [row.payout.id, outcomes[position] as boolean | Error]));
  return rows.map((row) => {
    const outcome = outcomeOf.get(row.payout.id) as boolean | Error;
    if (!(outcome instanceof Error)) {
      return outcome;
    }
    const refused = ledger.insufficientFundsOf(outcome);
    return refused instanceof Error ? refused : outcome;
  });
}

const lockOrder = (row: PayoutToWrite) =>
  `${row.payout.merchant_id}\u0000${row.payout.livemode}\u0000${row.payout.currency}`;

/**
 * The process's writer of accepted submissions on a database: those of one turn of the event loop
 * (the payouts of a claim, which the gateway answers together) in one statement, one commit and one
 * WAL flush (`queries.markSubmitted`) instead of one each. Each is still guarded by its payout being
 * requested. The rows are the worker's own (leased), so no other statement takes them meanwhile. A
 * statement the database refuses is written again payout by payout (`writeTogetherOrAlone`).
 */
export const submissionWriterOf = batchPerTurnOn((database, payouts: readonly queries.SubmittedPayout[]) =>
  writeTogetherOrAlone(payouts, (some) => queries.markSubmitted(database, some)),
);

/** A confirmation to write: the payout's guarded update, its ledger movement and its event. */
export type Confirmation = {
  completed: queries.CompletedPayout;
  posting: ledger.PreparedPosting;
  event: events.PreparedEvent;
};

/**
 * The process's writer of confirmations on a database: those of one turn of the event loop (the
 * payouts of a claim the gateway reports completed together) in one statement, one commit and one WAL
 * flush (`queries.markConfirmed`), each payout's update guarded and its movement and event written
 * only if it won. In key order (`writeInKeyOrder`), so that statements running side by side (two
 * replicas, the API's payout requests) take the balance rows they share in the same order. A statement
 * the database refuses is written again payout by payout (`writeTogetherOrAlone`).
 */
export const confirmationWriterOf = batchPerTurnOn((database, confirmations: readonly Confirmation[]) =>
  writeInKeyOrder(
    confirmations,
    ({ completed }) => completed,
    (ordered) => writeTogetherOrAlone(ordered, (some) => confirmTogether(database, some)),
  ),
);

function confirmTogether(database: Database, confirmations: readonly Confirmation[]): Promise<(PayoutRow | null)[]> {
  return queries.markConfirmed(
    database,
    confirmations.map((confirmation) => confirmation.completed),
    {
      postings: (when) =>
        ledger.postingCtes(
          confirmations.map((confirmation) => confirmation.posting),
          when,
        ),
      events: (when) =>
        events.emitEachWhen(
          confirmations.map(({ event, completed }) => ({ event, subject: completed.id })),
          when,
        ),
    },
  );
}
