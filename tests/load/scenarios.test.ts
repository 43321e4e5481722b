import type { Server } from "node:http";
import { z } from "zod";
import { runScenario, violations } from "../../load-tests/runner.ts";
import { scenarios } from "../../load-tests/scenarios.ts";
import { freePort } from "../../src/platform/db/embedded.ts";
import { sql } from "../../src/platform/db/pool.ts";
import { closeGracefully, listen } from "../../src/platform/http/server.ts";
import { createLogger } from "../../src/platform/telemetry/logger.ts";
import { testApp, testConfig } from "../support/app.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { newMerchant } from "../support/factories.ts";
import { startDeliveryPump } from "../support/pumps.ts";

/**
 * The load scenarios, briefly, against the real API on a loopback port with the real limit (60 per
 * 10 s per merchant): a smoke check of the runner and of the rate limit's behaviour under load.
 */
let db: TestDatabase;
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  db = await createTestDatabase();
  const port = await freePort();
  server = await listen(testApp({ database: db.database, config: testConfig(db.url) }), port, "127.0.0.1");
  baseUrl = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await closeGracefully(server, 1000);
  await db.close();
});

const scenario = (name: string) => {
  const found = scenarios[name];
  if (found === undefined) {
    throw new Error(`no scenario ${name}`);
  }
  return found;
};

test("one merchant within the limit (5/s) is never refused", async () => {
  const shop = await newMerchant(db.database);
  const summary = await runScenario("rate-limit-within", scenario("rate-limit-within"), {
    baseUrl,
    keys: [shop.testKey],
    durationSeconds: 4,
  });
  expect(summary.statuses).toEqual({ "200": 20 });
  expect(violations(scenario("rate-limit-within"), summary)).toEqual([]);
});

test("one merchant over the limit (12/s): about half refused with Retry-After, never more than 60 accepted per 10 s", async () => {
  const shop = await newMerchant(db.database);
  const summary = await runScenario("rate-limit-over", scenario("rate-limit-over"), {
    baseUrl,
    keys: [shop.testKey],
    durationSeconds: 12,
  });
  expect(summary.maxAcceptedPerWindow).toBeLessThanOrEqual(60);
  expect(summary.refusedWithoutRetryAfter).toBe(0);
  expect(summary.statuses["429"]).toBeGreaterThan(0);
  expect(violations(scenario("rate-limit-over"), summary)).toEqual([]);
});

test("many merchants creating payments: none refused, no errors", async () => {
  const shops = await Promise.all(Array.from({ length: 10 }, () => newMerchant(db.database)));
  const summary = await runScenario("payments-throughput", scenario("payments-throughput"), {
    baseUrl,
    keys: shops.map((shop) => shop.testKey),
    durationSeconds: 2,
  });
  expect(summary.requests).toBe(200);
  expect(summary.statuses["201"]).toBe(200);
  expect(violations(scenario("payments-throughput"), summary)).toEqual([]);
});

test("many merchants ringing up cash sales: none refused, no errors, every line journaled once", async () => {
  const shops = await Promise.all(Array.from({ length: 10 }, () => newMerchant(db.database)));
  const summary = await runScenario("cash-sales-throughput", scenario("cash-sales-throughput"), {
    baseUrl,
    keys: shops.map((shop) => shop.testKey),
    durationSeconds: 2,
  });
  expect(summary.requests).toBe(200);
  expect(summary.statuses["201"]).toBe(200);
  expect(violations(scenario("cash-sales-throughput"), summary)).toEqual([]);
  // Test keys: every sale is journaled (three lines each) and real inventory is untouched.
  const moves = await db.database.oneFirst(
    sql.type(z.object({ count: z.number() }))`
      SELECT count(*)::int AS count FROM stock_moves WHERE kind = 'sale' AND NOT livemode
        AND merchant_id = ANY(${sql.array(
          shops.map((shop) => shop.id),
          "text",
        )})`,
  );
  expect(moves).toBe(600);
});

test("webhook storm: every settled payment's payment.paid arrives once, signed, through the delivery pool", async () => {
  const config = testConfig(db.url, { WORKER_POLL_INTERVAL_MS: "100", WORKER_CONCURRENCY: "10" });
  const logger = createLogger({ level: "silent", service: "test" });
  const pump = startDeliveryPump({ config, database: db.database, databaseUrl: db.url, logger });
  try {
    const shops = await Promise.all(Array.from({ length: 5 }, () => newMerchant(db.database)));
    const summary = await runScenario("webhook-storm", scenario("webhook-storm"), {
      baseUrl,
      keys: shops.map((shop) => shop.testKey),
      durationSeconds: 2,
    });
    expect(summary.requests).toBe(100);
    expect(summary.statuses["200"]).toBe(100);
    expect(summary.webhooks).toMatchObject({ expected: 100, delivered: 100, duplicates: 0, unverified: 0 });
    // Delivery latency is the machine's, not the code's: the load run (npm run load) holds it to its
    // bound; here every other expectation of the scenario must hold.
    const { maxDeliveryP99Ms: _latencyBound, ...machineIndependent } = scenario("webhook-storm").expect;
    expect(violations({ ...scenario("webhook-storm"), expect: machineIndependent }, summary)).toEqual([]);
    // The run's endpoints were deactivated afterwards.
    const active = await db.database.oneFirst(
      sql.type(z.object({ count: z.number() }))`SELECT count(*)::int AS count FROM webhook_endpoints WHERE active`,
    );
    expect(active).toBe(0);
  } finally {
    await pump.stop();
  }
});
