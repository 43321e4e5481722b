import type { WalletGateways } from "../../../gateway/wallet-gateway.ts";
import type { PumpDefinition } from "../../../platform/queue/due-pump.ts";
import { dueRowsPump } from "../../../platform/queue/due-rows.ts";
import { DUE_WITHDRAWALS } from "../queries.ts";
import { claimDueWithdrawalExpiries } from "../withdrawals.ts";

/**
 * code-expiry: the pending withdrawal codes past their expiry are decided (a last inquiry, then
 * redeemed or expired), claimed in batches, each named and counted as the `expire_withdrawal_code`
 * job it was.
 */
export function expireDueWithdrawalCodesPump(gateways: WalletGateways): PumpDefinition {
  return dueRowsPump({
    name: "expire_due_withdrawal_codes",
    task: "expire_withdrawal_code",
    table: DUE_WITHDRAWALS.table,
    kind: "expiry",
    claim: (dependencies, limit) => claimDueWithdrawalExpiries({ ...dependencies, gateways }, limit),
  });
}
