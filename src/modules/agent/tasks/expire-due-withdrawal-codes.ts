import type { WalletGateways } from "../../../gateway/wallet-gateway.ts";
import { batchTask } from "../../../platform/queue/batch-run.ts";
import type { TaskDefinition } from "../../../platform/queue/task.ts";
import { expireDueWithdrawals } from "../withdrawals.ts";
import { WITHDRAWAL_CHAINS } from "./withdrawal-chains.ts";

export const EXPIRE_DUE_WITHDRAWAL_CODES_TASK = "expire_due_withdrawal_codes";

/**
 * code-expiry: the pending withdrawal codes past their expiry are decided (a last inquiry, then
 * redeemed or expired) by one recurring job, in batches (`batchTask`: at most 1 s late).
 */
export function expireDueWithdrawalCodesTask(gateways: WalletGateways): TaskDefinition {
  return batchTask(
    EXPIRE_DUE_WITHDRAWAL_CODES_TASK,
    ({ config, database, logger }, options) => expireDueWithdrawals({ config, database, logger, gateways }, options),
    { chainsMax: WITHDRAWAL_CHAINS },
  );
}
