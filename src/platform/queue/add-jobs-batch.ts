import type { FragmentSqlToken } from "slonik";
import { sql } from "../db/pool.ts";

/**
 * `SELECT graphile_worker.add_jobs(<specs>)`, for a statement that enqueues a batch of jobs, planned
 * for the jobs table as it is now.
 *
 * add_jobs first clears the keys it is about to replace with an UPDATE joined on the jobs table, and
 * PL/pgSQL caches that statement's plan per connection: planned while the table was small (a fresh
 * install, a quiet night), it stays a scan of the whole table until an ANALYZE happens to invalidate
 * it, however large the table grows meanwhile; under a burst of payments that scan was a large share
 * of the database's time (docs/performance.md, "A payment's jobs"). The setting, local to the
 * transaction and taken before the call, has the function plan its statements for each call, with
 * the table's current size and the call's own specs. Planning costs little against a batch and too
 * much for one job at a time, which is why the single-job `addJob` and the per-event webhook fan-out
 * keep the cached plans.
 */
export function addJobsPlannedPerCall(
  specs: FragmentSqlToken,
  options: { onlyWhen?: FragmentSqlToken } = {},
): FragmentSqlToken {
  // A call with no specs would still notify the workers; `onlyWhen` skips it.
  return sql.fragment`
    SELECT graphile_worker.add_jobs(${specs}) AS job
    FROM (SELECT set_config('plan_cache_mode', 'force_custom_plan', true)) AS planned_per_call
    WHERE ${options.onlyWhen ?? sql.fragment`true`}`;
}
