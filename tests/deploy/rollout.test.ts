import { freePort } from "../../src/platform/db/embedded.ts";
import { TEST_WEBHOOK_SECRET_KEY } from "../support/app.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { newMerchant } from "../support/factories.ts";
import { type ReadinessProxy, startReadinessProxy } from "../support/readiness-proxy.ts";
import { startServiceProcess } from "../support/service-process.ts";
import { waitUntil } from "../support/time.ts";

/**
 * A rolling restart under steady load: two API processes behind a load balancer that routes by
 * /readyz only (no retries), each replaced in turn (SIGTERM, then a new process). Draining — readiness
 * off while still serving, then closing and finishing in-flight requests — must lose no request.
 */

let db: TestDatabase;
let proxy: ReadinessProxy;
beforeAll(async () => {
  db = await createTestDatabase();
  proxy = await startReadinessProxy(100);
});
afterAll(async () => {
  await proxy.close();
  await db.close();
});

async function startApi() {
  const port = await freePort();
  const process = startServiceProcess("services/api/main.ts", {
    DATABASE_URL: db.url,
    WEBHOOK_SECRET_ENCRYPTION_KEY: TEST_WEBHOOK_SECRET_KEY,
    PORT: String(port),
    // Two instances run at once: each metrics listener on a port the system picks.
    METRICS_PORT: "0",
    LOG_LEVEL: "info",
    // Fifty poll intervals of the proxy: it sees /readyz fail well before the server stops accepting,
    // even when a loaded machine makes its polls slow.
    HTTP_DRAIN_DELAY_SECONDS: "5",
    RATE_LIMIT_REQUESTS: "10000",
    RATE_LIMIT_WINDOW_SECONDS: "1",
  });
  await process.waitForOutput("api listening");
  const url = `http://127.0.0.1:${port}`;
  proxy.add(url);
  await proxy.waitUntilRouted(url);
  return { url, process };
}

test("restarting each of two API instances under load fails no request", async () => {
  const merchant = await newMerchant(db.database);
  const instances = [await startApi(), await startApi()];
  const started = [...instances];

  const failures: string[] = [];
  let succeeded = 0;
  let loading = true;
  const client = async () => {
    while (loading) {
      try {
        const response = await fetch(`${proxy.baseUrl}/v1/me`, {
          headers: { authorization: `Bearer ${merchant.testKey}` },
        });
        const body = await response.text();
        if (response.status === 200 && (JSON.parse(body) as { id?: string }).id === merchant.id) {
          succeeded += 1;
        } else {
          failures.push(`${response.status} ${body.slice(0, 200)}`);
        }
      } catch (error) {
        failures.push(String(error));
      }
    }
  };
  const clients = Array.from({ length: 4 }, client);

  // Who has answered some of the load: a condition to wait for, not a pause that guesses its speed.
  const serving = (instance: { url: string } | undefined) => (proxy.served()[instance?.url ?? ""] ?? 0) > 0;
  try {
    await waitUntil("both instances serve the load", () => instances.every(serving), { timeoutMs: 180_000 });
    for (let index = 0; index < instances.length; index += 1) {
      const old = instances[index];
      if (old === undefined) {
        continue;
      }
      expect(await old.process.stop()).toBe(0);
      proxy.remove(old.url);
      const replacement = await startApi();
      instances[index] = replacement;
      started.push(replacement);
    }
    const loadDone = () => serving(instances.at(-1)) && succeeded > 100;
    await waitUntil("the last replacement serves, 100 requests done", loadDone, { timeoutMs: 180_000 });
  } finally {
    loading = false;
    await Promise.all(clients);
    for (const instance of instances) {
      await instance?.process.stop();
    }
  }

  expect(failures).toEqual([]);
  expect(succeeded).toBeGreaterThan(100);
  // Every instance, old and new, took part: traffic moved over rather than stayed on one survivor.
  const served = proxy.served();
  expect(started.map((instance) => (served[instance.url] ?? 0) > 0)).toEqual([true, true, true, true]);
}, 900_000);
