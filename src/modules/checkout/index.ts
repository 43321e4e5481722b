import type { ModuleFace } from "../../platform/module.ts";
import type { PaymentWiring } from "../payments/index.ts";
import { checkoutRoutes } from "./routes.ts";
import { staticRoutes } from "./static-routes.ts";

/** The payer's checkout page, mockpay and the static files (README.md). */
export const checkoutModule: ModuleFace<PaymentWiring> = {
  name: "checkout",
  routes: (wiring) => [...checkoutRoutes(wiring), ...staticRoutes],
};
