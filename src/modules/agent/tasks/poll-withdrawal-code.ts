import { z } from "zod";
import type { WalletGateways } from "../../../gateway/wallet-gateway.ts";
import type { TaskDefinition } from "../../../platform/queue/task.ts";
import { POLL_WITHDRAWAL_TASK, pollWithdrawal } from "../withdrawals.ts";

const payloadSchema = z.object({
  merchant_id: z.string(),
  withdrawal_id: z.string(),
  attempt: z.number().int().min(0),
});

/** gateway-poller: asks the gateway whether a pending withdrawal code was claimed, until it is final. */
export function pollWithdrawalCodeTask(gateways: WalletGateways): TaskDefinition {
  return {
    identifier: POLL_WITHDRAWAL_TASK,
    build:
      ({ config, database, logger }) =>
      async (payload) => {
        const job = payloadSchema.parse(payload);
        await pollWithdrawal(
          { config, database, logger, gateways },
          { merchantId: job.merchant_id, withdrawalId: job.withdrawal_id, attempt: job.attempt },
        );
      },
  };
}
