import { Counter } from "prom-client";
import { domainRegistry } from "../../platform/telemetry/domain-registry.ts";

/** The payments funnel: created, then paid, expired or failed, by world and currency. */
export const paymentsTotal = new Counter({
  name: "pos_payments_total",
  help: "Payments by event (created, paid, expired, failed), world and currency.",
  labelNames: ["event", "livemode", "currency"],
  registers: [domainRegistry],
});
