import pg from "pg";
import type { Logger } from "../telemetry/logger.ts";

/**
 * The pg pool graphile-worker runs on (it needs node-postgres, and session-level LISTEN). Errors of
 * idle clients are logged rather than crashing the process. Once the pool is ending they are not
 * faults: `end()` resolves before its connections have closed, and a server stopped right after
 * (`make run`'s embedded PostgreSQL on Ctrl-C) terminates those still closing.
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
  const report = (message: string) => (error: Error) => {
    if (pool.ending) {
      options.logger.debug({ err: error }, `${message} while the pool was ending`);
    } else {
      options.logger.error({ err: error }, message);
    }
  };
  pool.on("error", report("worker pg pool error"));
  pool.on("connect", (client) => {
    client.on("error", report("worker pg client error"));
  });
  return pool;
}
