import type { WalletGateways } from "../../../gateway/wallet-gateway.ts";
import { taskOf } from "../../../platform/queue/job.ts";
import type { TaskDefinition } from "../../../platform/queue/task.ts";
import { pollWithdrawalJob } from "../jobs.ts";
import { pollWithdrawal } from "../withdrawals.ts";

/** gateway-poller: asks the gateway whether a pending withdrawal code was claimed, until it is final. */
export function pollWithdrawalCodeTask(gateways: WalletGateways): TaskDefinition {
  return taskOf(pollWithdrawalJob, ({ config, database, logger }, job) =>
    pollWithdrawal(
      { config, database, logger, gateways },
      { merchantId: job.merchant_id, withdrawalId: job.withdrawal_id, attempt: job.attempt },
    ),
  );
}
