import type { TaskDefinition } from "../../../platform/queue/task.ts";
import { scheduleUnscheduledPayments } from "../service.ts";

/**
 * How old a pending payment without jobs must be before they are presumed lost. Its scheduling job
 * commits with it and the gateway-poller runs it within moments, so in the common case the sweep
 * finds nothing.
 */
const OLDER_THAN_MS = 60_000;

/**
 * Every minute: enqueues the poll and expiry of payments whose scheduling job has not run (the
 * gateway-poller pool is down or far behind) or failed for good, so that every payment still expires.
 */
export const scheduleUnscheduledPaymentsTask: TaskDefinition = {
  identifier: "schedule_unscheduled_payments",
  cron: "* * * * *",
  build:
    ({ config, database, logger }) =>
    async () => {
      const scheduled = await scheduleUnscheduledPayments(database, config, { olderThanMs: OLDER_THAN_MS });
      if (scheduled > 0) {
        logger.warn({ task: "schedule_unscheduled_payments", scheduled }, "enqueued the jobs of unscheduled payments");
      }
    },
};
