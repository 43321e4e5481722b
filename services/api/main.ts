import { requireDatabaseUrl } from "../../src/platform/config.ts";
import { createDatabase } from "../../src/platform/db/pool.ts";
import { runMain } from "../../src/platform/process.ts";
import { createLogger } from "../../src/platform/telemetry/logger.ts";
import { startApi } from "../../src/wiring/api.ts";

await runMain(async (config) => {
  const logger = createLogger({ level: config.logLevel, service: "api" });
  const database = await createDatabase({
    url: requireDatabaseUrl(config),
    poolSize: config.databasePoolSize,
    statementTimeoutMs: config.databaseStatementTimeoutMs,
    logger,
    applicationName: "api",
  });
  const api = await startApi({ config, logger, database });
  return async () => {
    await api.stop();
    await database.end();
  };
});
