import type pg from "pg";

/**
 * Frees the jobs of worker pools whose process died. graphile-worker locks a job to the worker pool
 * that fetched it (`locked_by`, the pool's id) and leaves it locked for four hours when that process
 * is killed: the jobs it was running, and with a local queue those it had fetched but not started.
 * Each live pool beats in `worker_pool_heartbeats`; a pool whose beat is older than `deadAfterMs` is
 * presumed dead, and the live pool that notices frees its jobs (`force_unlock_workers`) and forgets it.
 *
 * One statement per beat, both halves on the database's clock. A pool only looks dead when it has not
 * beaten for several beats: its process is gone, or cannot reach the database (its jobs then cannot
 * complete either). A job freed while its handler still runs may run twice at once; every task is
 * idempotent (its effects are guarded in SQL), so that costs work, not money. A pool that finds its
 * row swept comes back at its next beat.
 */
export async function beatAndFreeDeadPools(
  pgPool: pg.Pool,
  beat: { pool: string; workerPoolIds: readonly string[]; deadAfterMs: number },
): Promise<string[]> {
  const { rows } = await pgPool.query<{ freed: string[] }>(
    `WITH beat AS (
       INSERT INTO worker_pool_heartbeats (worker_pool_id, pool)
       SELECT id, $2 FROM unnest($1::text[]) AS id
       ON CONFLICT (worker_pool_id) DO UPDATE SET beat_at = now()
     ), dead AS (
       DELETE FROM worker_pool_heartbeats
       WHERE beat_at < now() - $3 * interval '1 millisecond' AND worker_pool_id <> ALL ($1::text[])
       RETURNING worker_pool_id
     ), freed AS (
       SELECT coalesce(array_agg(worker_pool_id), '{}') AS ids FROM dead
     )
     SELECT ids AS freed, CASE WHEN cardinality(ids) > 0 THEN graphile_worker.force_unlock_workers(ids) END
     FROM freed`,
    [beat.workerPoolIds, beat.pool, beat.deadAfterMs],
  );
  return rows[0]?.freed ?? [];
}
