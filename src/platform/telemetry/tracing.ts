import { register } from "node:module";
import type { Config } from "../config.ts";

/**
 * OpenTelemetry tracing, off unless `OTEL_SDK_DISABLED=false`. Exporters, endpoints and sampling come
 * from the standard `OTEL_*` variables, which the SDK reads itself. Instrumentation patches modules
 * as they load, so this must run before express, pg or http are imported: entry points call it
 * through `runMain` and import everything else afterwards.
 */
export async function startTracing(config: Config, serviceName: string): Promise<() => Promise<void>> {
  if (config.telemetry.sdkDisabled) {
    return async () => {};
  }
  // Under ESM, module patching needs the import-in-the-middle loader hook.
  register("@opentelemetry/instrumentation/hook.mjs", import.meta.url);
  const [{ NodeSDK }, { getNodeAutoInstrumentations }] = await Promise.all([
    import("@opentelemetry/sdk-node"),
    import("@opentelemetry/auto-instrumentations-node"),
  ]);
  const sdk = new NodeSDK({
    serviceName: config.telemetry.serviceName ?? serviceName,
    instrumentations: [
      getNodeAutoInstrumentations({
        "@opentelemetry/instrumentation-fs": { enabled: false },
        // Log lines get their trace ids from the logger's own mixin (telemetry/logger.ts).
        "@opentelemetry/instrumentation-pino": { enabled: false },
      }),
    ],
  });
  sdk.start();
  return () => sdk.shutdown();
}
