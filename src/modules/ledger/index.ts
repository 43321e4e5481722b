import type { ModuleFace } from "../../platform/module.ts";
import { ledgerRoutes } from "./routes.ts";

/** The ledger (README.md); other modules post and reverse through `ledger` (the service). */
export type { PostingInput } from "./schemas.ts";
export * as ledger from "./service.ts";

export const ledgerModule: ModuleFace<unknown> = {
  name: "ledger",
  routes: () => ledgerRoutes,
};
