import type { WalletGateways } from "../../gateway/wallet-gateway.ts";
import type { ModuleFace } from "../../platform/module.ts";
import { payoutAdminRoutes, payoutRoutes } from "./routes.ts";
import { processDuePayoutsTask } from "./tasks/process-due-payouts.ts";

/** Payouts to the merchant's wallet (README.md). */
export const payoutsModule: ModuleFace<{ gateways: WalletGateways }> = {
  name: "payouts",
  routes: () => payoutRoutes(),
  adminRoutes: () => payoutAdminRoutes,
  tasks: ({ gateways }) => ({ "payout-processor": [processDuePayoutsTask(gateways)] }),
};
