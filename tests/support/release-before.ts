import { readdir } from "node:fs/promises";
import { runMigrations as runWorkerMigrations } from "graphile-worker";
import { runner as runSqlMigrations } from "node-pg-migrate";
import pg from "pg";
import { migrationsDirectory } from "../../src/platform/db/migrate.ts";
import { createEmptyDatabase } from "./database.ts";

const silent = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

/**
 * A fresh database with the schema of the release before `migration` (every migration up to it, not
 * it) and graphile-worker's, for a test of that migration's upgrade; `use` gets a connected client
 * (ended afterwards) and the database's URL.
 */
export async function atReleaseBefore<T>(
  migration: string,
  use: (database: { client: pg.Client; url: string }) => Promise<T>,
): Promise<T> {
  const { url } = await createEmptyDatabase();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await runSqlMigrations({
      dbClient: client,
      dir: migrationsDirectory,
      ignorePattern: "(\\..*)|(schema\\.sql)",
      count: (await readdir(migrationsDirectory))
        .filter((file) => /^\d+_.*\.sql$/.test(file))
        .sort()
        .indexOf(`${migration}.sql`),
      migrationsTable: "pgmigrations",
      direction: "up",
      singleTransaction: true,
      noLock: true,
      logger: silent,
    });
    await runWorkerMigrations({ connectionString: url });
    return await use({ client, url });
  } finally {
    await client.end();
  }
}
