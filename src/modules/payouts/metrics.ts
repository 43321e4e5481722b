import { Counter } from "prom-client";
import { domainRegistry } from "../../platform/telemetry/domain-registry.ts";
import type { PayoutRow } from "./schemas.ts";

/** Payouts reaching each status (requested, submitted, confirmed, failed, reversed), by world and currency. */
export const payoutsTotal = new Counter({
  name: "pos_payouts_total",
  help: "Payouts by status reached (requested, submitted, confirmed, failed, reversed), world and currency.",
  labelNames: ["status", "livemode", "currency"],
  registers: [domainRegistry],
});

/** Counts the status a payout has just reached (called once its transition is committed). */
export function countTransition(payout: PayoutRow): void {
  payoutsTotal.inc({ status: payout.status, livemode: String(payout.livemode), currency: payout.currency });
}
