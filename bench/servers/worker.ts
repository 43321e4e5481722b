import { run } from "graphile-worker";
import { Registry } from "prom-client";
import { deliverWebhooks } from "../../src/modules/webhooks/deliver-webhooks.ts";
import { loadConfig, requireDatabaseUrl } from "../../src/platform/config.ts";
import { createConfiguredDatabase } from "../../src/platform/db/pool.ts";
import { pumpSettingsOf, startPump } from "../../src/platform/queue/due-pump.ts";
import { createWorkerPgPool } from "../../src/platform/queue/pg-pool.ts";
import { workerLogger } from "../../src/platform/queue/worker-logger.ts";
import { workerPgPoolSize } from "../../src/platform/queue/worker-pool.ts";
import { createLogger } from "../../src/platform/telemetry/logger.ts";
import { NOOP_TASK } from "../support.ts";

/**
 * One worker process: either the real webhook-delivery pool (its delivery pump), or raw
 * graphile-worker running no-op jobs with the same concurrency. BENCH_TASK picks: webhook | noop.
 */

const config = loadConfig();
const logger = createLogger({ level: config.logLevel, service: "bench-worker" });
const databaseUrl = requireDatabaseUrl(config);
const database = await createConfiguredDatabase(config, { url: databaseUrl, logger, applicationName: "bench-worker" });
const baseline = process.env.BENCH_TASK === "noop";
const pgPool = createWorkerPgPool({
  url: databaseUrl,
  // The baseline fetches without a local queue: a connection per worker.
  size: workerPgPoolSize(baseline ? { ...config.worker, localQueueSize: 0 } : config.worker),
  applicationName: "bench-worker",
  logger,
});
// The baseline is graphile-worker as it comes: its defaults, the same concurrency and polling.
const runner = baseline
  ? await run({
      pgPool,
      concurrency: config.worker.concurrency,
      pollInterval: config.worker.pollIntervalMs,
      noHandleSignals: true,
      taskList: { [NOOP_TASK]: async () => {} },
      logger: workerLogger(logger),
    })
  : startPump({
      pool: "webhook-delivery",
      definition: deliverWebhooks,
      dependencies: { config, database, logger },
      databaseUrl,
      registry: new Registry(),
      ...pumpSettingsOf(config.worker),
    });
process.stdout.write("listening 0\n");
process.on("SIGTERM", () => {
  void runner
    .stop()
    .then(() => Promise.all([pgPool.end(), database.end()]))
    .then(() => process.exit(0));
});
