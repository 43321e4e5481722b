import type { ModuleFace } from "../../platform/module.ts";
import { stockRoutes } from "./routes.ts";

export * as stock from "./service.ts";
export { recordOpening } from "./service.ts";

/** The stock journal and on-hand (README.md); sales call `stock` (the service), the catalog gets `recordOpening`. */
export const stockModule: ModuleFace<unknown> = {
  name: "stock",
  routes: () => stockRoutes,
};
