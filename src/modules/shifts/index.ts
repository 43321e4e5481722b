import type { ModuleFace } from "../../platform/module.ts";
import { shiftRoutes } from "./routes.ts";

export * as shifts from "./sale-cash.ts";
/** Cash drawer shifts per till (README.md); sales record their cash in the till's open shift through `shifts`. */
export { tillIdSchema } from "./schemas.ts";

export const shiftsModule: ModuleFace<unknown> = {
  name: "shifts",
  routes: () => shiftRoutes,
};
