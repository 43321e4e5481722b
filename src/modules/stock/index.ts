import type { ModuleFace } from "../../platform/module.ts";
import { stockRoutes } from "./routes.ts";

export { recordOpening } from "./service.ts";

/** The stock journal and on-hand (README.md); sales call `service.ts`, the catalog gets `recordOpening`. */
export const stockModule: ModuleFace<unknown> = {
  name: "stock",
  routes: () => stockRoutes,
};
