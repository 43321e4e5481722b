import { type EventType, eventTypes } from "../../kernel/event-types.ts";

export { type EventType, eventTypes };

/**
 * The type of the test event that `POST /v1/webhook_endpoints/:id/test` sends to one endpoint. It is
 * not a money event: endpoints cannot subscribe to it, the database does not fan it out, and the
 * polling feed (`GET /v1/events`) leaves it out; `GET /v1/events/:id` still shows it.
 */
export const TEST_EVENT_TYPE = "webhook.test";

/** Every type an event row may have. */
export const storedEventTypes = [...eventTypes, TEST_EVENT_TYPE] as const;
export type StoredEventType = (typeof storedEventTypes)[number];

/**
 * The event types a `type` filter names: one type exactly, or every type of a family (`payment.*`).
 * Null when it names none (an unknown type or family).
 */
export function eventTypesMatching(filter: string): EventType[] | null {
  const family = filter.endsWith(".*") ? filter.slice(0, -1) : null;
  const matching = eventTypes.filter((type) => (family === null ? type === filter : type.startsWith(family)));
  return matching.length === 0 ? null : matching;
}
