import pg from "pg";
import type { Logger } from "../telemetry/logger.ts";

/**
 * The pg pool graphile-worker runs on (it needs node-postgres, and session-level LISTEN). Errors of
 * idle clients are logged rather than crashing the process. Once the pool is ending they are not
 * faults: `end()` resolves before its connections have closed, and a server stopped right after
 * (`make run`'s embedded PostgreSQL on Ctrl-C) terminates those still closing.
 *
 * A client checked out with a callback (graphile-worker's LISTEN client) may be released twice: once
 * by its error handler and once by the worker pool's shutdown, when the database goes away while the
 * runner stops (graphile-worker 0.18.0, `listenForChanges`). pg-pool throws on the second release,
 * inside an async function nobody awaits, and the unhandled rejection ended a pool process in the
 * chaos run. Here such a release is idempotent: the second one is logged and ignored.
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
  const connect = pool.connect.bind(pool) as (callback?: ConnectCallback) => Promise<pg.PoolClient> | undefined;
  pool.connect = ((callback?: ConnectCallback) => {
    if (callback === undefined) {
      return connect();
    }
    return connect((error, client, release) => {
      let released = false;
      callback(error, client, (releaseError?: Error | boolean) => {
        if (released) {
          options.logger.warn("a worker pg client was released twice; the second release is ignored");
          return;
        }
        released = true;
        release(releaseError);
      });
    });
  }) as typeof pool.connect;
  return pool;
}

type ConnectCallback = (
  error: Error | undefined,
  client: pg.PoolClient | undefined,
  release: (releaseError?: Error | boolean) => void,
) => void;
