import pg from "pg";
import type { Logger } from "../telemetry/logger.ts";

/**
 * The pg pool graphile-worker runs on (it needs node-postgres, and session-level LISTEN). Errors of
 * idle clients are logged rather than crashing the process.
 */
export function createWorkerPgPool(options: {
  url: string;
  size: number;
  applicationName: string;
  logger: Logger;
}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.size,
    application_name: options.applicationName,
  });
  pool.on("error", (error) => options.logger.error({ err: error }, "worker pg pool error"));
  pool.on("connect", (client) => {
    client.on("error", (error) => options.logger.error({ err: error }, "worker pg client error"));
  });
  return pool;
}
