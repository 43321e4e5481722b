import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "../../src/platform/db/embedded.ts";

/**
 * `make run`'s process (services/dev/main.ts) on the embedded PostgreSQL: it starts everything, and an
 * interactive Ctrl-C, which the terminal sends to the whole foreground process group, shuts it down
 * cleanly: exit 0, no error logged, the database server stopped last. A second run reuses the data
 * and the demo merchant's keys.
 */
let dataDirectory: string;
beforeAll(async () => {
  dataDirectory = await mkdtemp(path.join(tmpdir(), "pos-dev-"));
  // As root, the server runs as the postgres user, which must reach its data directory inside.
  await chmod(dataDirectory, 0o755);
});
afterAll(() => rm(dataDirectory, { recursive: true, force: true }));

async function runOnce() {
  const [port, simulatorPort, metricsPort] = [await freePort(), await freePort(), await freePort()];
  // A process group of its own, as a shell gives a foreground job.
  const child = spawn(process.execPath, ["services/dev/main.ts"], {
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      GATEWAY_SIM_PORT: String(simulatorPort),
      METRICS_PORT: String(metricsPort),
      DEV_DATA_DIRECTORY: dataDirectory,
      LOG_LEVEL: "warn",
    },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => {
    output += String(chunk);
  });
  child.stderr.on("data", (chunk) => {
    output += String(chunk);
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const deadline = Date.now() + 60_000;
  while (!output.includes("POS platform is running") && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!output.includes("POS platform is running")) {
    child.kill("SIGKILL");
    throw new Error(`make run did not start:\n${output}`);
  }
  const testKey = /Test secret key +(sk_test_\w+)/.exec(output)?.[1];
  const me = await fetch(`http://127.0.0.1:${port}/v1/me`, { headers: { authorization: `Bearer ${testKey}` } });
  const merchant = (await me.json()) as { id: string };
  const metrics = await fetch(`http://127.0.0.1:${metricsPort}/metrics`).then((response) => response.text());
  const publicMetrics = (await fetch(`http://127.0.0.1:${port}/metrics`)).status;
  // Ctrl-C: SIGINT to every process of the group.
  process.kill(-(child.pid ?? 0), "SIGINT");
  const code = await exited;
  return { code, output, status: me.status, merchantId: merchant.id, testKey, metrics, publicMetrics };
}

test("make run starts everything, stops cleanly on Ctrl-C, and a second run reuses data and keys", async () => {
  const first = await runOnce();
  expect(first.status).toBe(200);
  // /metrics is on its own port, never the public one; one exposition for the API and the pools.
  expect(first.metrics).toMatch(/http_request_duration_seconds_count\{[^}]*route="\/v1\/me"/);
  expect(first.metrics).toContain('service="dev"');
  expect(first.metrics).toContain("worker_queue_runnable_jobs");
  expect(first.publicMetrics).toBe(404);
  expect(first.code).toBe(0);
  expect(first.output).toContain("SIGINT received, shutting down gracefully");
  expect(first.output).not.toContain('"level":"error"');
  // The server stopped: pg_ctl removes the pid file once it is down.
  expect(existsSync(path.join(dataDirectory, "postgres", "postmaster.pid"))).toBe(false);

  const second = await runOnce();
  expect(second.status).toBe(200);
  expect(second.code).toBe(0);
  expect(second.testKey).toBe(first.testKey);
  expect(second.merchantId).toBe(first.merchantId);
  expect(second.output).not.toContain('"level":"error"');
}, 300_000);
