import { Counter, Histogram } from "prom-client";
import { domainRegistry } from "../../platform/telemetry/domain-registry.ts";

/** The payments funnel: created, then paid, expired or failed, by world and currency. */
export const paymentsTotal = new Counter({
  name: "pos_payments_total",
  help: "Payments by event (created, paid, expired, failed), world and currency.",
  labelNames: ["event", "livemode", "currency"],
  registers: [domainRegistry],
});

/** How many payments' ends each statement wrote (`payment-ends.ts`): 1 when they come one at a time. */
export const endsPerStatement = new Histogram({
  name: "pos_payment_ends_per_statement",
  help: "Payments' ends (paid, expired, failed) written together by one statement (those of one turn of a process's event loop).",
  buckets: [1, 2, 4, 8, 16, 32, 64, 128, 200],
  registers: [domainRegistry],
});
