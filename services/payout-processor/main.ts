import { runMain } from "../../src/platform/process.ts";

await runMain("payout-processor", async (config) =>
  (await import("../../src/wiring/pool-service.ts")).startPoolService("payout-processor", config),
);
