import { z } from "zod";
import { sql } from "../../src/platform/db/pool.ts";
import { serve, testApp, testConfig } from "../support/app.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { newMerchant } from "../support/factories.ts";

/**
 * The limit is exercised through two API instances on one database: LIMIT requests per WINDOW_MS. The
 * window is long, so no request ages out while a test runs, however slow the machine; a test that
 * needs time to pass moves the merchant's log of accepted requests into the past instead.
 */
const LIMIT = 10;
const WINDOW_MS = 60_000;

let db: TestDatabase;
let instances: Awaited<ReturnType<typeof serve>>[];

beforeAll(async () => {
  db = await createTestDatabase();
  const config = testConfig(db.url, {
    RATE_LIMIT_REQUESTS: String(LIMIT),
    RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_MS / 1000),
  });
  instances = await Promise.all([1, 2].map(() => serve(testApp({ database: db.database, config }))));
});
afterAll(async () => {
  await Promise.all(instances.map((instance) => instance.close()));
  await db.close();
});

/** As if `ms` had gone by for the limiter: the merchant's accepted requests moved that far into the past. */
async function age(merchantId: string, ms: number) {
  await db.database.query(sql.unsafe`
    UPDATE rate_limit_windows
    SET accepted_at = ARRAY(SELECT t - ${ms} * interval '1 millisecond' FROM unnest(accepted_at) AS t)
    WHERE merchant_id = ${merchantId}`);
}

/** Sends `count` concurrent GET /v1/me, alternating between the two instances. */
async function burst(key: string, count: number) {
  return Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const instance = instances[index % instances.length];
      const response = await fetch(`${instance?.baseUrl}/v1/me`, { headers: { Authorization: `Bearer ${key}` } });
      return { status: response.status, headers: response.headers, body: await response.json() };
    }),
  );
}

const accepted = (responses: { status: number }[]) => responses.filter((response) => response.status === 200).length;

test("exactly the limit is accepted across two instances; the rest are 429 with Retry-After and RateLimit headers", async () => {
  const shop = await newMerchant(db.database);
  const responses = await burst(shop.testKey, 4 * LIMIT);
  expect(accepted(responses)).toBe(LIMIT);
  const refused = responses.filter((response) => response.status === 429);
  expect(refused).toHaveLength(3 * LIMIT);
  for (const response of refused) {
    expect(response.body).toEqual({
      error: { type: "rate_limited", code: "rate_limited", message: expect.any(String) },
    });
    const retryAfter = Number(response.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_MS / 1000);
    expect(response.headers.get("ratelimit-remaining")).toBe("0");
    expect(response.headers.get("ratelimit-limit")).toBe(String(LIMIT));
  }
  const remaining = responses
    .filter((response) => response.status === 200)
    .map((response) => Number(response.headers.get("ratelimit-remaining")))
    .sort((a, b) => a - b);
  expect(remaining).toEqual(Array.from({ length: LIMIT }, (_, index) => index));
});

test("the window slides: slots free up one by one as their requests age out, never as a block", async () => {
  const shop = await newMerchant(db.database);
  const half = LIMIT / 2;
  expect(accepted(await burst(shop.testKey, half))).toBe(half);
  await age(shop.id, 0.6 * WINDOW_MS);
  expect(accepted(await burst(shop.testKey, half))).toBe(half);
  // Full: nothing more until the first half ages out.
  expect(accepted(await burst(shop.testKey, 2))).toBe(0);
  await age(shop.id, 0.55 * WINDOW_MS);
  // The first half has left the window, the second half has not: exactly half the slots are free.
  // A fixed window would free all of them at its boundary (or none).
  expect(accepted(await burst(shop.testKey, LIMIT))).toBe(half);
});

test("the log keeps only the window's requests: its size follows the traffic, not the limit", async () => {
  const shop = await newMerchant(db.database);
  const logSize = () =>
    db.database.oneFirst(sql.type(z.object({ size: z.number() }))`
      SELECT cardinality(accepted_at) AS size FROM rate_limit_windows WHERE merchant_id = ${shop.id}`);
  expect(accepted(await burst(shop.testKey, LIMIT - 2))).toBe(LIMIT - 2);
  expect(await logSize()).toBe(LIMIT - 2);
  await age(shop.id, WINDOW_MS + 1000);
  // The earlier requests have left the window: the next write drops them.
  expect(accepted(await burst(shop.testKey, 3))).toBe(3);
  expect(await logSize()).toBe(3);
  await age(shop.id, 0.5 * WINDOW_MS);
  // Still in the window, so still counted: the limit holds across writes.
  expect(accepted(await burst(shop.testKey, LIMIT))).toBe(LIMIT - 3);
  expect(await logSize()).toBe(LIMIT);
});

test("merchants are limited independently; test and live keys share their merchant's limit", async () => {
  const busy = await newMerchant(db.database);
  const quiet = await newMerchant(db.database);
  const mixed = await Promise.all([burst(busy.testKey, LIMIT), burst(busy.liveKey, LIMIT)]);
  expect(accepted(mixed.flat())).toBe(LIMIT);
  expect(accepted(await burst(busy.liveKey, 1))).toBe(0);
  expect(accepted(await burst(quiet.testKey, LIMIT))).toBe(LIMIT);
});

test("requests refused before authentication do not use up the limit", async () => {
  const shop = await newMerchant(db.database);
  const invalid = await burst(`sk_test_${"Z".repeat(32)}`, 2 * LIMIT);
  expect(invalid.every((response) => response.status === 401)).toBe(true);
  expect(accepted(await burst(shop.testKey, LIMIT))).toBe(LIMIT);
});
