import type { WalletGateways } from "../../../gateway/wallet-gateway.ts";
import { taskOf } from "../../../platform/queue/job.ts";
import type { TaskDefinition } from "../../../platform/queue/task.ts";
import { reconcileUtilityPaymentJob } from "../jobs.ts";
import { reconcileUtilityPayment } from "../service.ts";

/** gateway-poller: settles by inquiry a utility payment its request left unclear (completed or refunded). */
export function reconcileUtilityPaymentTask(gateways: WalletGateways): TaskDefinition {
  return taskOf(reconcileUtilityPaymentJob, ({ config, database, logger }, job) =>
    reconcileUtilityPayment(
      { config, database, logger, gateways },
      { merchantId: job.merchant_id, utilityPaymentId: job.utility_payment_id },
    ),
  );
}
