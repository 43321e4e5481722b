import { type AnyRoute, defineRoute } from "../../platform/http/route.ts";
import { eventIdParams, eventPageSchema, eventSchema, listEventsQuery } from "./schemas.ts";
import * as events from "./service.ts";

export const eventRoutes: AnyRoute[] = [
  defineRoute({
    method: "get",
    path: "/v1/events",
    operationId: "listEvents",
    summary:
      "Events oldest first after `since`, optionally of one type or family or about one payment; none ever skipped",
    tags: ["Events"],
    auth: { keys: "both", owner: "session" },
    request: { query: listEventsQuery },
    responses: {
      200: {
        description: "A page of events. Store the last id processed and pass it as `since` next time.",
        schema: eventPageSchema,
      },
    },
    handler: async ({ database, tenant, query }) => {
      const page = await events.listEventsSince(database, {
        merchantId: tenant.merchantId,
        livemode: tenant.livemode,
        since: query.since,
        types: query.type,
        paymentId: query.payment_id,
        limit: query.limit,
        newestFirst: query.order === "newest_first",
      });
      return { body: { ...page, data: page.data.map(events.presentEvent) } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/v1/events/:id",
    operationId: "getEvent",
    summary: "One event",
    tags: ["Events"],
    auth: { keys: "both", owner: "session" },
    request: { params: eventIdParams },
    responses: { 200: { description: "The event.", schema: eventSchema } },
    handler: async ({ database, tenant, params }) => ({
      body: events.presentEvent(await events.getEvent(database, tenant, params.id)),
    }),
  }),
];
