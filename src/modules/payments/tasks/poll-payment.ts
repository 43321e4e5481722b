import { z } from "zod";
import type { Gateways } from "../../../gateway/wallet-gateway.ts";
import type { TaskDefinition } from "../../../platform/queue/task.ts";
import { POLL_PAYMENT_TASK, pollPayment } from "../service.ts";

const payloadSchema = z.object({ merchant_id: z.string(), payment_id: z.string(), attempt: z.number().int().min(0) });

/** gateway-poller: asks the gateway about a pending payment on a backoff schedule until it is final. */
export function pollPaymentTask(gateways: Gateways): TaskDefinition {
  return {
    identifier: POLL_PAYMENT_TASK,
    build:
      ({ config, database, logger }) =>
      async (payload) => {
        const job = payloadSchema.parse(payload);
        await pollPayment({ config, database, logger, gateways }, { paymentId: job.payment_id, attempt: job.attempt });
      },
  };
}
