import { parseCronItems, type Runner, run, type TaskList, type WorkerEvents } from "graphile-worker";
import type pg from "pg";
import type { Registry } from "prom-client";
import type { Config } from "../config.ts";
import { isDatabaseUnavailable } from "../db/unavailable.ts";
import { inJobSpan } from "../telemetry/trace-context.ts";
import { beatAndFreeDeadPools } from "./heartbeat.ts";
import { jobMetrics } from "./job-metrics.ts";
import { type SupervisedPool, superviseWorkerPool } from "./pool-supervisor.ts";
import { sampleQueueDepth } from "./queue-depth.ts";
import type { PoolName, TaskDefinition, TaskDependencies } from "./task.ts";
import { workerLogger } from "./worker-logger.ts";

/**
 * Starts one named worker pool: a graphile-worker runner that knows only this pool's task
 * identifiers, so it never takes another pool's jobs and each pool scales on its own. `stop()` stops
 * taking jobs and waits for the ones in flight to finish. `events` receives graphile-worker's events
 * (the pool supervisor watches them); a deployment runs the pool under `superviseWorkerPool`.
 */
export async function startWorkerPool(options: {
  pool: PoolName;
  tasks: readonly TaskDefinition[];
  dependencies: TaskDependencies;
  pgPool: pg.Pool;
  registry: Registry;
  events?: WorkerEvents;
}): Promise<Runner> {
  const { config, logger } = options.dependencies;
  const taskList = taskListOf(options);
  const cronItems = cronItemsOf(options.tasks);

  const runner = await run({
    pgPool: options.pgPool,
    concurrency: config.worker.concurrency,
    pollInterval: config.worker.pollIntervalMs,
    noHandleSignals: true,
    ...(options.events === undefined ? {} : { events: options.events }),
    taskList,
    parsedCronItems: cronItems,
    gracefulShutdownAbortTimeout: config.worker.shutdownTimeoutMs,
    // Batched completion (flushed at once with a zero delay) is the mode in which graphile-worker
    // awaits the last completions during shutdown; unbatched completions are fire-and-forget and a
    // stopping process could leave a finished job locked, to be run again hours later.
    preset: {
      worker: {
        completeJobBatchDelay: 0,
        failJobBatchDelay: 0,
        ...localQueueOf(config.worker),
      },
    },
    logger: workerLogger(logger.child({ pool: options.pool })),
  });
  logger.info({ pool: options.pool, tasks: Object.keys(taskList) }, "worker pool started");
  return runner;
}

type WorkerPoolOptions = Parameters<typeof startWorkerPool>[0];

/** The pool's tasks as graphile-worker runs them: each in its job span, counted by outcome and timed. */
function taskListOf(options: WorkerPoolOptions): TaskList {
  const { jobsTotal, jobDurationSeconds } = jobMetrics(options.registry);
  const taskList: TaskList = {};
  for (const definition of options.tasks) {
    const handler = definition.build(options.dependencies);
    const labels = { pool: options.pool, task: definition.identifier };
    taskList[definition.identifier] = async (payload, helpers) => {
      const stopTimer = jobDurationSeconds.startTimer(labels);
      jobsTotal.inc({ ...labels, outcome: "started" });
      try {
        await inJobSpan(
          {
            pool: options.pool,
            task: definition.identifier,
            jobId: helpers.job.id,
            attempt: helpers.job.attempts,
            payload,
          },
          async () => {
            await handler(payload, helpers);
          },
        );
        jobsTotal.inc({ ...labels, outcome: "succeeded" });
      } catch (error) {
        // graphile-worker counts this attempt before running the job.
        const retried = helpers.job.attempts < helpers.job.max_attempts;
        jobsTotal.inc({ ...labels, outcome: retried ? "retried" : "failed" });
        throw error;
      } finally {
        stopTimer();
      }
    };
  }
  return taskList;
}

/** The schedules of the pool's cron tasks. */
function cronItemsOf(tasks: WorkerPoolOptions["tasks"]) {
  return parseCronItems(
    tasks
      .filter((definition) => definition.cron !== undefined)
      .map((definition) => ({
        task: definition.identifier,
        match: definition.cron as string,
        identifier: definition.identifier,
        // A missed run is not replayed: each of our cron tasks catches up with everything on its next run.
        options: { backfillPeriod: 0, maxAttempts: 3 },
      })),
  );
}

/**
 * graphile-worker's local queue, when configured: fetching a batch per round trip matters for many
 * short jobs (webhook deliveries), and a refetch delay keeps a pool from answering every other pool's
 * job announcements. The batch is locked while it waits: a crashed process leaves it locked, and the
 * heartbeat sweep (heartbeat.ts) frees it, as it does the jobs in flight.
 */
function localQueueOf(worker: Config["worker"]) {
  if (!fetchesThroughLocalQueue(worker)) {
    return {};
  }
  const refetchDelay =
    worker.refetchDelayMs > 0
      ? { durationMs: worker.refetchDelayMs, threshold: 0, maxAbortThreshold: Number.POSITIVE_INFINITY }
      : undefined;
  return { localQueue: { size: worker.localQueueSize, ...(refetchDelay === undefined ? {} : { refetchDelay }) } };
}

