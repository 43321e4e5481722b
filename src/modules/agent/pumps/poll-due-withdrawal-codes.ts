import type { WalletGateways } from "../../../gateway/wallet-gateway.ts";
import type { PumpDefinition } from "../../../platform/queue/due-pump.ts";
import { dueRowsPump } from "../../../platform/queue/due-rows.ts";
import { DUE_WITHDRAWALS } from "../queries.ts";
import { claimDueWithdrawalPolls } from "../withdrawals.ts";

/**
 * gateway-poller: every pending withdrawal code is asked about on the poll schedule, claimed in
 * batches when its poll falls due, each named and counted as the `poll_withdrawal_code` job it was.
 */
export function pollDueWithdrawalCodesPump(gateways: WalletGateways): PumpDefinition {
  return dueRowsPump({
    name: "poll_due_withdrawal_codes",
    task: "poll_withdrawal_code",
    table: DUE_WITHDRAWALS.table,
    kind: "poll",
    claim: (dependencies, limit) => claimDueWithdrawalPolls({ ...dependencies, gateways }, limit),
  });
}
