import type { ModuleFace } from "../../platform/module.ts";
import { shopProfileRoutes } from "./routes.ts";

export { createShopProfileReader, getShopProfile, type ShopProfileReader } from "./service.ts";

/** What a shop prints on its receipts and how it prices tax (README.md). */
export const shopProfileModule: ModuleFace<unknown> = {
  name: "shop-profile",
  routes: () => shopProfileRoutes,
};
