import type { PumpDefinition } from "../../../platform/queue/due-pump.ts";
import { dueRowsPump } from "../../../platform/queue/due-rows.ts";
import { DUE_PAYMENTS } from "../queries.ts";
import { claimDuePaymentExpiries, type PaymentWiring } from "../service.ts";

/**
 * code-expiry: the pending payments whose window has closed are expired (after a last inquiry),
 * claimed in batches, each named and counted as the `expire_payment` job it was.
 */
export function expireDuePaymentsPump(wiring: PaymentWiring): PumpDefinition {
  return dueRowsPump({
    name: "expire_due_payments",
    task: "expire_payment",
    table: DUE_PAYMENTS.table,
    kind: "expiry",
    claim: (dependencies, limit) => claimDuePaymentExpiries({ ...dependencies, ...wiring }, limit),
  });
}
