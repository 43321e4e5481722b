import type { WalletGateways } from "../../../gateway/wallet-gateway.ts";
import { taskOf } from "../../../platform/queue/job.ts";
import type { TaskDefinition } from "../../../platform/queue/task.ts";
import { expireWithdrawalJob } from "../jobs.ts";
import { expireWithdrawalIfUnclaimed } from "../withdrawals.ts";

/** code-expiry: at `expires_at`, one last inquiry, then the code is redeemed or expires with nothing moved. */
export function expireWithdrawalCodeTask(gateways: WalletGateways): TaskDefinition {
  return taskOf(expireWithdrawalJob, ({ config, database, logger }, job) =>
    expireWithdrawalIfUnclaimed(
      { config, database, logger, gateways },
      { merchantId: job.merchant_id, withdrawalId: job.withdrawal_id },
    ),
  );
}
