import type { WalletGateways } from "../../gateway/wallet-gateway.ts";
import type { ModuleFace } from "../../platform/module.ts";
import { processDuePayoutsPump } from "./pumps/process-due-payouts.ts";
import { payoutAdminRoutes, payoutRoutes } from "./routes.ts";

/** Payouts to the merchant's wallet (README.md); the admin service calls `payouts` (the service). */
export { reversePayoutBody } from "./schemas.ts";
export * as payouts from "./service.ts";

export const payoutsModule: ModuleFace<{ gateways: WalletGateways }> = {
  name: "payouts",
  routes: () => payoutRoutes(),
  adminRoutes: () => payoutAdminRoutes,
  pumps: ({ gateways }) => ({ "payout-processor": [processDuePayoutsPump(gateways)] }),
};
