import { startGatewaySimulator } from "../gateway/simulator/app.ts";
import { type Config, ConfigError } from "../platform/config.ts";
import { createLogger } from "../platform/telemetry/logger.ts";

/** The simulator deployment: it accepts calls bearing GATEWAY_API_KEY, on GATEWAY_SIM_PORT. */
export async function startGatewaySimulatorService(config: Config): Promise<() => Promise<void>> {
  if (config.gateway.apiKey === undefined) {
    throw new ConfigError("Invalid configuration:\n  GATEWAY_API_KEY: required for this service");
  }
  const logger = createLogger({ level: config.logLevel, service: "gateway-sim" });
  const simulator = await startGatewaySimulator({
    port: config.gateway.simulatorPort,
    host: "0.0.0.0",
    apiKey: config.gateway.apiKey,
    logger,
    payoutSettleMs: config.payoutSettleMs,
  });
  return simulator.stop;
}
