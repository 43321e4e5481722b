import { runMain } from "../../src/platform/process.ts";

await runMain("webhook-delivery", async (config) =>
  (await import("../../src/wiring/pool-service.ts")).startPoolService("webhook-delivery", config),
);
