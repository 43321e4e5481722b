import { Writable } from "node:stream";
import request from "supertest";
import { z } from "zod";
import { amountCentsSchema, currencySchema } from "../../src/kernel/money-schemas.ts";
import { internalError } from "../../src/platform/errors.ts";
import { defineRoute } from "../../src/platform/http/route.ts";
import { createLogger } from "../../src/platform/telemetry/logger.ts";
import { scrapeMetrics, TEST_ADMIN_TOKEN, testApp, testConfig } from "../support/app.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { newMerchant, type TestMerchant } from "../support/factories.ts";

const fixtureRoutes = [
  defineRoute({
    method: "post",
    path: "/v1/test_amounts",
    operationId: "testAmounts",
    summary: "fixture",
    tags: ["Test"],
    auth: { keys: "both" },
    request: {
      body: z.strictObject({
        amount_cents: amountCentsSchema,
        currency: currencySchema,
        note: z.string().max(5).optional(),
      }),
    },
    responses: { 200: { description: "echo" } },
    handler: async ({ body }) => ({ body }),
  }),
  defineRoute({
    method: "get",
    path: "/v1/test_crash",
    operationId: "testCrash",
    summary: "fixture",
    tags: ["Test"],
    auth: "none",
    responses: { 200: { description: "never" } },
    handler: async () => {
      throw new Error("database password=hunter2 leaked into an error");
    },
  }),
  defineRoute({
    method: "get",
    path: "/v1/test_items/:item_id",
    operationId: "testItem",
    summary: "fixture",
    tags: ["Test"],
    auth: "none",
    request: { params: z.strictObject({ item_id: z.string() }) },
    responses: { 200: { description: "never" } },
    handler: async () => {
      throw internalError();
    },
  }),
];

let db: TestDatabase;
let app: ReturnType<typeof testApp>;
let shop: TestMerchant;
const logLines: string[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  const sink = new Writable({
    write(chunk, _encoding, callback) {
      logLines.push(String(chunk));
      callback();
    },
  });
  const logger = createLogger({ level: "debug", service: "test" }, sink);
  app = testApp({
    database: db.database,
    config: testConfig(db.url, { HTTP_BODY_LIMIT_BYTES: "1000" }),
    extraRoutes: fixtureRoutes,
    logger,
  });
  shop = await newMerchant(db.database);
});
afterAll(() => db.close());

const envelope = (type: string, code: string) => ({ error: { type, code, message: expect.any(String) } });

