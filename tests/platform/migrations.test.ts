import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { migrate, migrationsDirectory } from "../../src/platform/db/migrate.ts";
import { describeSchema } from "../../src/platform/db/schema-description.ts";
import { createLogger } from "../../src/platform/telemetry/logger.ts";
import { createEmptyDatabase } from "../support/database.ts";

const logger = createLogger({ level: "silent", service: "test" });

/** The migrations in the repository, in the order they apply. */
async function migrationNames(): Promise<string[]> {
  return (await readdir(migrationsDirectory))
    .filter((file) => /^\d+_.*\.sql$/.test(file))
    .map((file) => file.replace(/\.sql$/, ""))
    .sort();
}

async function query<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

test("migrations apply to an empty database, and a second run is a no-op", async () => {
  const { url } = await createEmptyDatabase();
  const first = await migrate({ databaseUrl: url, logger });
  const names = await migrationNames();
  expect(names.length).toBeGreaterThanOrEqual(2);
  expect(first.applied).toEqual(names);
  const tables = await query<{ table_name: string }>(
    url,
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
  );
  expect(tables.map((row) => row.table_name)).toEqual(
    expect.arrayContaining([
      "api_keys",
      "dashboard_users",
      "events",
      "idempotency_keys",
      "ledger_postings",
      "ledger_transactions",
      "merchants",
      "pgmigrations",
      "rate_limit_windows",
    ]),
  );
  const workerSchema = await query(
    url,
    "SELECT 1 FROM information_schema.schemata WHERE schema_name = 'graphile_worker'",
  );
  expect(workerSchema).toHaveLength(1);

  const before = await describeSchema(url);
  const second = await migrate({ databaseUrl: url, logger });
  expect(second.applied).toEqual([]);
  expect(await describeSchema(url)).toBe(before);
  const recorded = await query<{ count: number }>(url, "SELECT count(*)::int AS count FROM pgmigrations");
  expect(recorded[0]?.count).toBe(names.length);
});

test("three migrators started at once on an empty database: one applies, the others find nothing to do", async () => {
  const { url } = await createEmptyDatabase();
  const results = await Promise.all([1, 2, 3].map(() => migrate({ databaseUrl: url, logger })));
  const names = await migrationNames();
  const applied = results.map((result) => result.applied.length).sort();
  expect(applied).toEqual([0, 0, names.length]);
  const recorded = await query<{ count: number }>(url, "SELECT count(*)::int AS count FROM pgmigrations");
  expect(recorded[0]?.count).toBe(names.length);
});

test("the committed migrations/schema.sql is what the migrations produce (run `make schema-dump` after a migration)", async () => {
  const { url } = await createEmptyDatabase();
  await migrate({ databaseUrl: url, logger });
  const committed = await readFile(path.join(migrationsDirectory, "schema.sql"), "utf8");
  expect(await describeSchema(url)).toBe(committed);
});
