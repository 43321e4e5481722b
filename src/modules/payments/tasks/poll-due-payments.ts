import { recurringTask } from "../../../platform/queue/recurring-task.ts";
import type { TaskDefinition } from "../../../platform/queue/task.ts";
import { type PaymentWiring, pollDuePayments } from "../service.ts";

export const POLL_DUE_PAYMENTS_TASK = "poll_due_payments";
/** Claim statements per run: a backlog is worked through over several runs, each due at once. */
const BATCHES_PER_RUN = 10;

/**
 * gateway-poller: every pending payment is asked about on the poll schedule by one recurring job,
 * which claims the due ones in batches; it runs again when the next poll falls due, at least every
 * 0.2 s and at most 1 s apart (a poll is at most that late).
 */
export function pollDuePaymentsTask(wiring: PaymentWiring): TaskDefinition {
  return recurringTask({
    identifier: POLL_DUE_PAYMENTS_TASK,
    intervalMs: { min: 200, max: 1000 },
    run: async ({ config, database, logger }) => {
      const run = await pollDuePayments({ config, database, logger, ...wiring }, { batchesMax: BATCHES_PER_RUN });
      return run;
    },
  });
}
