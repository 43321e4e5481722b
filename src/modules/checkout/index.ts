import type { Gateways } from "../../gateway/wallet-gateway.ts";
import type { ModuleFace } from "../../platform/module.ts";
import { checkoutRoutes } from "./routes.ts";
import { staticRoutes } from "./static-routes.ts";

/** The payer's checkout page, mockpay and the static files (README.md). */
export const checkoutModule: ModuleFace<{ gateways: Gateways }> = {
  name: "checkout",
  routes: ({ gateways }) => [...checkoutRoutes(gateways), ...staticRoutes],
};
