import { randomBytes } from "node:crypto";
import pg from "pg";
import { createDatabase, type Database } from "../../src/platform/db/pool.ts";
import { createLogger } from "../../src/platform/telemetry/logger.ts";

function required(name: string): string {
  const value = process.env[name];
  if (value === undefined) {
    throw new Error(`${name} is not set: run the tests through jest's global setup (make test)`);
  }
  return value;
}

export function serverUrl(): string {
  return required("TEST_DATABASE_SERVER_URL");
}

export function urlFor(database: string): string {
  const url = new URL(serverUrl());
  url.pathname = `/${database}`;
  return url.toString();
}

/** A fresh empty database (no migrations), for tests of the migrator itself. */
export async function createEmptyDatabase(): Promise<{ name: string; url: string }> {
  const name = `pos_t_${required("TEST_RUN_ID")}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl() });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  return { name, url: urlFor(name) };
}

export type TestDatabase = { name: string; url: string; database: Database; close: () => Promise<void> };

/** A database cloned from the migrated template, with a slonik pool on it. */
export async function createTestDatabase(options: { poolSize?: number } = {}): Promise<TestDatabase> {
  const name = `pos_t_${required("TEST_RUN_ID")}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl() });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${required("TEST_DATABASE_TEMPLATE")}"`);
  await admin.end();
  const url = urlFor(name);
  const database = await poolOn(url, options.poolSize ?? 10);
  return { name, url, database, close: () => database.end() };
}

/**
 * Another slonik pool on an existing test database, of `poolSize` connections: with one, every
 * statement reuses what the first prepared, as a busy pool's connections do. The caller ends it.
 */
export function poolOn(url: string, poolSize: number): Promise<Database> {
  return createDatabase({
    url,
    poolSize,
    statementTimeoutMs: 30_000,
    logger: createLogger({ level: "silent", service: "test" }),
    applicationName: "test",
  });
}
