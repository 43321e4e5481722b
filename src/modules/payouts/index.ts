import type { WalletGateways } from "../../gateway/wallet-gateway.ts";
import type { ModuleFace } from "../../platform/module.ts";
import { payoutAdminRoutes, payoutRoutes } from "./routes.ts";
import { processPayoutTask } from "./tasks/process-payout.ts";
import { requeueStalledPayoutsTask } from "./tasks/requeue-stalled-payouts.ts";

/** Payouts to the merchant's wallet (README.md). */
export const payoutsModule: ModuleFace<{ gateways: WalletGateways }> = {
  name: "payouts",
  routes: () => payoutRoutes,
  adminRoutes: () => payoutAdminRoutes,
  tasks: ({ gateways }) => ({ "payout-processor": [processPayoutTask(gateways), requeueStalledPayoutsTask] }),
};
