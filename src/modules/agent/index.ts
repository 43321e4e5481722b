import type { WalletGateways } from "../../gateway/wallet-gateway.ts";
import type { ModuleFace } from "../../platform/module.ts";
import { agentRoutes } from "./routes.ts";
import { expireWithdrawalCodeTask } from "./tasks/expire-withdrawal-code.ts";
import { pollWithdrawalCodeTask } from "./tasks/poll-withdrawal-code.ts";
import { reconcileBankChangeTask } from "./tasks/reconcile-bank-change.ts";

/**
 * The agent module's front door: withdrawal codes (cash-out), change-to-wallet and the account lookup,
 * their routes and their tasks.
 */
export * from "./account-lookup.ts";
export * from "./bank-changes.ts";
export type { AgentDependencies } from "./dependencies.ts";
export * from "./withdrawals.ts";

export const agentModule: ModuleFace<{ gateways: WalletGateways }> = {
  name: "agent",
  routes: ({ gateways }) => agentRoutes(gateways),
  tasks: ({ gateways }) => ({
    "gateway-poller": [pollWithdrawalCodeTask(gateways), reconcileBankChangeTask(gateways)],
    "code-expiry": [expireWithdrawalCodeTask(gateways)],
  }),
};
