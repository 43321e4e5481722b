import type { WalletGateways } from "../../../gateway/wallet-gateway.ts";
import { batchTask } from "../../../platform/queue/batch-run.ts";
import type { TaskDefinition } from "../../../platform/queue/task.ts";
import { PROCESS_DUE_PAYOUTS_TASK, processDuePayouts } from "../service.ts";

/**
 * payout-processor: claims the payouts whose next pass is due (a request's first submission, a
 * retry, the pass that confirms) and makes each pass; a recurring batch task (`batchTask`), so the
 * processor's cost follows the passes made, not a job per payout.
 */
export function processDuePayoutsTask(gateways: WalletGateways): TaskDefinition {
  return batchTask(PROCESS_DUE_PAYOUTS_TASK, ({ config, database, logger }, options) =>
    processDuePayouts({ config, database, logger, gateways }, options),
  );
}
