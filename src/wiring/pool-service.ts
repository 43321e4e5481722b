import { type Config, requireDatabaseUrl } from "../platform/config.ts";
import { createConfiguredDatabase } from "../platform/db/pool.ts";
import { isDatabaseUnavailable } from "../platform/db/unavailable.ts";
import { whenDatabaseAvailable } from "../platform/db/wait-for-database.ts";
import { createOpsApp } from "../platform/http/ops-app.ts";
import { closeGracefully, listen } from "../platform/http/server.ts";
import { surviveDatabaseConnectionErrors } from "../platform/process.ts";
import type { PoolName } from "../platform/queue/task.ts";
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
    isDatabaseUnavailable: (error) => isDatabaseUnavailable(error) || isLocalQueueReturnFailure(error),
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

/**
 * graphile-worker 0.18.0: a stopped runner's local queue hands its unstarted jobs back to the
 * database; when the database is down then, the failure rejects a promise nobody awaits (seen in a
 * clean-clone chaos run: a webhook-delivery replica exited at a database stop). The jobs stay locked
 * to the stopped runner, which the supervisor unlocks and the heartbeat sweep frees: the process
 * need not die for it.
 */
function isLocalQueueReturnFailure(error: unknown): boolean {
  return (
    error instanceof Error &&
    error.message.startsWith("Error occurred whilst returning jobs from local queue to database queue")
  );
}
