import { runMain } from "../../src/platform/process.ts";

await runMain("api", async (config) => (await import("../../src/wiring/api.ts")).startApiService(config));
