import type { WalletGateways } from "../../gateway/wallet-gateway.ts";
import type { ModuleFace } from "../../platform/module.ts";
import { processDuePayoutsPump } from "./pumps/process-due-payouts.ts";
import { getPayoutById } from "./reading.ts";
import { reversePayout } from "./reversal.ts";
import { type PayoutRouteWiring, payoutAdminRoutes, payoutRoutes } from "./routes.ts";

/** Payouts to the merchant's wallet (README.md). */
export { type PayoutWriter, payoutWriterPerDatabase } from "./batch-writers.ts";
export { reversePayoutBody } from "./schemas.ts";
export type { PayoutRouteWiring };

/** What the admin service calls: any merchant's payout, and an operator's reversal. */
export const payouts = { getPayoutById, reversePayout };

export const payoutsModule: ModuleFace<{ gateways: WalletGateways } & PayoutRouteWiring> = {
  name: "payouts",
  routes: (wiring) => payoutRoutes(wiring),
  adminRoutes: () => payoutAdminRoutes,
  pumps: ({ gateways }) => ({ "payout-processor": [processDuePayoutsPump(gateways)] }),
};
