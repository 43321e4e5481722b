import { loadConfig } from "../../src/platform/config.ts";
import { type PoolName, poolNames } from "../../src/platform/queue/task.ts";
import { startPoolService } from "../../src/wiring/pool-service.ts";

/** One worker pool as its deployment runs it (`startPoolService`), named by BENCH_POOL. */
const pool = poolNames.find((name) => name === process.env.BENCH_POOL);
if (pool === undefined) {
  throw new RangeError(`BENCH_POOL must be one of ${poolNames.join(", ")}`);
}
const stop = await startPoolService(pool satisfies PoolName, loadConfig());
process.stdout.write("listening 0\n");
process.on("SIGTERM", () => {
  void stop().then(() => process.exit(0));
});
