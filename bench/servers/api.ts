import { loadConfig, requireDatabaseUrl } from "../../src/platform/config.ts";
import { createConfiguredDatabase } from "../../src/platform/db/pool.ts";
import { listen, portOf } from "../../src/platform/http/server.ts";
import { createLogger } from "../../src/platform/telemetry/logger.ts";
import { buildApiApp } from "../../src/wiring/api.ts";

/** The real API application, with its real configuration, on a free loopback port. */
const config = loadConfig();
const logger = createLogger({ level: config.logLevel, service: "api" });
const database = await createConfiguredDatabase(config, {
  url: requireDatabaseUrl(config),
  logger,
  applicationName: "bench-api",
});
const server = await listen(buildApiApp({ config, logger, database }), 0, "127.0.0.1");
process.stdout.write(`listening ${portOf(server)}\n`);
process.on("SIGTERM", () => {
  server.close();
  void database.end().then(() => process.exit(0));
});
