import { runMain } from "../../src/platform/process.ts";

await runMain("code-expiry", async (config) =>
  (await import("../../src/wiring/pool-service.ts")).startPoolService("code-expiry", config),
);
