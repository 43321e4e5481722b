import { Registry } from "prom-client";
import { deliverWebhooks } from "../../src/modules/webhooks/deliver-webhooks.ts";
import type { Config } from "../../src/platform/config.ts";
import type { Database } from "../../src/platform/db/pool.ts";
import { type RunningPump, startPump } from "../../src/platform/queue/due-pump.ts";
import type { Logger } from "../../src/platform/telemetry/logger.ts";

/** The webhook-delivery pool's pump, in the test's process, as `startPools` runs it from `config`. */
export function startDeliveryPump(options: {
  config: Config;
  database: Database;
  databaseUrl: string;
  logger: Logger;
}): RunningPump {
  const { config } = options;
  return startPump({
    pool: "webhook-delivery",
    definition: deliverWebhooks,
    dependencies: { config, database: options.database, logger: options.logger },
    databaseUrl: options.databaseUrl,
    registry: new Registry(),
    concurrency: config.worker.concurrency,
    idleIntervalMs: config.worker.pollIntervalMs,
    sampleIntervalMs: config.worker.queueSampleIntervalMs,
    stallAfterMs: config.worker.stallTimeoutMs,
    shutdownTimeoutMs: config.worker.shutdownTimeoutMs,
  });
}
