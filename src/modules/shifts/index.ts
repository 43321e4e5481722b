import type { ModuleFace } from "../../platform/module.ts";
import { shiftRoutes } from "./routes.ts";

/** Cash drawer shifts per till (README.md); sales record their cash in the till's open shift. */
export const shiftsModule: ModuleFace<unknown> = {
  name: "shifts",
  routes: () => shiftRoutes,
};
