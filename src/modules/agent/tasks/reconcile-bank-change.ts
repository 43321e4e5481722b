import { z } from "zod";
import type { WalletGateways } from "../../../gateway/wallet-gateway.ts";
import type { TaskDefinition } from "../../../platform/queue/task.ts";
import { RECONCILE_BANK_CHANGE_TASK, reconcileBankChange } from "../bank-changes.ts";

const payloadSchema = z.object({ merchant_id: z.string(), bank_change_id: z.string() });

/** gateway-poller: settles by inquiry a change-to-wallet its request left unclear (completed or refunded). */
export function reconcileBankChangeTask(gateways: WalletGateways): TaskDefinition {
  return {
    identifier: RECONCILE_BANK_CHANGE_TASK,
    build:
      ({ config, database, logger }) =>
      async (payload) => {
        const job = payloadSchema.parse(payload);
        await reconcileBankChange(
          { config, database, logger, gateways },
          { merchantId: job.merchant_id, bankChangeId: job.bank_change_id },
        );
      },
  };
}
