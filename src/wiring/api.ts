import type { Server } from "node:http";
import { apiKeyAuthenticator } from "../modules/merchants/index.ts";
import { sessionAuthenticator, warmUp as warmUpSessions } from "../modules/sessions/index.ts";
import { type Config, requireDatabaseUrl, requireWebhookSecretKey } from "../platform/config.ts";
import { createConfiguredDatabase, type Database } from "../platform/db/pool.ts";
import { createApp } from "../platform/http/app.ts";
import { createMetricsApp } from "../platform/http/ops-app.ts";
import { closeGracefully, listen } from "../platform/http/server.ts";
import { createLogger, type Logger } from "../platform/telemetry/logger.ts";
import { createMetrics, type Metrics } from "../platform/telemetry/metrics.ts";
import { apiRoutes } from "./api-routes.ts";
import { createGateways } from "./gateways.ts";

/** The API application with every module's routes. */
export function buildApiApp(options: {
  config: Config;
  logger: Logger;
  database: Database;
  metrics?: Metrics;
  readiness?: { draining: boolean };
}) {
  warmUpSessions();
  return createApp({
    config: options.config,
    logger: options.logger,
    database: options.database,
    metrics: options.metrics ?? createMetrics({ service: "api" }),
    routes: apiRoutes(createGateways(options.config)),
    authenticate: apiKeyAuthenticator(options.database, options.config),
    sessions: sessionAuthenticator(options.database, options.config),
    readiness: options.readiness ?? { draining: false },
  });
}

/**
 * Serves the API, and its /metrics on the metrics port. Shutdown turns readiness false first and keeps
 * serving for the drain delay, so load balancers that follow /readyz stop sending new requests before
 * the server stops accepting them; then it stops accepting and lets in-flight requests finish. The
 * metrics listener closes last, so a scrape during the drain still sees the requests being finished.
 */
export async function startApi(options: {
  config: Config;
  logger: Logger;
  database: Database;
  metrics?: Metrics;
}): Promise<{
  server: Server;
  metricsServer: Server;
  stop: () => Promise<void>;
}> {
  const readiness = { draining: false };
  const metrics = options.metrics ?? createMetrics({ service: "api" });
  const app = buildApiApp({ ...options, metrics, readiness });
  const metricsServer = await listen(createMetricsApp(metrics), options.config.metricsPort);
  const server = await listen(app, options.config.port).catch(async (error: unknown) => {
    await closeGracefully(metricsServer, 0);
    throw error;
  });
  options.logger.info(
    { port: options.config.port, metricsPort: options.config.metricsPort, baseUrl: options.config.publicBaseUrl },
    "api listening",
  );
  return {
    server,
    metricsServer,
    stop: async () => {
      readiness.draining = true;
      await new Promise((resolve) => setTimeout(resolve, options.config.httpDrainDelayMs));
      await closeGracefully(server, options.config.httpShutdownTimeoutMs);
      await closeGracefully(metricsServer, options.config.httpShutdownTimeoutMs);
    },
  };
}

/** The API deployment: its own database pool and the server; the returned function shuts both down. */
export async function startApiService(config: Config): Promise<() => Promise<void>> {
  requireWebhookSecretKey(config);
  const logger = createLogger({ level: config.logLevel, service: "api" });
  const database = await createConfiguredDatabase(config, {
    url: requireDatabaseUrl(config),
    logger,
    applicationName: "api",
  });
  const api = await startApi({ config, logger, database });
  return async () => {
    await api.stop();
    await database.end();
  };
}
