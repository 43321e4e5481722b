import { z } from "zod";
import type { WalletGateways } from "../../../gateway/wallet-gateway.ts";
import type { TaskDefinition } from "../../../platform/queue/task.ts";
import { PROCESS_PAYOUT_TASK, processPayout } from "../service.ts";

const payloadSchema = z.object({ merchant_id: z.string(), payout_id: z.string() });

/** payout-processor: one pass over a payout (submit, or ask the gateway), then the next pass if unfinished. */
export function processPayoutTask(gateways: WalletGateways): TaskDefinition {
  return {
    identifier: PROCESS_PAYOUT_TASK,
    build:
      ({ config, database, logger }) =>
      async (payload) => {
        const job = payloadSchema.parse(payload);
        await processPayout(
          { config, database, logger, gateways },
          { merchantId: job.merchant_id, payoutId: job.payout_id },
        );
      },
  };
}
