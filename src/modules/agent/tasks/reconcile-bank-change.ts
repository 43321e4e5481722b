import type { WalletGateways } from "../../../gateway/wallet-gateway.ts";
import { taskOf } from "../../../platform/queue/job.ts";
import type { TaskDefinition } from "../../../platform/queue/task.ts";
import { reconcileBankChange } from "../bank-changes.ts";
import { reconcileBankChangeJob } from "../jobs.ts";

/** gateway-poller: settles by inquiry a change-to-wallet its request left unclear (completed or refunded). */
export function reconcileBankChangeTask(gateways: WalletGateways): TaskDefinition {
  return taskOf(reconcileBankChangeJob, ({ config, database, logger }, job) =>
    reconcileBankChange(
      { config, database, logger, gateways },
      { merchantId: job.merchant_id, bankChangeId: job.bank_change_id },
    ),
  );
}
