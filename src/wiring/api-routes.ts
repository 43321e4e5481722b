import type { WalletGateways } from "../gateway/wallet-gateway.ts";
import { agentRoutes } from "../modules/agent/routes.ts";
import { auditRoutes } from "../modules/audit/index.ts";
import { cashierRoutes } from "../modules/cashiers/routes.ts";
import { catalogRoutes } from "../modules/catalog/routes.ts";
import { checkoutRoutes } from "../modules/checkout/routes.ts";
import { staticRoutes } from "../modules/checkout/static-routes.ts";
import { eventRoutes } from "../modules/events/routes.ts";
import { ledgerRoutes } from "../modules/ledger/routes.ts";
import { merchantAdminRoutes, merchantRoutes } from "../modules/merchants/routes.ts";
import { paymentRoutes } from "../modules/payments/routes.ts";
import { payoutAdminRoutes, payoutRoutes } from "../modules/payouts/routes.ts";
import { receiptRoutes } from "../modules/sales/receipt-routes.ts";
import { saleRoutes } from "../modules/sales/routes.ts";
import { deviceRoutes, keyRoutes, sessionRoutes } from "../modules/sessions/index.ts";
import { shiftRoutes } from "../modules/shifts/routes.ts";
import { stockRoutes } from "../modules/stock/routes.ts";
import { utilityRoutes } from "../modules/utilities/routes.ts";
import { webAppRoutes } from "../modules/web-apps/index.ts";
import { webhookRoutes } from "../modules/webhooks/routes.ts";
import type { AnyRoute } from "../platform/http/route.ts";
import { installPaymentHooks } from "./payment-hooks.ts";

/** Every HTTP route of the API deployment, in the order they are matched and documented. */
export function apiRoutes(gateways: WalletGateways): readonly AnyRoute[] {
  // The API settles and ends payments (GET refresh, mockpay): wallet sales must follow them.
  installPaymentHooks();
  return [
    ...merchantRoutes,
    ...sessionRoutes(),
    ...deviceRoutes(),
    ...cashierRoutes,
    ...keyRoutes(),
    ...auditRoutes,
    ...paymentRoutes(gateways),
    ...catalogRoutes,
    ...stockRoutes,
    ...saleRoutes(gateways),
    ...shiftRoutes,
    ...receiptRoutes,
    ...payoutRoutes,
    ...agentRoutes(gateways),
    ...utilityRoutes(gateways),
    ...ledgerRoutes,
    ...eventRoutes,
    ...webhookRoutes,
    ...checkoutRoutes(gateways),
    ...staticRoutes,
    ...webAppRoutes,
    ...merchantAdminRoutes,
    ...payoutAdminRoutes,
  ];
}