describe("the error envelope", () => {
  test("an unknown route is 404 invalid_request", async () => {
    const response = await request(app).get("/v1/does_not_exist");
    expect(response.status).toBe(404);
    expect(response.body).toEqual(envelope("invalid_request", "route_not_found"));
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
  });

  test("malformed JSON is 400 invalid_json", async () => {
    const response = await request(app)
      .post("/v1/test_amounts")
      .set("Authorization", `Bearer ${shop.testKey}`)
      .set("Content-Type", "application/json")
      .send('{"amount_cents": 1,');
    expect(response.status).toBe(400);
    expect(response.body).toEqual(envelope("invalid_request", "invalid_json"));
  });

  test("an oversized body is 413 body_too_large", async () => {
    const response = await request(app)
      .post("/v1/test_amounts")
      .set("Authorization", `Bearer ${shop.testKey}`)
      .send({ amount_cents: 1, currency: "USD", padding: "x".repeat(5000) });
    expect(response.status).toBe(413);
    expect(response.body).toEqual(envelope("invalid_request", "body_too_large"));
  });

  test("an unexpected fault is 500 api_error, without the stack or the fault's text", async () => {
    const response = await request(app).get("/v1/test_crash").set("X-Request-Id", "req-crash-1");
    expect(response.status).toBe(500);
    expect(response.body).toEqual(envelope("api_error", "internal_error"));
    expect(response.text).not.toContain("hunter2");
    expect(response.text).not.toContain("at ");
    expect(response.headers["x-request-id"]).toBe("req-crash-1");
    const logged = logLines.find((line) => line.includes("req-crash-1") && line.includes('"level":"error"'));
    expect(logged).toBeDefined();
  });

  test("a thrown internal error is also the plain envelope", async () => {
    const response = await request(app).get("/v1/test_items/abc");
    expect(response.status).toBe(500);
    expect(response.body).toEqual(envelope("api_error", "internal_error"));
  });

  test.each([
    [{ amount_cents: 0, currency: "USD" }, "invalid_amount"],
    [{ amount_cents: -5, currency: "USD" }, "invalid_amount"],
    [{ amount_cents: 10.5, currency: "USD" }, "invalid_amount"],
    [{ amount_cents: "100", currency: "USD" }, "invalid_amount"],
    [{ currency: "USD" }, "invalid_amount"],
    [{ amount_cents: 100, currency: "EUR" }, "invalid_currency"],
    [{ amount_cents: 100, currency: "usd" }, "invalid_currency"],
    [{ amount_cents: 100, currency: "USD", unexpected: 1 }, "parameter_unknown"],
    [{ amount_cents: 100, currency: "USD", note: "too long" }, "parameter_invalid"],
  ])("body %j is 400 %s", async (body, code) => {
    const response = await request(app)
      .post("/v1/test_amounts")
      .set("Authorization", `Bearer ${shop.testKey}`)
      .send(body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual(envelope("invalid_request", code));
  });

  test("a valid body passes", async () => {
    const response = await request(app)
      .post("/v1/test_amounts")
      .set("Authorization", `Bearer ${shop.testKey}`)
      .send({ amount_cents: 100, currency: "ZWG" });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ amount_cents: 100, currency: "ZWG" });
  });

  test("an unknown object is 404 invalid_request", async () => {
    const response = await request(app)
      .get("/admin/v1/merchants/mch_nope")
      .set("Authorization", `Bearer ${TEST_ADMIN_TOKEN}`);
    expect(response.status).toBe(404);
    expect(response.body).toEqual(envelope("invalid_request", "resource_missing"));
  });
});

describe("logs and metrics", () => {
  test("no secret key, admin token or password reaches the logs", async () => {
    await request(app).get("/v1/me").set("Authorization", `Bearer ${shop.liveKey}`).expect(200);
    await request(app)
      .post("/admin/v1/merchants")
      .set("Authorization", `Bearer ${TEST_ADMIN_TOKEN}`)
      .send({ name: "Logged", email: "logged@example.com", password: "a-secret-password-123" })
      .expect(201);
    const all = logLines.join("\n");
    expect(all).toContain("/v1/me");
    expect(all).not.toContain(shop.liveKey);
    expect(all).not.toContain(TEST_ADMIN_TOKEN);
    expect(all).not.toContain("a-secret-password-123");
    expect(all).not.toMatch(/sk_(test|live)_[0-9A-Za-z]{32}/);
  });

  test("request durations are labelled by route template, never by id", async () => {
    await request(app).get("/v1/test_items/item_123456").expect(500);
    const metrics = await scrapeMetrics(app);
    expect(metrics.status).toBe(200);
    expect(metrics.text).toMatch(
      /http_request_duration_seconds_count\{[^}]*route="\/v1\/test_items\/:item_id"[^}]*status_code="500"/,
    );
    expect(metrics.text).toMatch(/route="\/v1\/me"/);
    expect(metrics.text).not.toContain("item_123456");
    expect(metrics.text).not.toContain(shop.id);
    expect(metrics.text).toContain("process_cpu_seconds_total");
  });

  test("healthz needs nothing; readyz checks the database", async () => {
    expect((await request(app).get("/healthz")).body).toEqual({ status: "ok" });
    expect((await request(app).get("/readyz")).body).toEqual({ status: "ready" });
  });
});
