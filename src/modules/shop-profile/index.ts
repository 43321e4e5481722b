import type { ModuleFace } from "../../platform/module.ts";
import { shopProfileRoutes } from "./routes.ts";

export { pricingColumnsSchema, pricingOf, pricingOfMerchant } from "./queries.ts";
export { getShopProfile } from "./service.ts";

/** What a shop prints on its receipts and how it prices tax (README.md). */
export const shopProfileModule: ModuleFace<unknown> = {
  name: "shop-profile",
  routes: () => shopProfileRoutes,
};
