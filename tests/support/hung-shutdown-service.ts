import { runMain } from "../../src/platform/process.ts";

/** A service whose shutdown never finishes (tests/platform/shutdown-deadline.test.ts). */
await runMain("hung-shutdown", async () => {
  const alive = setInterval(() => {}, 60_000);
  process.stdout.write("started\n");
  return () =>
    new Promise<void>(() => {
      // Never settles; `alive` keeps the process from ending on an empty event loop.
      void alive;
    });
});
