import type pg from "pg";
import type { Config } from "../platform/config.ts";
import type { Database } from "../platform/db/pool.ts";
import { pumpSettingsOf, type RunningPump, startPump } from "../platform/queue/due-pump.ts";
import { createWorkerPgPool } from "../platform/queue/pg-pool.ts";
import type { PoolLiveness, SupervisedPool } from "../platform/queue/pool-supervisor.ts";
import { type QueueDepth, sampleQueueDepth, startQueueDepthSampler } from "../platform/queue/queue-depth.ts";
import type { PoolName, TaskDependencies } from "../platform/queue/task.ts";
import { startSupervisedWorkerPool, workerPgPoolSize } from "../platform/queue/worker-pool.ts";
import type { Logger } from "../platform/telemetry/logger.ts";
import type { Metrics } from "../platform/telemetry/metrics.ts";
import { createGateways } from "./gateways.ts";
import { poolPumps, poolTasks } from "./pools.ts";

export type StartedPools = {
  /**
   * Resolves once every pool's first runner has started (after any waiting for the database) and its
   * backlog gauges hold a first sample (a failed sample is logged and leaves them unset), so that
   * /metrics has them from the first scrape.
   */
  started: Promise<void>;
  /** Live unless a pool takes no jobs although jobs are due (see `superviseWorkerPool`). */
  liveness: () => Promise<PoolLiveness>;
  stop: () => Promise<void>;
};

/**
 * Starts the named pools: each pool's graphile-worker tasks (if it has any) over one pg pool (it needs
 * pg, and a session for LISTEN), under a supervisor that waits for the database and rebuilds a runner
 * that stopped; and each pool's pumps (`due-pump.ts`), which survive the database's absence by
 * themselves, at the pool's concurrency.
 * `onFatal` is called when a pool cannot go on (stalled, or failing to start for another reason than
 * the database): the caller exits so that the orchestrator restarts the process. `stop()` lets each
 * pool finish its in-flight jobs, then closes the pg pool.
 */
export function startPools(options: {
  pools: readonly PoolName[];
  config: Config;
  databaseUrl: string;
  database: Database;
  logger: Logger;
  metrics: Metrics;
  onFatal: (reason: string, error?: unknown) => void;
}): StartedPools {
  const { config, logger } = options;
  const gateways = createGateways(config);
  const tasks = poolTasks(gateways);
  const pumps = poolPumps(gateways);
  const withTasks = options.pools.filter((pool) => tasks[pool].length > 0);
  const pgPool = createWorkerPgPool({
    url: options.databaseUrl,
    size: workerPgPoolSize(config.worker) * Math.max(1, withTasks.length),
    applicationName: `worker:${options.pools.join(",")}`,
    logger,
  });
  const dependencies = { config, database: options.database, logger };
  const supervised: SupervisedPool[] = withTasks.map((pool) =>
    startSupervisedWorkerPool({
      pool,
      tasks: tasks[pool],
      dependencies,
      pgPool,
      registry: options.metrics.registry,
      onFatal: options.onFatal,
    }),
  );
  const running = startPumps(options, pumps, dependencies);
  const sampling = startBacklogSamplers(options, { tasks, running, pgPool });
  return {
    started: Promise.all([...supervised.map((pool) => pool.started), ...sampling]).then(() => {}),
    liveness: () => livenessOfAll(supervised, running),
    stop: async () => {
      for (const stopSampling of await Promise.all(sampling)) {
        stopSampling();
      }
      await Promise.all([...supervised.map((pool) => pool.stop()), ...running.map((each) => each.pump.stop())]);
      await pgPool.end();
    },
  };
}

type PoolsOptions = Parameters<typeof startPools>[0];
type RunningPumps = readonly { pool: PoolName; pump: RunningPump }[];

/** Starts each pool's pumps; a pump that cannot start is fatal for the process. */
function startPumps(
  options: PoolsOptions,
  pumps: ReturnType<typeof poolPumps>,
  dependencies: TaskDependencies,
): RunningPumps {
  const { config } = options;
  return options.pools.flatMap((pool) =>
    pumps[pool].flatMap((definition) => {
      try {
        const pump = startPump({
          pool,
          definition,
          dependencies,
          databaseUrl: options.databaseUrl,
          registry: options.metrics.registry,
          ...pumpSettingsOf(config.worker),
        });
        return [{ pool, pump }];
      } catch (error) {
        options.onFatal(`${pool} cannot start ${definition.name}`, error);
        return [];
      }
    }),
  );
}

/** One sampler per pool: its backlog is its runnable jobs and its pumps' due rows together. */
function startBacklogSamplers(
  options: PoolsOptions,
  started: { tasks: ReturnType<typeof poolTasks>; running: RunningPumps; pgPool: pg.Pool },
) {
  const { config, logger } = options;
  const { tasks, running, pgPool } = started;
  return options.pools.map((pool) =>
    startQueueDepthSampler({
      pool,
      sample: async () =>
        sumOfDepths(
          await Promise.all([
            ...(tasks[pool].length > 0
              ? [
                  sampleQueueDepth(
                    pgPool,
                    tasks[pool].map((task) => task.identifier),
                  ),
                ]
              : []),
            ...running.filter((each) => each.pool === pool).map((each) => each.pump.backlog()),
          ]),
        ),
      registry: options.metrics.registry,
      intervalMs: config.worker.queueSampleIntervalMs,
      onError: (error) => logger.warn({ pool, err: error }, "backlog sample failed"),
    }),
  );
}

/** Live while every supervised pool and every pump is; the detail names the stalled ones. */
async function livenessOfAll(supervised: readonly SupervisedPool[], running: RunningPumps): Promise<PoolLiveness> {
  const statuses = [
    ...(await Promise.all(supervised.map((pool) => pool.liveness()))),
    ...running.map((each) => each.pump.liveness()),
  ];
  const stalled = statuses.filter((status) => !status.live);
  return stalled.length === 0
    ? { live: true, detail: statuses.map((status) => status.detail).join("; ") }
    : { live: false, detail: stalled.map((status) => status.detail).join("; ") };
}

/** A pool's backlog from its parts: their items added up, the oldest wait of any. */
function sumOfDepths(depths: readonly QueueDepth[]): QueueDepth {
  return {
    runnableJobs: depths.reduce((sum, depth) => sum + depth.runnableJobs, 0),
    oldestRunnableAgeSeconds: Math.max(0, ...depths.map((depth) => depth.oldestRunnableAgeSeconds)),
  };
}
