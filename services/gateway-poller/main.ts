import { runMain } from "../../src/platform/process.ts";

await runMain("gateway-poller", async (config) =>
  (await import("../../src/wiring/pool-service.ts")).startPoolService("gateway-poller", config),
);
