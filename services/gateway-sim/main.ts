import { runMain } from "../../src/platform/process.ts";

/** The gateway simulator as its own deployment (dev, staging): see docs/gateway-protocol.md. */
await runMain("gateway-sim", async (config) =>
  (await import("../../src/wiring/gateway-sim.ts")).startGatewaySimulatorService(config),
);
