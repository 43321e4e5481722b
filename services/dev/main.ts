import { runMain } from "../../src/platform/process.ts";

await runMain("dev", async (config) => (await import("../../src/wiring/dev.ts")).startDev(config));
