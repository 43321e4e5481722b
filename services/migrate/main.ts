import { requireDatabaseUrl } from "../../src/platform/config.ts";
import { migrate } from "../../src/platform/db/migrate.ts";
import { runMain } from "../../src/platform/process.ts";
import { createLogger } from "../../src/platform/telemetry/logger.ts";

/** Applies migrations and the graphile-worker schema, then exits. Safe to run from several pods. */
await runMain(async (config) => {
  const logger = createLogger({ level: config.logLevel, service: "migrate" });
  const { applied } = await migrate({ databaseUrl: requireDatabaseUrl(config), logger });
  logger.info({ applied }, applied.length === 0 ? "database already up to date" : "migrations applied");
  return async () => {};
});
