/**
 * Every event type the platform emits. Webhook endpoints subscribe to these (or `*`); producers add
 * their type here when they start emitting it.
 */
export const eventTypes = [
  "payment.paid",
  "payment.expired",
  "payment.failed",
  "payment.cancelled",
  "payment.late_paid",
  "payout.confirmed",
  "payout.failed",
  "payout.reversed",
  "withdrawal.redeemed",
  "bank_change.completed",
  "bank_change.failed",
  "utility_payment.completed",
  "utility_payment.failed",
  "sale.completed",
  "sale.returned",
  "shift.opened",
  "shift.closed",
] as const;
export type EventType = (typeof eventTypes)[number];

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
