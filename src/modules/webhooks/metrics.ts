import { Counter, Histogram } from "prom-client";
import { domainRegistry } from "../../platform/telemetry/domain-registry.ts";

export const webhookAttemptsTotal = new Counter({
  name: "pos_webhook_delivery_attempts_total",
  help: "Webhook delivery attempts by outcome (succeeded, failed) and attempt number (1 to 8, 9+ for manual retries).",
  labelNames: ["outcome", "attempt"],
  registers: [domainRegistry],
});

export const webhookDeadDeliveriesTotal = new Counter({
  name: "pos_webhook_dead_deliveries_total",
  help: "Webhook deliveries parked as dead after their last attempt failed.",
  registers: [domainRegistry],
});

export const webhookSecretUnopenableTotal = new Counter({
  name: "pos_webhook_secret_unopenable_total",
  help: "Deliveries postponed without an attempt because their endpoint's secret does not decrypt with the configured keys (a key rotation gone wrong).",
  registers: [domainRegistry],
});

export const webhookAttemptDurationSeconds = new Histogram({
  name: "pos_webhook_delivery_attempt_duration_seconds",
  help: "Time from sending a webhook to the receiver's answer (or the failure).",
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [domainRegistry],
});
