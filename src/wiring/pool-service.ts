import { type Config, requireDatabaseUrl } from "../platform/config.ts";
import { createConfiguredDatabase } from "../platform/db/pool.ts";
import { whenDatabaseAvailable } from "../platform/db/wait-for-database.ts";
import { createOpsApp } from "../platform/http/ops-app.ts";
import { closeGracefully, listen } from "../platform/http/server.ts";
import { surviveDatabaseConnectionErrors } from "../platform/process.ts";
import type { PoolName } from "../platform/queue/task.ts";
import { isWorkerDatabaseUnavailable } from "../platform/queue/worker-pool.ts";
import { createLogger } from "../platform/telemetry/logger.ts";
import { createMetrics } from "../platform/telemetry/metrics.ts";
import { startPools } from "./worker-pools.ts";

/**
 * One worker pool as its own deployment: the pool's jobs, plus /healthz, /livez, /readyz and
 * /metrics. It waits for its database and its runner at start-up (the startup probe allows a
 * minute), then the ops server listens. A pool that cannot go on exits non-zero, and Kubernetes
 * restarts it.
 */
export async function startPoolService(pool: PoolName, config: Config): Promise<() => Promise<void>> {
  const databaseUrl = requireDatabaseUrl(config);
  const logger = createLogger({ level: config.logLevel, service: pool });
  surviveDatabaseConnectionErrors({
    isDatabaseUnavailable: isWorkerDatabaseUnavailable,
    log: (error) => logger.error({ err: error }, "a database connection failed outside any caller; going on"),
  });
  const database = await whenDatabaseAvailable({
    url: databaseUrl,
    logger,
    connect: () => createConfiguredDatabase(config, { url: databaseUrl, logger, applicationName: pool }),
  });
  const metrics = createMetrics({ service: pool });
  const pools = startPools({
    pools: [pool],
    config,
    databaseUrl,
    database,
    logger,
    metrics,
    onFatal: (reason, error) => {
      logger.fatal({ err: error }, `${reason}; exiting so that the pool is restarted`);
      process.exit(1);
    },
  });
  await pools.started;
  const readiness = { draining: false };
  const opsServer = await listen(
    createOpsApp({ database, metrics, readiness, liveness: pools.liveness }),
    config.workerHttpPort,
  );
  logger.info({ port: config.workerHttpPort }, "worker ops server listening");
  return async () => {
    readiness.draining = true;
    await pools.stop();
    await closeGracefully(opsServer, 5000);
    await database.end();
  };
}
