import { call, type QueryOf, type Schema } from "./call.ts";

/** The world's events, newest first or oldest first (docs/webhooks.md). */
export type Event = Schema<"Event">;

export const getEvent = (id: string) => call("get", "/v1/events/{id}", { path: { id } });

export const listEvents = (query: QueryOf<"/v1/events", "get">) => call("get", "/v1/events", { query });
