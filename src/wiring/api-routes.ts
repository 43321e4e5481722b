import type { WalletGateways } from "../gateway/wallet-gateway.ts";
import { agentRoutes } from "../modules/agent/routes.ts";
import { checkoutRoutes } from "../modules/checkout/routes.ts";
import { staticRoutes } from "../modules/checkout/static-routes.ts";
import { eventRoutes } from "../modules/events/routes.ts";
import { ledgerRoutes } from "../modules/ledger/routes.ts";
import { merchantAdminRoutes, merchantRoutes } from "../modules/merchants/routes.ts";
import { paymentRoutes } from "../modules/payments/routes.ts";
import { payoutAdminRoutes, payoutRoutes } from "../modules/payouts/routes.ts";
import { utilityRoutes } from "../modules/utilities/routes.ts";
import { webhookRoutes } from "../modules/webhooks/routes.ts";
import type { AnyRoute } from "../platform/http/route.ts";

/** Every HTTP route of the API deployment, in the order they are matched and documented. */
export function apiRoutes(gateways: WalletGateways): readonly AnyRoute[] {
  return [
    ...merchantRoutes,
    ...paymentRoutes(gateways),
    ...payoutRoutes,
    ...agentRoutes(gateways),
    ...utilityRoutes(gateways),
    ...ledgerRoutes,
    ...eventRoutes,
    ...webhookRoutes,
    ...checkoutRoutes(gateways),
    ...staticRoutes,
    ...merchantAdminRoutes,
    ...payoutAdminRoutes,
  ];
}
