import { type Database, sql, type Transaction } from "./pool.ts";

/**
 * Runs a claim of due rows (`… ORDER BY <due time> LIMIT n FOR UPDATE SKIP LOCKED` over a partial due
 * index) planned with sorts ruled out, so that its one cheap plan reads the due index in order and
 * stops at the limit: O(batch) whatever is pending. Planned on statistics taken while almost nothing
 * was pending (a quiet hour's ANALYZE, a cached generic plan), the planner otherwise rates "every
 * pending row through another partial index on the same status, then a sort" as cheap as the due
 * index and may take it: each claim then reads every pending row (docs/performance-history.md, "Claims that
 * read every pending row"). Each execution is also planned for the table as it is now
 * (`force_custom_plan`): a generic plan cached while the table was a page or two joins the claimed
 * rows back by hashing a sequential scan of the whole table, and without an ANALYZE (autovacuum off,
 * as on this project's CI database) nothing ever replaces it. Both settings end with this transaction,
 * set in one round trip.
 */
export async function claimInDueOrder<Claimed>(
  database: Database,
  claim: (transaction: Transaction) => Promise<Claimed>,
): Promise<Claimed> {
  return database.transaction(async (transaction) => {
    await transaction.query(sql.unsafe`
      SELECT set_config('enable_sort', 'off', true), set_config('plan_cache_mode', 'force_custom_plan', true)`);
    return claim(transaction);
  });
}
