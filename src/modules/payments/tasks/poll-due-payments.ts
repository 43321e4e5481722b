import { batchTask } from "../../../platform/queue/batch-run.ts";
import type { TaskDefinition } from "../../../platform/queue/task.ts";
import { type PaymentWiring, pollDuePayments } from "../service.ts";

export const POLL_DUE_PAYMENTS_TASK = "poll_due_payments";

/**
 * gateway-poller: every pending payment is asked about on the poll schedule by one recurring job,
 * which claims the due ones in batches (`batchTask`: at most 1 s late).
 */
export function pollDuePaymentsTask(wiring: PaymentWiring): TaskDefinition {
  return batchTask(POLL_DUE_PAYMENTS_TASK, ({ config, database, logger }, options) =>
    pollDuePayments({ config, database, logger, ...wiring }, options),
  );
}
