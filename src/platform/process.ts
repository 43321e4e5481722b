import { writeSync } from "node:fs";
import { type Config, ConfigError, loadConfig } from "./config.ts";
import { startTracing } from "./telemetry/tracing.ts";

/**
 * Entry-point scaffolding: parse the configuration (exiting with a message naming the bad variable),
 * start tracing, start the service, and on SIGTERM or SIGINT run its shutdown once, then exit.
 *
 * `start` should import the service's modules dynamically, so tracing is set up before they load.
 */
export async function runMain(service: string, start: (config: Config) => Promise<() => Promise<void>>): Promise<void> {
  // A failed exit says where it came from, written synchronously so that nothing buffered is lost: a
  // pool once exited with code 1 at a database stop (the chaos run) with no log line saying why.
  process.on("exit", (code) => {
    if (code !== 0) {
      writeSync(2, `${service} exiting with code ${code}; ${new Error("exit called").stack ?? ""}\n`);
    }
  });
  let config: Config;
  let shutdown: () => Promise<void>;
  let stopTracing: () => Promise<void>;
  try {
    config = loadConfig();
    stopTracing = await startTracing(config, service);
    shutdown = await start(config);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      return;
    }
    stopping = true;
    process.stderr.write(`${signal} received, shutting down gracefully\n`);
    // A shutdown that hangs (a connection that never answers, a runner that never stops) must not
    // keep a replica that serves nothing: past every timeout the configuration allows, exit anyway.
    const deadlineMs = shutdownDeadlineMs(config);
    setTimeout(() => {
      process.stderr.write(`shutdown did not finish within ${deadlineMs / 1000} s; exiting\n`);
      process.exit(1);
    }, deadlineMs).unref();
    shutdown()
      .then(stopTracing)
      .then(
        () => process.exit(0),
        (error: unknown) => {
          process.stderr.write(`shutdown failed: ${String(error)}\n`);
          process.exit(1);
        },
      );
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
}

/** Beyond the longest graceful shutdown the configuration allows: closing pools, stopping an embedded database. */
const SHUTDOWN_MARGIN_MS = 10_000;

/**
 * How long a graceful shutdown may take before the process gives up on it: the API's drain delay and
 * in-flight requests, or a pool's running jobs, whichever is longer, plus a margin.
 */
export function shutdownDeadlineMs(config: Config): number {
  return (
    Math.max(config.httpDrainDelayMs + config.httpShutdownTimeoutMs, config.worker.shutdownTimeoutMs) +
    SHUTDOWN_MARGIN_MS
  );
}

/**
 * Keeps a worker process alive through a database restart. Inside a library, a connection that fails
 * while PostgreSQL goes down or starts up can raise its error where nobody listens (slonik's first
 * connection, its type probe, has no 'error' listener), which Node turns into an exit; the chaos run
 * saw pools die so. Such an error concerns one dead connection, not the process: it is
 * logged and the process goes on (its pools reconnect). Anything else uncaught still ends the process,
 * as Node's default would.
 */
export function surviveDatabaseConnectionErrors(options: {
  isDatabaseUnavailable: (error: unknown) => boolean;
  log: (error: unknown) => void;
}): void {
  process.on("uncaughtException", (error, origin) => {
    if (options.isDatabaseUnavailable(error)) {
      options.log(error);
      return;
    }
    process.stderr.write(`${origin}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
