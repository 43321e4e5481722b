import type { ModuleFace } from "../../platform/module.ts";
import { catalogRoutes } from "./routes.ts";
import type { RecordOpening } from "./service.ts";

/** Products (README.md). Its routes need the stock module's opening move, passed in by the wiring. */
export const catalogModule: ModuleFace<{ recordOpening: RecordOpening }> = {
  name: "catalog",
  routes: ({ recordOpening }) => catalogRoutes({ recordOpening }),
};
