/**
 * Every event type the platform emits. Webhook endpoints subscribe to these (or `*`); producers add
 * their type here when they start emitting it.
 */
export const eventTypes = [
  "payment.paid",
  "payment.expired",
  "payment.failed",
  "payout.confirmed",
  "payout.failed",
  "payout.reversed",
  "withdrawal.redeemed",
  "sale.completed",
] as const;
export type EventType = (typeof eventTypes)[number];
