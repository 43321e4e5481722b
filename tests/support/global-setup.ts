import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { postgresServer } from "../../src/platform/db/embedded.ts";
import { migrate } from "../../src/platform/db/migrate.ts";
import { createLogger } from "../../src/platform/telemetry/logger.ts";

/**
 * Once per run: the browser apps' build, a PostgreSQL server (DATABASE_URL's, or an embedded one in a temporary directory) and
 * a migrated template database that each test file clones in a few milliseconds.
 */
export default async function globalSetup(): Promise<void> {
  // The browser apps the API serves (web/dist, git-ignored), which the browser tests load. A child
  // process: jest's loader for this file does not link web/build.ts's exports.
  execFileSync(process.execPath, [fileURLToPath(new URL("../../web/build.ts", import.meta.url)), "--quiet"], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  const { serverUrl, stop } = await postgresServer(process.env.DATABASE_URL);
  (globalThis as { stopTestCluster?: () => Promise<void> }).stopTestCluster = stop;
  const runId = `${process.pid}_${Date.now().toString(36)}`;
  const template = `pos_test_tpl_${runId}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${template}"`);
  await admin.end();
  const templateUrl = new URL(serverUrl);
  templateUrl.pathname = `/${template}`;
  await migrate({ databaseUrl: templateUrl.toString(), logger: createLogger({ level: "silent", service: "test" }) });
  process.env.TEST_DATABASE_SERVER_URL = serverUrl;
  process.env.TEST_DATABASE_TEMPLATE = template;
  process.env.TEST_RUN_ID = runId;
}