/**
 * The database errors a worker process survives when they surface outside any caller: the database's
 * own unavailability, and graphile-worker 0.18.0's failure to hand a stopped runner's local-queue jobs
 * back while the database is down. That failure rejects a promise nobody awaits (a clean-clone chaos
 * run saw a webhook-delivery replica exit of it at a database stop); the jobs stay locked to the
 * stopped runner, which the supervisor unlocks and the heartbeat sweep frees, so the process need not
 * die for it.
 */
export function isWorkerDatabaseUnavailable(error: unknown): boolean {
  return (
    isDatabaseUnavailable(error) ||
    (error instanceof Error &&
      error.message.startsWith("Error occurred whilst returning jobs from local queue to database queue"))
  );
}

/** A local queue of one job fetches as a worker alone would: graphile-worker's is on from two. */
const fetchesThroughLocalQueue = (worker: { localQueueSize: number }) => worker.localQueueSize > 1;

/** Connections enough for graphile-worker with a local queue, whatever the concurrency (below). */
const LOCAL_QUEUE_PG_POOL_SIZE = 8;

/**
 * graphile-worker's connections for one pool. Without a local queue each of its workers fetches its
 * own jobs: one connection per worker and two more (the LISTEN, completions). With one, the workers
 * take jobs from memory and graphile-worker holds only its LISTEN, the local queue's fetch, batched
 * completions and failures and the cron, beside our heartbeat and queue sampler (the jobs' own work
 * runs on the slonik pool): a few connections suffice, and the concurrency can rise without taking
 * the database's connections.
 */
export function workerPgPoolSize(worker: { concurrency: number; localQueueSize: number }): number {
  const perWorker = Math.max(4, worker.concurrency + 2);
  return fetchesThroughLocalQueue(worker) ? Math.min(perWorker, LOCAL_QUEUE_PG_POOL_SIZE) : perWorker;
}

/**
 * Frees the jobs a stopped runner's worker pool still holds locked (jobs it had fetched or was running
 * when it stopped), so that another runner takes them now rather than after graphile-worker's four-hour
 * lock timeout. Only for a runner known to have stopped.
 */
export async function unlockWorkerPool(pgPool: pg.Pool, workerPoolId: string): Promise<void> {
  await pgPool.query("SELECT graphile_worker.force_unlock_workers($1::text[])", [[workerPoolId]]);
}

/** Time past the shutdown timeout after which a retired runner's jobs are unlocked even if it has not settled. */
const RETIRED_RUNNER_MARGIN_MS = 10_000;

/**
 * Fetches failing this long (every poll interval, every worker) while the database answers mean a broken
 * runner: long enough to span the database's own restart, short enough to be back "within seconds".
 */
const BROKEN_RUNNER_AFTER_MS = 5_000;

/** A worker pool that has missed this many heartbeats in a row is presumed dead, and its jobs freed. */
const HEARTBEATS_MISSED_BEFORE_DEAD = 4;

/** Delays between attempts to start a pool while the database is unavailable. */
const START_RETRY_DELAY_MS = { initial: 500, max: 5000 };

/**
 * A worker pool as deployments run it: `startWorkerPool` under `superviseWorkerPool`, which waits for
 * the database, rebuilds a runner that stopped by itself, and reports a stall (liveness and
 * `onFatal`) after `config.worker.stallTimeoutMs`.
 */
export function startSupervisedWorkerPool(
  options: Omit<Parameters<typeof startWorkerPool>[0], "events"> & {
    onFatal: (reason: string, error?: unknown) => void;
  },
): SupervisedPool {
  const { config, logger } = options.dependencies;
  const taskIdentifiers = options.tasks.map((definition) => definition.identifier);
  return superviseWorkerPool({
    pool: options.pool,
    logger,
    probeDatabase: async () => {
      await options.pgPool.query("SELECT 1");
    },
    start: (events) => startWorkerPool({ ...options, events }),
    unlockWorkerPool: (workerPoolId) => unlockWorkerPool(options.pgPool, workerPoolId),
    // The graceful shutdown's abort timeout, then graphile-worker's forceful shutdown (5 s), plus a margin.
    retiredRunnerGraceMs: config.worker.shutdownTimeoutMs + RETIRED_RUNNER_MARGIN_MS,
    // Above two poll intervals: a healthy polling local queue answers once per interval.
    brokenRunnerAfterMs: Math.max(BROKEN_RUNNER_AFTER_MS, 2 * config.worker.pollIntervalMs),
    oldestRunnableAgeSeconds: async () =>
      (await sampleQueueDepth(options.pgPool, taskIdentifiers)).oldestRunnableAgeSeconds,
    stallAfterMs: config.worker.stallTimeoutMs,
    checkIntervalMs: Math.min(15_000, config.worker.stallTimeoutMs / 4),
    retryDelayMs: START_RETRY_DELAY_MS,
    onFatal: options.onFatal,
    beat: (workerPoolIds) =>
      beatAndFreeDeadPools(options.pgPool, {
        pool: options.pool,
        workerPoolIds,
        deadAfterMs: config.worker.heartbeatIntervalMs * HEARTBEATS_MISSED_BEFORE_DEAD,
      }),
    beatIntervalMs: config.worker.heartbeatIntervalMs,
  });
}
