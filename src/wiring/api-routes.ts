import { eventRoutes } from "../modules/events/routes.ts";
import { ledgerRoutes } from "../modules/ledger/routes.ts";
import { merchantAdminRoutes, merchantRoutes } from "../modules/merchants/routes.ts";
import { webhookRoutes } from "../modules/webhooks/routes.ts";
import type { AnyRoute } from "../platform/http/route.ts";

/** Every HTTP route of the API deployment, in the order they are matched and documented. */
export const apiRoutes: readonly AnyRoute[] = [
  ...merchantRoutes,
  ...ledgerRoutes,
  ...eventRoutes,
  ...webhookRoutes,
  ...merchantAdminRoutes,
];
