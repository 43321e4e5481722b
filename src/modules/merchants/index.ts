import type { ModuleFace } from "../../platform/module.ts";
import { merchantAdminRoutes, merchantRoutes } from "./routes.ts";

/** Merchants, dashboard users and API keys (README.md); other modules call `service.ts`. */
export const merchantsModule: ModuleFace<unknown> = {
  name: "merchants",
  routes: () => merchantRoutes,
  adminRoutes: () => merchantAdminRoutes,
};
