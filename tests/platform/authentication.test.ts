import request from "supertest";
import { z } from "zod";
import { sql } from "../../src/platform/db/pool.ts";
import { defineRoute } from "../../src/platform/http/route.ts";
import { testApp, testConfig } from "../support/app.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { newMerchant, type TestMerchant } from "../support/factories.ts";

let db: TestDatabase;
let app: ReturnType<typeof testApp>;
let shop: TestMerchant;
let otherShop: TestMerchant;

// A small tenant table of the tests' own, to prove every query is scoped by (merchant, world).
const fixtureRoutes = [
  defineRoute({
    method: "get",
    path: "/v1/test_fixtures",
    operationId: "listFixtures",
    summary: "fixture",
    tags: ["Test"],
    auth: { keys: "both" },
    responses: { 200: { description: "rows" } },
    handler: async ({ database, tenant }) => {
      const rows = await database.any(sql.type(z.object({ label: z.string() }))`
        SELECT label FROM test_fixtures WHERE merchant_id = ${tenant.merchantId} AND livemode = ${tenant.livemode}
        ORDER BY label`);
      return { body: { data: rows.map((row) => row.label), livemode: tenant.livemode } };
    },
  }),
];

beforeAll(async () => {
  db = await createTestDatabase();
  app = testApp({ database: db.database, config: testConfig(db.url), extraRoutes: fixtureRoutes });
  shop = await newMerchant(db.database);
  otherShop = await newMerchant(db.database);
  await db.database.query(sql.unsafe`
    CREATE TABLE test_fixtures (merchant_id text NOT NULL, livemode boolean NOT NULL, label text NOT NULL)`);
  await db.database.query(sql.unsafe`
    INSERT INTO test_fixtures VALUES
      (${shop.id}, false, 'shop-test'), (${shop.id}, true, 'shop-live'),
      (${otherShop.id}, false, 'other-test'), (${otherShop.id}, true, 'other-live')`);
});
afterAll(() => db.close());

const envelope = (type: string, code: string) => ({ error: { type, code, message: expect.any(String) } });

describe("API key authentication", () => {
  test("a missing Authorization header is 401 auth_error", async () => {
    const response = await request(app).get("/v1/me");
    expect(response.status).toBe(401);
    expect(response.body).toEqual(envelope("auth_error", "missing_api_key"));
  });

  test("a non-Bearer or empty header is 401", async () => {
    for (const header of ["Basic abc", "Bearer", "Bearer ", shop.testKey]) {
      const response = await request(app).get("/v1/me").set("Authorization", header);
      expect(response.status).toBe(401);
      expect(response.body.error.type).toBe("auth_error");
    }
  });

  test("an unknown key of the right shape and a malformed key are 401 invalid_api_key", async () => {
    for (const key of [`sk_test_${"A".repeat(32)}`, "sk_test_short", `sk_prod_${"A".repeat(32)}`]) {
      const response = await request(app).get("/v1/me").set("Authorization", `Bearer ${key}`);
      expect(response.status).toBe(401);
      expect(response.body).toEqual(envelope("auth_error", "invalid_api_key"));
    }
  });

  test("a live key with its prefix switched to test is not a key", async () => {
    const forged = shop.liveKey.replace("sk_live_", "sk_test_");
    const response = await request(app).get("/v1/me").set("Authorization", `Bearer ${forged}`);
    expect(response.status).toBe(401);
  });

  test("the test key selects the test world and the live key the live world", async () => {
    const test = await request(app).get("/v1/me").set("Authorization", `Bearer ${shop.testKey}`);
    expect(test.status).toBe(200);
    expect(test.body).toMatchObject({
      id: shop.id,
      object: "merchant",
      livemode: false,
      status: "active",
      fee_bps: 150,
    });
    const live = await request(app).get("/v1/me").set("Authorization", `Bearer ${shop.liveKey}`);
    expect(live.status).toBe(200);
    expect(live.body).toMatchObject({ id: shop.id, livemode: true });
  });

  test("a key of one world never sees the other world's rows, nor another merchant's", async () => {
    const test = await request(app).get("/v1/test_fixtures").set("Authorization", `Bearer ${shop.testKey}`);
    expect(test.body).toEqual({ data: ["shop-test"], livemode: false });
    const live = await request(app).get("/v1/test_fixtures").set("Authorization", `Bearer ${shop.liveKey}`);
    expect(live.body).toEqual({ data: ["shop-live"], livemode: true });
    const other = await request(app).get("/v1/test_fixtures").set("Authorization", `Bearer ${otherShop.liveKey}`);
    expect(other.body).toEqual({ data: ["other-live"], livemode: true });
  });

  test("a revoked key is 401 and the merchant's other keys keep working", async () => {
    const merchant = await newMerchant(db.database);
    const revoke = await request(app)
      .delete(`/admin/v1/merchants/${merchant.id}/keys/${merchant.testKeyId}`)
      .set("Authorization", "Bearer test-admin-token-0123456789");
    expect(revoke.status).toBe(200);
    expect(revoke.body.revoked_at).toEqual(expect.any(String));
    const refused = await request(app).get("/v1/me").set("Authorization", `Bearer ${merchant.testKey}`);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual(envelope("auth_error", "api_key_revoked"));
    const live = await request(app).get("/v1/me").set("Authorization", `Bearer ${merchant.liveKey}`);
    expect(live.status).toBe(200);
  });

  test.each(["pending", "suspended"] as const)(
    "a %s merchant is 403 merchant_inactive in both worlds",
    async (status) => {
      const merchant = await newMerchant(db.database, { status });
      for (const key of [merchant.testKey, merchant.liveKey]) {
        const response = await request(app).get("/v1/me").set("Authorization", `Bearer ${key}`);
        expect(response.status).toBe(403);
        expect(response.body).toEqual(envelope("auth_error", "merchant_inactive"));
      }
      // Reactivated, the same keys work again.
      await request(app)
        .post(`/admin/v1/merchants/${merchant.id}/status`)
        .set("Authorization", "Bearer test-admin-token-0123456789")
        .send({ status: "active" })
        .expect(200);
      await request(app).get("/v1/me").set("Authorization", `Bearer ${merchant.testKey}`).expect(200);
    },
  );

  test("every authenticated response carries the RateLimit headers", async () => {
    const response = await request(app).get("/v1/me").set("Authorization", `Bearer ${otherShop.testKey}`);
    expect(response.headers["ratelimit-limit"]).toBe("60");
    expect(Number(response.headers["ratelimit-remaining"])).toBeLessThan(60);
    expect(response.headers["ratelimit-policy"]).toBe("60;w=10");
    expect(Number(response.headers["ratelimit-reset"])).toBeGreaterThanOrEqual(0);
  });
});
