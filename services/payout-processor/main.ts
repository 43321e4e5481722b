import { runMain } from "../../src/platform/process.ts";
import { startPoolService } from "../../src/wiring/pool-service.ts";

await runMain((config) => startPoolService("payout-processor", config));
