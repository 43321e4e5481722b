import { fileURLToPath } from "node:url";
import { runMigrations as runWorkerMigrations } from "graphile-worker";
import { runner as runSqlMigrations } from "node-pg-migrate";
import pg from "pg";
import type { Logger } from "pino";
import { workerLogger } from "../queue/worker-logger.ts";

export const migrationsDirectory = fileURLToPath(new URL("../../../migrations", import.meta.url));

/**
 * An arbitrary constant: every process that migrates takes this session-level advisory lock first, so
 * when several replicas start at once one applies the migrations and the others wait, then find
 * nothing left to do.
 */
const MIGRATION_LOCK_KEY = 7_140_215_001;

/**
 * Applies the forward-only SQL migrations in `migrations/` (node-pg-migrate) and then installs or
 * upgrades the graphile-worker schema. Safe to run concurrently and repeatedly.
 */
export async function migrate(options: { databaseUrl: string; logger: Logger }): Promise<{ applied: string[] }> {
  const client = new pg.Client({ connectionString: options.databaseUrl, application_name: "migrate" });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    const applied = await runSqlMigrations({
      dbClient: client,
      dir: migrationsDirectory,
      ignorePattern: "(\\..*)|(schema\\.sql)",
      migrationsTable: "pgmigrations",
      direction: "up",
      checkOrder: true,
      singleTransaction: true,
      // The advisory lock above already serialises migrators.
      noLock: true,
      logger: {
        debug: () => {},
        info: (message: string) => options.logger.debug({ component: "migrate" }, message),
        warn: (message: string) => options.logger.warn({ component: "migrate" }, message),
        error: (message: string) => options.logger.error({ component: "migrate" }, message),
      },
    });
    await runWorkerMigrations({ connectionString: options.databaseUrl, logger: workerLogger(options.logger) });
    return { applied: applied.map((migration) => migration.name) };
  } finally {
    await client.query("SELECT pg_advisory_unlock_all()").catch(() => {});
    await client.end();
  }
}
