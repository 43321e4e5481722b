import type { Config } from "../platform/config.ts";
import type { Database } from "../platform/db/pool.ts";
import { createWorkerPgPool } from "../platform/queue/pg-pool.ts";
import type { PoolLiveness, SupervisedPool } from "../platform/queue/pool-supervisor.ts";
import type { PoolName } from "../platform/queue/task.ts";
import { startSupervisedWorkerPool, workerPgPoolSize } from "../platform/queue/worker-pool.ts";
import type { Logger } from "../platform/telemetry/logger.ts";
import type { Metrics } from "../platform/telemetry/metrics.ts";
import { createGateways } from "./gateways.ts";
import { poolTasks } from "./pools.ts";

export type StartedPools = {
  /** Resolves once every pool's first runner has started (after any waiting for the database). */
  started: Promise<void>;
  /** Live unless a pool takes no jobs although jobs are due (see `superviseWorkerPool`). */
  liveness: () => Promise<PoolLiveness>;
  stop: () => Promise<void>;
};

/**
 * Starts the named pools over one pg pool for graphile-worker (it needs pg, and a session for
 * LISTEN), each under a supervisor that waits for the database and rebuilds a runner that stopped.
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
  const pgPool = createWorkerPgPool({
    url: options.databaseUrl,
    size: workerPgPoolSize(config.worker) * options.pools.length,
    applicationName: `worker:${options.pools.join(",")}`,
    logger,
  });
  const tasks = poolTasks(createGateways(config));
  const supervised: SupervisedPool[] = options.pools.map((pool) =>
    startSupervisedWorkerPool({
      pool,
      tasks: tasks[pool],
      dependencies: { config, database: options.database, logger },
      pgPool,
      registry: options.metrics.registry,
      onFatal: options.onFatal,
    }),
  );
  return {
    started: Promise.all(supervised.map((pool) => pool.started)).then(() => {}),
    liveness: async () => {
      const statuses = await Promise.all(supervised.map((pool) => pool.liveness()));
      const stalled = statuses.filter((status) => !status.live);
      return stalled.length === 0
        ? { live: true, detail: statuses.map((status) => status.detail).join("; ") }
        : { live: false, detail: stalled.map((status) => status.detail).join("; ") };
    },
    stop: async () => {
      await Promise.all(supervised.map((pool) => pool.stop()));
      await pgPool.end();
    },
  };
}
