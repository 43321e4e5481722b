import type { PumpDefinition } from "../../../platform/queue/due-pump.ts";
import { dueRowsPump } from "../../../platform/queue/due-rows.ts";
import { DUE_PAYMENTS } from "../queries.ts";
import { claimDuePaymentPolls, type PaymentWiring } from "../service.ts";

/**
 * gateway-poller: every pending payment is asked about on the poll schedule, claimed in batches when
 * its poll falls due. Each poll is a span continuing the trace of the request that created the
 * payment, named and counted as the `poll_payment` job it was.
 */
export function pollDuePaymentsPump(wiring: PaymentWiring): PumpDefinition {
  return dueRowsPump({
    name: "poll_due_payments",
    task: "poll_payment",
    table: DUE_PAYMENTS.table,
    kind: "poll",
    claim: (dependencies, limit) => claimDuePaymentPolls({ ...dependencies, ...wiring }, limit),
  });
}
