import { Counter } from "prom-client";
import { domainRegistry } from "../../platform/telemetry/domain-registry.ts";

/** Completed sales, counted once each after the completing transaction commits. */
export const salesTotal = new Counter({
  name: "pos_sales_total",
  help: "Completed sales by tender (cash, wallet), world and currency.",
  labelNames: ["tender", "livemode", "currency"],
  registers: [domainRegistry],
});
