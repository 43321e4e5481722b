import pino, { type Logger } from "pino";
import { traceIdsForLog } from "./trace-context.ts";

export type { Logger };

/**
 * Structured JSON logs. Paths that could carry secrets are censored whatever the call site logs:
 * API keys, the admin token, cookies, passwords and webhook secrets.
 */
export function createLogger(
  options: { level: string; service: string },
  destination?: pino.DestinationStream,
): Logger {
  return pino(
    {
      level: options.level,
      base: { service: options.service },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      // Every line logged inside a traced request or job names its trace.
      mixin: traceIdsForLog,
      redact: {
        paths: [
          "req.headers.authorization",
          "req.headers.cookie",
          'res.headers["set-cookie"]',
          "*.password",
          "*.secret",
          "*.secret_key",
          "*.test_secret_key",
          "*.live_secret_key",
          "*.adminToken",
        ],
        censor: "[redacted]",
      },
    },
    destination,
  );
}
