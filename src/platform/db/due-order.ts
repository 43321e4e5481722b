import { type Database, sql, type Transaction } from "./pool.ts";

/**
 * Runs a claim of due rows (`… ORDER BY <due time> LIMIT n FOR UPDATE SKIP LOCKED` over a partial due
 * index) planned with sorts ruled out, so that its one cheap plan reads the due index in order and
 * stops at the limit: O(batch) whatever is pending. Planned on statistics taken while almost nothing
 * was pending (a quiet hour's ANALYZE, a cached generic plan), the planner otherwise rates "every
 * pending row through another partial index on the same status, then a sort" as cheap as the due
 * index and may take it: each claim then reads every pending row (docs/performance-history.md, "Claims that
 * read every pending row"). `SET LOCAL` ends with this transaction; a prepared claim keeps the plan
 * made here, as every execution of it runs here.
 */
export async function claimInDueOrder<Claimed>(
  database: Database,
  claim: (transaction: Transaction) => Promise<Claimed>,
): Promise<Claimed> {
  return database.transaction(async (transaction) => {
    await transaction.query(sql.unsafe`SET LOCAL enable_sort = off`);
    return claim(transaction);
  });
}
