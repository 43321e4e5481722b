import type { Server } from "node:http";
import { runScenario, violations } from "../../load-tests/runner.ts";
import { scenarios } from "../../load-tests/scenarios.ts";
import { freePort } from "../../src/platform/db/embedded.ts";
import { closeGracefully, listen } from "../../src/platform/http/server.ts";
import { testApp, testConfig } from "../support/app.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { newMerchant } from "../support/factories.ts";

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
