import type { Task } from "graphile-worker";
import type { Config } from "../config.ts";
import type { Database } from "../db/pool.ts";
import type { Logger } from "../telemetry/logger.ts";

/** What every task receives; tasks build their handlers from it. */
export type TaskDependencies = { config: Config; database: Database; logger: Logger };

/** A task identifier, its handler, and optionally the cron pattern that schedules it. */
export type TaskDefinition = {
  identifier: string;
  build: (dependencies: TaskDependencies) => Task;
  /** A crontab time pattern, e.g. `0 * * * *`; the task then runs on that schedule. */
  cron?: string;
};

export type PoolName = "gateway-poller" | "code-expiry" | "payout-processor" | "webhook-delivery";
export const poolNames: readonly PoolName[] = ["gateway-poller", "code-expiry", "payout-processor", "webhook-delivery"];
