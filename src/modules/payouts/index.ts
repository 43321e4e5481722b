import type { WalletGateways } from "../../gateway/wallet-gateway.ts";
import type { ModuleFace } from "../../platform/module.ts";
import { processDuePayoutsPump } from "./pumps/process-due-payouts.ts";
import { getPayoutById } from "./reading.ts";
import { reversePayout } from "./reversal.ts";
import { payoutAdminRoutes, payoutRoutes } from "./routes.ts";

/** Payouts to the merchant's wallet (README.md). */
export { reversePayoutBody } from "./schemas.ts";

/** What the admin service calls: any merchant's payout, and an operator's reversal. */
export const payouts = { getPayoutById, reversePayout };

export const payoutsModule: ModuleFace<{ gateways: WalletGateways }> = {
  name: "payouts",
  routes: () => payoutRoutes(),
  adminRoutes: () => payoutAdminRoutes,
  pumps: ({ gateways }) => ({ "payout-processor": [processDuePayoutsPump(gateways)] }),
};
