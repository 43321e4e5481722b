import { z } from "zod";
import type { WalletGateways } from "../../../gateway/wallet-gateway.ts";
import type { TaskDefinition } from "../../../platform/queue/task.ts";
import { RECONCILE_UTILITY_PAYMENT_TASK, reconcileUtilityPayment } from "../service.ts";

const payloadSchema = z.object({ merchant_id: z.string(), utility_payment_id: z.string() });

/** gateway-poller: settles by inquiry a utility payment its request left unclear (completed or refunded). */
export function reconcileUtilityPaymentTask(gateways: WalletGateways): TaskDefinition {
  return {
    identifier: RECONCILE_UTILITY_PAYMENT_TASK,
    build:
      ({ config, database, logger }) =>
      async (payload) => {
        const job = payloadSchema.parse(payload);
        await reconcileUtilityPayment(
          { config, database, logger, gateways },
          { merchantId: job.merchant_id, utilityPaymentId: job.utility_payment_id },
        );
      },
  };
}
