import { recurringTask } from "../../../platform/queue/recurring-task.ts";
import type { TaskDefinition } from "../../../platform/queue/task.ts";
import { expireDuePayments, type PaymentWiring } from "../service.ts";

export const EXPIRE_DUE_PAYMENTS_TASK = "expire_due_payments";
const BATCHES_PER_RUN = 10;

/**
 * code-expiry: the pending payments whose window has closed are expired (after a last inquiry) by one
 * recurring job, in batches; it runs again when the next window closes, at least every 0.2 s and at
 * most 1 s apart.
 */
export function expireDuePaymentsTask(wiring: PaymentWiring): TaskDefinition {
  return recurringTask({
    identifier: EXPIRE_DUE_PAYMENTS_TASK,
    intervalMs: { min: 200, max: 1000 },
    run: async ({ config, database, logger }) => {
      const run = await expireDuePayments({ config, database, logger, ...wiring }, { batchesMax: BATCHES_PER_RUN });
      return run;
    },
  });
}
