import { type Config, requireDatabaseUrl } from "../platform/config.ts";
import { migrate } from "../platform/db/migrate.ts";
import { createLogger } from "../platform/telemetry/logger.ts";

/** The migration job: applies what is pending and reports it; nothing stays running. */
export async function migrateOnce(config: Config): Promise<() => Promise<void>> {
  const logger = createLogger({ level: config.logLevel, service: "migrate" });
  const { applied } = await migrate({ databaseUrl: requireDatabaseUrl(config), logger });
  logger.info({ applied }, applied.length === 0 ? "database already up to date" : "migrations applied");
  return async () => {};
}
