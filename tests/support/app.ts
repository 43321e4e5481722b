import { randomUUID } from "node:crypto";
import type { Server } from "node:http";
import request from "supertest";
import type { Gateways, WalletGateways } from "../../src/gateway/wallet-gateway.ts";
import { apiKeyAuthenticator } from "../../src/modules/merchants/service.ts";
import { sessionAuthenticator } from "../../src/modules/sessions/index.ts";
import { type Config, loadConfig } from "../../src/platform/config.ts";
import type { Database } from "../../src/platform/db/pool.ts";
import { createApp } from "../../src/platform/http/app.ts";
import { createMetricsApp } from "../../src/platform/http/ops-app.ts";
import type { AnyRoute } from "../../src/platform/http/route.ts";
import { closeGracefully, listen, portOf } from "../../src/platform/http/server.ts";
import { createLogger, type Logger } from "../../src/platform/telemetry/logger.ts";
import { createMetrics, type Metrics } from "../../src/platform/telemetry/metrics.ts";
import { apiRoutes } from "../../src/wiring/api-routes.ts";
import { createGateways } from "../../src/wiring/gateways.ts";
import { paymentHooks } from "../../src/wiring/modules.ts";

export const TEST_ADMIN_TOKEN = "test-admin-token-0123456789";
export const TEST_WEBHOOK_SECRET_KEY = Buffer.alloc(32, 7).toString("base64");

/** The configuration a test runs with: the real parser over a test environment. */
export function testConfig(databaseUrl: string, environment: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: "test",
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: "silent",
    ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    WEBHOOK_SECRET_ENCRYPTION_KEY: TEST_WEBHOOK_SECRET_KEY,
    ...environment,
  });
}

/**
 * The world's gateways, with a test's own implementation of some operations over the configured ones
 * (a test of payments may bring only the payment part).
 */
export function testGateways(config: Config, overrides?: Gateways | WalletGateways): WalletGateways {
  const configured = createGateways(config);
  if (overrides === undefined) {
    return configured;
  }
  return { test: { ...configured.test, ...overrides.test }, live: { ...configured.live, ...overrides.live } };
}

/** The API app with its real routes, plus optional fixture routes that exist only in tests. */
export function testApp(options: {
  database: Database;
  config: Config;
  extraRoutes?: readonly AnyRoute[];
  gateways?: Gateways | WalletGateways;
  logger?: Logger;
}) {
  const metrics = createMetrics({ service: "api" });
  const app = createApp({
    config: options.config,
    logger: options.logger ?? createLogger({ level: "silent", service: "test" }),
    database: options.database,
    metrics,
    routes: [...apiRoutes(testGateways(options.config, options.gateways)), ...(options.extraRoutes ?? [])],
    authenticate: apiKeyAuthenticator(options.database, options.config),
    sessions: sessionAuthenticator(options.database, options.config),
  });
  metricsOfApp.set(app, metrics);
  return app;
}

const metricsOfApp = new WeakMap<object, Metrics>();

/**
 * GET /metrics as the API serves it, on its metrics listener (the public app answers 404 there), with
 * the registry of the test app `app`.
 */
export function scrapeMetrics(app: object) {
  const metrics = metricsOfApp.get(app);
  if (metrics === undefined) {
    throw new Error("not an app made by testApp");
  }
  return request(createMetricsApp(metrics)).get("/metrics");
}

export type TestApp = ReturnType<typeof testApp>;

/**
 * A module test's API and the dependencies its services and tasks take, over its test database, with
 * the given settings and gateways: the one setup every module test shares.
 */
export function apiSetup(
  db: { url: string; database: Database },
  environment: Record<string, string> = {},
  gateways?: Gateways | WalletGateways,
) {
  const config = testConfig(db.url, environment);
  const resolved = testGateways(config, gateways);
  const app = testApp({ database: db.database, config, gateways: resolved });
  const logger = createLogger({ level: "silent", service: "test" });
  return { config, app, dependencies: { config, database: db.database, logger, gateways: resolved, paymentHooks } };
}

/** A POST with a merchant's key and an Idempotency-Key (a fresh one unless the test names it). */
export const apiPost = (
  app: TestApp,
  path: string,
  key: string,
  body: unknown,
  idempotencyKey: string = randomUUID(),
) =>
  request(app)
    .post(path)
    .set("Authorization", `Bearer ${key}`)
    .set("Idempotency-Key", idempotencyKey)
    .send(body as object);

/** A GET with a merchant's key. */
export const apiGet = (app: TestApp, path: string, key: string) =>
  request(app).get(path).set("Authorization", `Bearer ${key}`);

/** Serves an app on a free loopback port: for tests that need real sockets (several instances). */
export async function serve(
  app: Parameters<typeof listen>[0],
): Promise<{ server: Server; baseUrl: string; close: () => Promise<void> }> {
  const server = await listen(app, 0, "127.0.0.1");
  return { server, baseUrl: `http://127.0.0.1:${portOf(server)}`, close: () => closeGracefully(server, 1000) };
}
