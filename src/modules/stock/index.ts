import type { ModuleFace } from "../../platform/module.ts";
import { stockRoutes } from "./routes.ts";

export * as stock from "./service.ts";
export { recordOpenings } from "./service.ts";

/** The stock journal and on-hand (README.md); sales call `stock` (the service), the catalog gets `recordOpenings`. */
export const stockModule: ModuleFace<unknown> = {
  name: "stock",
  routes: () => stockRoutes,
};
