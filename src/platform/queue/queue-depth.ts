import type pg from "pg";
import { Gauge, type Registry } from "prom-client";
import { metricOnce } from "../telemetry/metrics.ts";

/**
 * A pool's backlog: how many of its jobs are runnable now, and how long the oldest has waited. It is
 * sampled on a timer (one indexed query per interval per process), never per scrape, so scrapes stay
 * cheap whatever the number of Prometheus servers.
 */
export type QueueDepth = { runnableJobs: number; oldestRunnableAgeSeconds: number };

export async function sampleQueueDepth(pgPool: pg.Pool, taskIdentifiers: readonly string[]): Promise<QueueDepth> {
  const { rows } = await pgPool.query<{ runnable: number; oldest_age_seconds: number }>(
    `SELECT count(*)::int AS runnable,
       coalesce(extract(epoch FROM now() - min(j.run_at)), 0)::float8 AS oldest_age_seconds
     FROM graphile_worker._private_jobs j
     JOIN graphile_worker._private_tasks t ON t.id = j.task_id
     WHERE t.identifier = ANY($1::text[]) AND j.locked_at IS NULL AND j.run_at <= now()
       AND j.attempts < j.max_attempts`,
    [taskIdentifiers],
  );
  return { runnableJobs: rows[0]?.runnable ?? 0, oldestRunnableAgeSeconds: rows[0]?.oldest_age_seconds ?? 0 };
}

/**
 * Samples the pool's backlog (`sample`: its runnable jobs, or a pump's due rows) now and then every
 * `intervalMs` into two gauges labelled by pool; resolves once the first sample is in, with a
 * function that stops sampling.
 */
export async function startQueueDepthSampler(options: {
  pool: string;
  sample: () => Promise<QueueDepth>;
  registry: Registry;
  intervalMs: number;
  onError: (error: unknown) => void;
}): Promise<() => void> {
  const runnable = metricOnce(options.registry, Gauge, {
    name: "worker_queue_runnable_jobs",
    help: "Jobs of the pool that could run now (sampled).",
    labelNames: ["pool"],
  });
  const oldest = metricOnce(options.registry, Gauge, {
    name: "worker_queue_oldest_runnable_job_age_seconds",
    help: "How long the pool's oldest runnable job has waited (sampled; 0 when none).",
    labelNames: ["pool"],
  });
  const sample = () =>
    options.sample().then((depth) => {
      runnable.set({ pool: options.pool }, depth.runnableJobs);
      oldest.set({ pool: options.pool }, depth.oldestRunnableAgeSeconds);
    }, options.onError);
  await sample();
  const timer = setInterval(sample, options.intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
