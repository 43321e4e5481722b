import { batchTask } from "../../../platform/queue/batch-run.ts";
import type { TaskDefinition } from "../../../platform/queue/task.ts";
import { expireDuePayments, type PaymentWiring } from "../service.ts";

export const EXPIRE_DUE_PAYMENTS_TASK = "expire_due_payments";

/**
 * code-expiry: the pending payments whose window has closed are expired (after a last inquiry) by one
 * recurring job, in batches (`batchTask`: at most 1 s late).
 */
export function expireDuePaymentsTask(wiring: PaymentWiring): TaskDefinition {
  return batchTask(EXPIRE_DUE_PAYMENTS_TASK, ({ config, database, logger }, options) =>
    expireDuePayments({ config, database, logger, ...wiring }, options),
  );
}
