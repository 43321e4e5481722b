import express from "express";
import { type Database, sql } from "../db/pool.ts";
import type { Metrics } from "../telemetry/metrics.ts";

/**
 * The small HTTP surface of a worker process: /healthz (the process answers), /livez (it takes jobs:
 * 503 while it takes none though jobs are due), readiness and metrics.
 */
export function createOpsApp(options: {
  database: Database;
  metrics: Metrics;
  readiness: { draining: boolean };
  liveness: () => Promise<{ live: boolean; detail: string }>;
}) {
  const app = express();
  app.disable("x-powered-by");
  app.get("/healthz", (_request, response) => {
    response.json({ status: "ok" });
  });
  app.get("/livez", async (_request, response) => {
    const { live, detail } = await options.liveness();
    response.status(live ? 200 : 503).json({ status: live ? "live" : "stalled", detail });
  });
  app.get("/readyz", async (_request, response) => {
    const ready =
      !options.readiness.draining &&
      (await options.database.oneFirst(sql.unsafe`SELECT 1`).then(
        () => true,
        () => false,
      ));
    response.status(ready ? 200 : 503).json({ status: ready ? "ready" : "unavailable" });
  });
  app.get("/metrics", metricsRoute(options.metrics));
  return app;
}

/**
 * The API's metrics listener: /metrics alone, on its own port (METRICS_PORT), because the public port
 * is reachable by anyone and the exposition names routes, volumes and the process's internals.
 */
export function createMetricsApp(metrics: Metrics) {
  const app = express();
  app.disable("x-powered-by");
  app.get("/metrics", metricsRoute(metrics));
  return app;
}

/** The Prometheus exposition of a process, the same handler on every ops listener. */
function metricsRoute(metrics: Metrics): express.RequestHandler {
  return async (_request, response) => {
    response.type(metrics.registry.contentType).send(await metrics.render());
  };
}
