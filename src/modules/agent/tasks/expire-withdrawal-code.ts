import { z } from "zod";
import type { WalletGateways } from "../../../gateway/wallet-gateway.ts";
import type { TaskDefinition } from "../../../platform/queue/task.ts";
import { EXPIRE_WITHDRAWAL_TASK, expireWithdrawalIfUnclaimed } from "../withdrawals.ts";

const payloadSchema = z.object({ merchant_id: z.string(), withdrawal_id: z.string() });

/** code-expiry: at `expires_at`, one last inquiry, then the code is redeemed or expires with nothing moved. */
export function expireWithdrawalCodeTask(gateways: WalletGateways): TaskDefinition {
  return {
    identifier: EXPIRE_WITHDRAWAL_TASK,
    build:
      ({ config, database, logger }) =>
      async (payload) => {
        const job = payloadSchema.parse(payload);
        await expireWithdrawalIfUnclaimed(
          { config, database, logger, gateways },
          { merchantId: job.merchant_id, withdrawalId: job.withdrawal_id },
        );
      },
  };
}
