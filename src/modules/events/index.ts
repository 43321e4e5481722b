import type { ModuleFace } from "../../platform/module.ts";
import { eventRoutes } from "./routes.ts";

/** Events and their feed (README.md); other modules emit through `service.ts`. */
export const eventsModule: ModuleFace<unknown> = {
  name: "events",
  routes: () => eventRoutes,
};
