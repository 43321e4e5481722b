import { Histogram } from "prom-client";
import { domainRegistry } from "../platform/telemetry/domain-registry.ts";

/** Calls to the live wallet gateway, by operation and outcome (ok, unavailable, code_generation_failed). */
export const gatewayCallDurationSeconds = new Histogram({
  name: "pos_gateway_call_duration_seconds",
  help: "Live wallet gateway calls (retries included) by operation and outcome.",
  labelNames: ["operation", "outcome"],
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [domainRegistry],
});
