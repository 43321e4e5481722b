import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { startGatewaySimulator } from "../gateway/simulator/app.ts";
import type { Config } from "../platform/config.ts";
import { startEmbeddedPostgres } from "../platform/db/embedded.ts";
import { migrate } from "../platform/db/migrate.ts";
import { createConfiguredDatabase } from "../platform/db/pool.ts";
import { portOf } from "../platform/http/server.ts";
import { poolNames } from "../platform/queue/task.ts";
import { createLogger } from "../platform/telemetry/logger.ts";
import { createMetrics } from "../platform/telemetry/metrics.ts";
import { startApi } from "./api.ts";
import { provisionDemoMerchant } from "./demo-merchant.ts";
import { startPools } from "./worker-pools.ts";

/**
 * `make run`: everything in one process for a developer's machine. PostgreSQL from DATABASE_URL, or
 * an embedded one under DEV_DATA_DIRECTORY (.data/); migrations; the API and all four worker pools; a
 * demo merchant.
 */
const DEV_DATABASE = "pos_dev";

async function ensureDatabase(serverUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const exists = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (exists.rowCount === 0) {
      await client.query(`CREATE DATABASE "${name}"`);
    }
  } finally {
    await client.end();
  }
}

/** A webhook-secret encryption key kept under .data/, so endpoints made in one run still sign in the next. */
async function devSecretKey(file: string): Promise<Buffer> {
  if (existsSync(file)) {
    return Buffer.from(await readFile(file, "utf8"), "base64");
  }
  const key = randomBytes(32);
  await writeFile(file, key.toString("base64"), { mode: 0o600 });
  return key;
}

export async function startDev(environmentConfig: Config): Promise<() => Promise<void>> {
  const dataDirectory = path.resolve(environmentConfig.devDataDirectory);
  await mkdir(dataDirectory, { recursive: true });
  const logger = createLogger({ level: environmentConfig.logLevel, service: "dev" });
  const { databaseUrl, stopCluster, clusterDataDirectory } = await devDatabase(environmentConfig, dataDirectory);
  await migrate({ databaseUrl, logger });
  const database = await createConfiguredDatabase(environmentConfig, {
    url: databaseUrl,
    logger,
    applicationName: "dev",
  });
  const demo = await provisionDemoMerchant(database, {
    stateFile: path.join(dataDirectory, "dev-state.json"),
    adminToken: environmentConfig.adminToken,
  });
  // Live payments go to the gateway simulator unless a real gateway is configured.
  const simulatorApiKey = environmentConfig.gateway.apiKey ?? `gwsim_${randomBytes(12).toString("hex")}`;
  const simulator =
    environmentConfig.gateway.url === undefined
      ? await startGatewaySimulator({
          port: environmentConfig.gateway.simulatorPort,
          apiKey: simulatorApiKey,
          logger,
          payoutSettleMs: environmentConfig.payoutSettleMs,
        })
      : undefined;
  const config = {
    ...environmentConfig,
    databaseUrl,
    adminToken: demo.adminToken,
    gateway:
      simulator === undefined
        ? environmentConfig.gateway
        : { ...environmentConfig.gateway, url: simulator.url, apiKey: simulatorApiKey },
    webhook: {
      ...environmentConfig.webhook,
      secretKey:
        environmentConfig.webhook.secretKey ?? (await devSecretKey(path.join(dataDirectory, "webhook-secret-key"))),
    },
  };
  const metrics = createMetrics({ service: "dev" });
  const api = await startApi({ config, logger, database, metrics });
  const pools = startPools({
    pools: poolNames,
    config,
    databaseUrl,
    database,
    logger,
    metrics,
    onFatal: (reason, error) => logger.error({ err: error }, `${reason}; restart make run`),
  });
  await pools.started;

  printWelcome({
    config,
    metricsPort: portOf(api.metricsServer),
    simulatorUrl: simulator?.url,
    clusterDataDirectory,
    demo,
  });
  return async () => {
    await api.stop();
    await pools.stop();
    await simulator?.stop();
    await database.end();
    await stopCluster();
  };
}

/** The database `make run` uses: DATABASE_URL when set, else an embedded PostgreSQL under the data directory. */
async function devDatabase(
  environmentConfig: Config,
  dataDirectory: string,
): Promise<{ databaseUrl: string; stopCluster: () => Promise<void>; clusterDataDirectory: string | undefined }> {
  if (environmentConfig.databaseUrl !== undefined) {
    return { databaseUrl: environmentConfig.databaseUrl, stopCluster: async () => {}, clusterDataDirectory: undefined };
  }
  const cluster = await startEmbeddedPostgres({ dataDirectory: path.join(dataDirectory, "postgres") });
  await ensureDatabase(cluster.url("postgres"), DEV_DATABASE);
  return {
    databaseUrl: cluster.url(DEV_DATABASE),
    stopCluster: cluster.stop,
    clusterDataDirectory: cluster.dataDirectory,
  };
}

/** What `make run` prints once everything is up: where each part is and how to sign in. */
function printWelcome(options: {
  config: Config;
  metricsPort: number | undefined;
  simulatorUrl: string | undefined;
  clusterDataDirectory: string | undefined;
  demo: Awaited<ReturnType<typeof provisionDemoMerchant>>;
}): void {
  const { config, simulatorUrl, clusterDataDirectory, demo } = options;
  process.stdout.write(
    [
      "",
      "POS platform is running (Ctrl-C to stop)",
      `  Base URL         ${config.publicBaseUrl}`,
      `  OpenAPI          ${config.publicBaseUrl}/v1/openapi.json`,
      `  Metrics          http://localhost:${options.metricsPort}/metrics  (not on the public port)`,
      `  Gateway          ${simulatorUrl === undefined ? config.gateway.url : `simulator at ${simulatorUrl} (pay a live code: POST ${simulatorUrl}/sim/payment-codes/<code>/pay; claim a cash-out code: POST ${simulatorUrl}/sim/withdrawal-codes/<code>/claim)`}`,
      `  Database         ${clusterDataDirectory === undefined ? "DATABASE_URL" : `embedded PostgreSQL, data in ${clusterDataDirectory}`}`,
      `  Admin token      ${demo.adminToken}`,
      `  Demo merchant    Demo Shop (${demo.merchantId})`,
      `  Test secret key  ${demo.testSecretKey}`,
      `  Live secret key  ${demo.liveSecretKey}`,
      `  Dashboard        ${config.publicBaseUrl}/dashboard  (sign in: ${demo.email} / ${demo.password})`,
      `  Till             ${config.publicBaseUrl}/till  (same sign-in; a USB barcode scanner works as a keyboard)`,
      `  Try it           curl -H "Authorization: Bearer ${demo.testSecretKey}" ${config.publicBaseUrl}/v1/me`,
      "",
    ].join("\n"),
  );
}
