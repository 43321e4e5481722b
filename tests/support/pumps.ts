import { Registry } from "prom-client";
import { deliverWebhooks } from "../../src/modules/webhooks/deliver-webhooks.ts";
import type { Config } from "../../src/platform/config.ts";
import type { Database } from "../../src/platform/db/pool.ts";
import {
  type PumpDefinition,
  type PumpItem,
  pumpSettingsOf,
  type RunningPump,
  startPump,
} from "../../src/platform/queue/due-pump.ts";
import type { PoolName } from "../../src/platform/queue/task.ts";
import type { Logger } from "../../src/platform/telemetry/logger.ts";

type PumpEnvironment = { config: Config; database: Database; databaseUrl: string; logger: Logger };

/** A pool's pump, in the test's process, as `startPools` runs it from `config`. */
export function startPoolPump(pool: PoolName, definition: PumpDefinition, environment: PumpEnvironment): RunningPump {
  const { config, database, logger } = environment;
  return startPump({
    pool,
    definition,
    dependencies: { config, database, logger },
    databaseUrl: environment.databaseUrl,
    registry: new Registry(),
    ...pumpSettingsOf(config.worker),
  });
}

/** The webhook-delivery pool's pump. */
export function startDeliveryPump(environment: PumpEnvironment): RunningPump {
  return startPoolPump("webhook-delivery", deliverWebhooks, environment);
}

/** Rows claimed at most in one claim by a test's step (a pump claims at most its free concurrency). */
export const CLAIM_LIMIT = 200;

/**
 * A pump's step, driven by the test: the items of one claim, each run to its end (side by side, as a
 * pump runs them); how many were claimed and how many failed (a failed item's row falls due again).
 */
export async function runClaimed(items: readonly PumpItem[]): Promise<{ claimed: number; failed: number }> {
  const outcomes = await Promise.allSettled(items.map((item) => item.run()));
  return { claimed: items.length, failed: outcomes.filter((outcome) => outcome.status === "rejected").length };
}
