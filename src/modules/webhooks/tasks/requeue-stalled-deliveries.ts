import type { TaskDefinition } from "../../../platform/queue/task.ts";
import { requeueStalledDeliveries } from "../service.ts";

/**
 * How late a due delivery may be before its job is presumed lost. Well above normal queueing delay,
 * so in the common case the sweeper finds nothing; re-enqueueing replaces a waiting job, never doubles it.
 */
const OVERDUE_MS = 60_000;

/** Every minute: re-enqueues deliveries whose worker died mid-attempt. */
export const requeueStalledWebhookDeliveries: TaskDefinition = {
  identifier: "requeue_stalled_webhook_deliveries",
  cron: "* * * * *",
  build:
    ({ database, logger }) =>
    async () => {
      const requeued = await requeueStalledDeliveries(database, { overdueMs: OVERDUE_MS });
      if (requeued > 0) {
        logger.warn({ task: "requeue_stalled_webhook_deliveries", requeued }, "re-enqueued stalled webhook deliveries");
      }
    },
};
