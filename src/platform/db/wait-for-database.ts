import pg from "pg";
import type { Logger } from "../telemetry/logger.ts";
import { isDatabaseUnavailable } from "./unavailable.ts";

/**
 * Runs `connect` (creating a process's database pool) once PostgreSQL accepts connections: while it
 * is down or starting up, waits with backoff and tries again, so that a process started during an
 * outage or a restart never exits of it. Each attempt is bounded by `attemptTimeoutMs`: a pool's own
 * first connection can hang when the server goes away under it (slonik's type probe has no error
 * listener), and the next attempt starts afresh. Errors other than unavailability are thrown.
 */
export async function whenDatabaseAvailable<T>(options: {
  url: string;
  logger: Logger;
  connect: () => Promise<T>;
  retryDelayMs?: { initial: number; max: number };
  attemptTimeoutMs?: number;
}): Promise<T> {
  const retryDelayMs = options.retryDelayMs ?? { initial: 500, max: 5000 };
  const attemptTimeoutMs = options.attemptTimeoutMs ?? 20_000;
  let delayMs = retryDelayMs.initial;
  for (;;) {
    try {
      await probe(options.url, attemptTimeoutMs);
      return await withTimeout(options.connect(), attemptTimeoutMs);
    } catch (error) {
      if (!isDatabaseUnavailable(error) && !(error instanceof AttemptTimeoutError)) {
        throw error;
      }
      options.logger.warn({ err: error, retryInMs: delayMs }, "database unavailable; waiting for it");
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      delayMs = Math.min(delayMs * 2, retryDelayMs.max);
    }
  }
}

class AttemptTimeoutError extends Error {
  override name = "AttemptTimeoutError";
}

/** One connection and `SELECT 1`, with an error listener so that a dying connection cannot crash us. */
async function probe(url: string, timeoutMs: number): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.query("SELECT 1");
  } finally {
    await client.end().catch(() => {});
  }
}

async function withTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new AttemptTimeoutError(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
