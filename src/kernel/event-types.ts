/**
 * Every event type the platform emits. Webhook endpoints subscribe to these (or `*`); producers add
 * their type here when they start emitting it. In the kernel so the dashboard's event-type picker
 * offers exactly these (browser code imports only the kernel).
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
