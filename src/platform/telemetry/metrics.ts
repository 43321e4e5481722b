import { Counter, collectDefaultMetrics, Histogram, Registry } from "prom-client";
import { domainRegistry } from "./domain-registry.ts";

/**
 * One registry per process role. Labels are bounded: route templates, never ids or merchants.
 */
export type Metrics = {
  registry: Registry;
  /** The process's exposition: platform metrics and the domain modules' metrics. */
  render: () => Promise<string>;
  httpRequestDurationSeconds: Histogram<"method" | "route" | "status_code">;
  rateLimitedRequestsTotal: Counter;
  idempotentReplaysTotal: Counter;
};

export function createMetrics(options: { service: string }): Metrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service: options.service });
  domainRegistry.setDefaultLabels({ service: options.service });
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    render: async () => `${await registry.metrics()}\n${await domainRegistry.metrics()}`,
    httpRequestDurationSeconds: new Histogram({
      name: "http_request_duration_seconds",
      help: "HTTP request duration by method, route template and status code.",
      labelNames: ["method", "route", "status_code"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    rateLimitedRequestsTotal: new Counter({
      name: "pos_rate_limited_requests_total",
      help: "Requests refused with 429 by the per-merchant rate limit.",
      registers: [registry],
    }),
    idempotentReplaysTotal: new Counter({
      name: "pos_idempotent_replays_total",
      help: "Money POSTs answered from a stored idempotent response.",
      registers: [registry],
    }),
  };
}

/**
 * The metric `configuration.name` of `registry`, made by `Kind` (a prom-client metric class) with
 * `configuration` and registered there the first time: several pools may share one process and
 * registry (the dev entry point), and a metric is created once.
 */
export function metricOnce<C extends { name: string }, M>(
  registry: Registry,
  Kind: new (configuration: C & { registers: Registry[] }) => M,
  configuration: C,
): M {
  return (
    (registry.getSingleMetric(configuration.name) as M | undefined) ??
    new Kind({ ...configuration, registers: [registry] })
  );
}
