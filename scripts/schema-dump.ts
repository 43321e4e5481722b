import { randomBytes } from "node:crypto";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { loadConfig } from "../src/platform/config.ts";
import { postgresServer } from "../src/platform/db/embedded.ts";
import { migrate, migrationsDirectory } from "../src/platform/db/migrate.ts";
import { describeSchema } from "../src/platform/db/schema-description.ts";
import { createLogger } from "../src/platform/telemetry/logger.ts";

/**
 * Regenerates migrations/schema.sql from a freshly migrated throwaway database, on DATABASE_URL's
 * server or on an embedded one when DATABASE_URL is unset. The test suite fails while it is stale
 * (tests/platform/migrations.test.ts).
 */
const schemaFile = path.join(migrationsDirectory, "schema.sql");
const config = loadConfig();
const { serverUrl, stop: cleanup } = await postgresServer(config.databaseUrl);
const name = `pos_schema_${randomBytes(4).toString("hex")}`;
const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
try {
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  await migrate({ databaseUrl: url.toString(), logger: createLogger({ level: "warn", service: "schema-dump" }) });
  await writeFile(schemaFile, await describeSchema(url.toString()));
  process.stdout.write(`wrote ${schemaFile}\n`);
} finally {
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.end();
  await cleanup();
}
