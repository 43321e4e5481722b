import type { TaskDefinition } from "../../../platform/queue/task.ts";
import { REQUEUE_STALLED_PAYOUTS_TASK, requeueStalledPayouts } from "../service.ts";

/**
 * payout-processor, every minute: a worker killed mid-pass leaves its graphile-worker job locked for
 * hours; this gives such payouts (overdue, lease lapsed) a new job.
 */
export const requeueStalledPayoutsTask: TaskDefinition = {
  identifier: REQUEUE_STALLED_PAYOUTS_TASK,
  cron: "* * * * *",
  build: (dependencies) => async () => {
    await requeueStalledPayouts(dependencies);
  },
};
