import type { Runner } from "graphile-worker";
import type { Config } from "../platform/config.ts";
import type { Database } from "../platform/db/pool.ts";
import { createWorkerPgPool } from "../platform/queue/pg-pool.ts";
import type { PoolName } from "../platform/queue/task.ts";
import { startWorkerPool } from "../platform/queue/worker-pool.ts";
import type { Logger } from "../platform/telemetry/logger.ts";
import type { Metrics } from "../platform/telemetry/metrics.ts";
import { createGateways } from "./gateways.ts";
import { poolTasks } from "./pools.ts";

/**
 * Starts the named pools over one pg pool for graphile-worker (it needs pg, and a session for
 * LISTEN). `stop()` lets each pool finish its in-flight jobs, then closes the pg pool.
 */
export async function startPools(options: {
  pools: readonly PoolName[];
  config: Config;
  databaseUrl: string;
  database: Database;
  logger: Logger;
  metrics: Metrics;
}): Promise<{ runners: Runner[]; stop: () => Promise<void> }> {
  const pgPool = createWorkerPgPool({
    url: options.databaseUrl,
    size: Math.max(4, options.config.worker.concurrency + 2) * options.pools.length,
    applicationName: `worker:${options.pools.join(",")}`,
    logger: options.logger,
  });
  const tasks = poolTasks(createGateways(options.config));
  const runners: Runner[] = [];
  for (const pool of options.pools) {
    runners.push(
      await startWorkerPool({
        pool,
        tasks: tasks[pool],
        dependencies: { config: options.config, database: options.database, logger: options.logger },
        pgPool,
        registry: options.metrics.registry,
      }),
    );
  }
  return {
    runners,
    stop: async () => {
      await Promise.all(runners.map((runner) => runner.stop()));
      await pgPool.end();
    },
  };
}
