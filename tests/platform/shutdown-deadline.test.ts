import { startServiceProcess } from "../support/service-process.ts";

test("a shutdown that never finishes ends the process past the configured timeouts plus the margin, with exit code 1", async () => {
  const service = startServiceProcess("tests/support/hung-shutdown-service.ts", {
    HTTP_SHUTDOWN_TIMEOUT_SECONDS: "1",
    HTTP_DRAIN_DELAY_SECONDS: "0",
    WORKER_SHUTDOWN_TIMEOUT_SECONDS: "2",
  });
  try {
    await service.waitForOutput("started", 60_000);
    expect(service.output()).toContain("started");
    const signalledAt = Date.now();
    // Generous: the process gives up after 2 s + 10 s; a loaded machine may take longer to run the timer.
    const code = await Promise.race([
      service.stop(),
      new Promise<"still running">((resolve) => setTimeout(() => resolve("still running"), 120_000).unref()),
    ]);
    expect(code).toBe(1);
    expect(Date.now() - signalledAt).toBeGreaterThanOrEqual(12_000);
    expect(service.errorOutput()).toContain("shutdown did not finish within 12 s; exiting");
  } finally {
    await service.kill();
  }
}, 180_000);
