import type { ModuleFace } from "../../platform/module.ts";
import { eventRoutes } from "./routes.ts";

/**
 * Events and their feed (README.md). Other modules emit through `events` (the service) and name
 * event types with `EventType`/`eventTypes`.
 */
export { type EventType, eventTypes } from "./event-types.ts";
export * as events from "./service.ts";

export const eventsModule: ModuleFace<unknown> = {
  name: "events",
  routes: () => eventRoutes,
};
