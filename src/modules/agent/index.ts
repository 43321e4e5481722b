import type { WalletGateways } from "../../gateway/wallet-gateway.ts";
import type { ModuleFace } from "../../platform/module.ts";
import { expireDueWithdrawalCodesPump } from "./pumps/expire-due-withdrawal-codes.ts";
import { pollDueWithdrawalCodesPump } from "./pumps/poll-due-withdrawal-codes.ts";
import { agentRoutes } from "./routes.ts";
import { reconcileBankChangeTask } from "./tasks/reconcile-bank-change.ts";

/**
 * The agent module's front door: withdrawal codes (cash-out), change-to-wallet and the account lookup,
 * their routes, their tasks and their pumps.
 */
export * from "./account-lookup.ts";
export * from "./bank-changes.ts";
export type { AgentDependencies } from "./dependencies.ts";
export * from "./withdrawals.ts";

export const agentModule: ModuleFace<{ gateways: WalletGateways }> = {
  name: "agent",
  routes: ({ gateways }) => agentRoutes(gateways),
  tasks: ({ gateways }) => ({ "gateway-poller": [reconcileBankChangeTask(gateways)] }),
  pumps: ({ gateways }) => ({
    "gateway-poller": [pollDueWithdrawalCodesPump(gateways)],
    "code-expiry": [expireDueWithdrawalCodesPump(gateways)],
  }),
};
