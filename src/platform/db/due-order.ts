import { type Database, sql, type Transaction } from "./pool.ts";

/**
 * Runs a claim of due rows (`… ORDER BY <due time> LIMIT n FOR UPDATE SKIP LOCKED` over a partial due
 * index) planned with sorts ruled out, so that its one cheap plan reads the due index in order and
 * stops at the limit: O(batch) whatever is pending. Planned on statistics taken while almost nothing
 * was pending (a quiet hour's ANALYZE, a cached generic plan), the planner otherwise rates "every
 * pending row through another partial index on the same status, then a sort" as cheap as the due
 * index and may take it: each claim then reads every pending row (docs/performance-history.md, "Claims
 * that read every pending row"). `SET LOCAL` ends with this transaction; a prepared claim keeps the
 * plan made here, as every execution of it runs here.
 *
 * `plannedEachTime`: a claim that joins its rows back to the table (the webhook deliveries' `UPDATE …
 * FROM due WHERE d.ctid = due.row_id`) is also planned for the table as it is at each execution
 * (`force_custom_plan`, set in the same statement): its generic plan, cached while the table was a page
 * or two, hashes a sequential scan of the whole table, and without an ANALYZE (autovacuum off, as on
 * this project's CI database) nothing replaces it. Only there: planning every claim costs the pools'
 * database CPU (bench:deploy, 2026-11-28).
 */
export async function claimInDueOrder<Claimed>(
  database: Database,
  claim: (transaction: Transaction) => Promise<Claimed>,
  options: { plannedEachTime?: boolean } = {},
): Promise<Claimed> {
  return database.transaction(async (transaction) => {
    await transaction.query(
      options.plannedEachTime === true
        ? sql.unsafe`SELECT set_config('enable_sort', 'off', true), set_config('plan_cache_mode', 'force_custom_plan', true)`
        : sql.unsafe`SET LOCAL enable_sort = off`,
    );
    return claim(transaction);
  });
}
