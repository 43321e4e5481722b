import { z } from "zod";
import type { Gateways } from "../../../gateway/wallet-gateway.ts";
import type { TaskDefinition } from "../../../platform/queue/task.ts";
import { EXPIRE_PAYMENT_TASK, expireIfUnpaid } from "../service.ts";

const payloadSchema = z.object({ merchant_id: z.string(), payment_id: z.string() });

/** code-expiry: at `expires_at`, one last inquiry, then the payment is paid, failed or expired. */
export function expirePaymentTask(gateways: Gateways): TaskDefinition {
  return {
    identifier: EXPIRE_PAYMENT_TASK,
    build:
      ({ config, database, logger }) =>
      async (payload) => {
        const job = payloadSchema.parse(payload);
        await expireIfUnpaid({ config, database, logger, gateways }, { paymentId: job.payment_id });
      },
  };
}
