import { Counter } from "prom-client";
import { domainRegistry } from "../../platform/telemetry/domain-registry.ts";

/** Payouts reaching each status (requested, submitted, confirmed, failed, reversed), by world and currency. */
export const payoutsTotal = new Counter({
  name: "pos_payouts_total",
  help: "Payouts by status reached (requested, submitted, confirmed, failed, reversed), world and currency.",
  labelNames: ["status", "livemode", "currency"],
  registers: [domainRegistry],
});
