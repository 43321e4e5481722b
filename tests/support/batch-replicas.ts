import { z } from "zod";
import { type Database, sql } from "../../src/platform/db/pool.ts";
import type { RunningPump } from "../../src/platform/queue/due-pump.ts";
import { waitUntil } from "./time.ts";

/**
 * What the tests of polling and expiry with replicas share (payments', withdrawal codes'): running
 * the replicas' pumps side by side, and reading what became of each row.
 */

/**
 * Lets `pumps` (every replica's pumps of both pools, started by the caller) work until `pending()`
 * finds nothing left (within `timeoutMs`), then stops them.
 */
export async function runPumpsUntilDone(
  pumps: readonly RunningPump[],
  pending: () => Promise<number>,
  timeoutMs = 60_000,
): Promise<void> {
  try {
    await waitUntil("every row ended", async () => (await pending()) === 0, { timeoutMs, intervalMs: 100 });
  } finally {
    await Promise.all(pumps.map((pump) => pump.stop()));
  }
}

const outcomeSchema = z.object({ id: z.string(), status: z.string(), events: z.number(), postings: z.number() });
export type RowOutcome = z.infer<typeof outcomeSchema>;

/** Each row of `table` whose id starts with `idPrefix`: its status, its events and its ledger transactions. */
export async function outcomesOf(
  database: Database,
  rows: { table: "payments" | "withdrawal_codes"; eventIdField: string; sourceType: string },
  merchantId: string,
  idPrefix: string,
): Promise<readonly RowOutcome[]> {
  return database.any(sql.type(outcomeSchema)`
    SELECT r.id, r.status,
      (SELECT count(*)::int FROM events e WHERE e.merchant_id = r.merchant_id AND e.data->>${rows.eventIdField} = r.id)
        AS events,
      (SELECT count(*)::int FROM ledger_transactions l WHERE l.source_type = ${rows.sourceType} AND l.source_id = r.id)
        AS postings
    FROM ${sql.identifier([rows.table])} r WHERE r.merchant_id = ${merchantId} AND r.id LIKE ${`${idPrefix}%`}`);
}

/**
 * Every row ended exactly once: as many of each final status as `ended` says, each with that many
 * events and ledger transactions, and one gateway inquiry each (claims never overlapped).
 */
export function expectEachEndedOnce(
  outcomes: readonly RowOutcome[],
  ended: Record<string, { count: number; events: number; postings: number }>,
  inquiriesOf: ReadonlyMap<string, number>,
): void {
  const counts = Object.fromEntries(
    Object.keys(ended).map((status) => [status, outcomes.filter((outcome) => outcome.status === status).length]),
  );
  expect(counts).toEqual(Object.fromEntries(Object.entries(ended).map(([status, each]) => [status, each.count])));
  expect(outcomes).toHaveLength(Object.values(ended).reduce((sum, each) => sum + each.count, 0));
  const wrong = outcomes.filter(
    (outcome) =>
      outcome.events !== ended[outcome.status]?.events || outcome.postings !== ended[outcome.status]?.postings,
  );
  expect(wrong).toEqual([]);
  expect(outcomes.filter((outcome) => inquiriesOf.get(outcome.id) !== 1)).toEqual([]);
}
