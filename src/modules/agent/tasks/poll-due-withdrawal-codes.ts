import type { WalletGateways } from "../../../gateway/wallet-gateway.ts";
import { batchTask } from "../../../platform/queue/batch-run.ts";
import type { TaskDefinition } from "../../../platform/queue/task.ts";
import { pollDueWithdrawals } from "../withdrawals.ts";
import { WITHDRAWAL_CHAINS } from "./withdrawal-chains.ts";

export const POLL_DUE_WITHDRAWAL_CODES_TASK = "poll_due_withdrawal_codes";

/**
 * gateway-poller: every pending withdrawal code is asked about on the poll schedule by one recurring
 * job, which claims the due ones in batches (`batchTask`: at most 1 s late).
 */
export function pollDueWithdrawalCodesTask(gateways: WalletGateways): TaskDefinition {
  return batchTask(
    POLL_DUE_WITHDRAWAL_CODES_TASK,
    ({ config, database, logger }, options) => pollDueWithdrawals({ config, database, logger, gateways }, options),
    { chainsMax: WITHDRAWAL_CHAINS },
  );
}
