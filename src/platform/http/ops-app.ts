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
  app.get("/metrics", async (_request, response) => {
    response.type(options.metrics.registry.contentType).send(await options.metrics.render());
  });
  return app;
}
