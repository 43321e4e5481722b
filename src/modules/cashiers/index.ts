import type { ModuleFace } from "../../platform/module.ts";
import { cashierRoutes } from "./routes.ts";

export { type Approval, recordApproval, requireManager } from "./approvals.ts";

/** Cashiers who switch in on a till by PIN (README.md). */
export const cashiersModule: ModuleFace<unknown> = {
  name: "cashiers",
  routes: () => cashierRoutes,
};
