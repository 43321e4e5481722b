import { type GatewaySimulator, startGatewaySimulator } from "../../src/gateway/simulator/app.ts";
import { createLogger } from "../../src/platform/telemetry/logger.ts";

/**
 * The gateway simulator for one describe block's live tests (the network as a separate service):
 * started before its tests and stopped after them. `environment` points a world's app at it;
 * `simulate` drives it as the customer's wallet or a fault would.
 */
export function simulatedGateway(apiKey: string) {
  const logger = createLogger({ level: "silent", service: "test" });
  const gateway = {
    simulator: undefined as unknown as GatewaySimulator,
    environment: () => ({ GATEWAY_URL: gateway.simulator.url, GATEWAY_API_KEY: apiKey }),
    simulate: (path: string, body: unknown = {}) =>
      fetch(`${gateway.simulator.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
  };
  beforeAll(async () => {
    gateway.simulator = await startGatewaySimulator({ port: 0, apiKey, logger });
  });
  afterAll(() => gateway.simulator.stop());
  return gateway;
}
