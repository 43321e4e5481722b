import { type Config, ConfigError, loadConfig } from "./config.ts";
import { startTracing } from "./telemetry/tracing.ts";

/**
 * Entry-point scaffolding: parse the configuration (exiting with a message naming the bad variable),
 * start tracing, start the service, and on SIGTERM or SIGINT run its shutdown once, then exit.
 *
 * `start` should import the service's modules dynamically, so tracing is set up before they load.
 */
export async function runMain(service: string, start: (config: Config) => Promise<() => Promise<void>>): Promise<void> {
  let shutdown: () => Promise<void>;
  let stopTracing: () => Promise<void>;
  try {
    const config = loadConfig();
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
