import type { WalletGateways } from "../../../gateway/wallet-gateway.ts";
import { taskOf } from "../../../platform/queue/job.ts";
import type { TaskDefinition } from "../../../platform/queue/task.ts";
import { processPayoutJob } from "../jobs.ts";
import { processPayout } from "../service.ts";

/** payout-processor: one pass over a payout (submit, or ask the gateway), then the next pass if unfinished. */
export function processPayoutTask(gateways: WalletGateways): TaskDefinition {
  return taskOf(processPayoutJob, ({ config, database, logger }, job) =>
    processPayout({ config, database, logger, gateways }, { merchantId: job.merchant_id, payoutId: job.payout_id }),
  );
}
