import { Logger as WorkerLogger } from "graphile-worker";
import type { Logger } from "pino";

/** graphile-worker's log lines routed to pino, so they are structured JSON like every other line. */
export function workerLogger(logger: Logger): WorkerLogger {
  return new WorkerLogger(() => (level, message, meta) => {
    const method = level === "error" ? "error" : level === "warning" ? "warn" : "debug";
    logger[method]({ component: "graphile-worker", ...meta }, message);
  });
}
