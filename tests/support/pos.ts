import { randomUUID } from "node:crypto";
import request from "supertest";
import { z } from "zod";
import type { Gateways } from "../../src/gateway/wallet-gateway.ts";
import { sql } from "../../src/platform/db/pool.ts";
import { createLogger } from "../../src/platform/telemetry/logger.ts";
import { createGateways } from "../../src/wiring/gateways.ts";
import { paymentHooks } from "../../src/wiring/modules.ts";
import { testApp, testConfig } from "./app.ts";
import { createTestDatabase, type TestDatabase } from "./database.ts";
import { newMerchant, type TestMerchant } from "./factories.ts";

/**
 * Helpers of the point-of-sale tests: the API app with a rate limit out of the way, a small client
 * per key, and readers of the rows the assertions are about.
 */
export function posSetup(db: TestDatabase, environment: Record<string, string> = {}, gateways?: Gateways) {
  const config = testConfig(db.url, {
    PUBLIC_BASE_URL: "https://pay.example.com",
    RATE_LIMIT_REQUESTS: "10000",
    ...environment,
  });
  const resolved = gateways ?? createGateways(config);
  const app = testApp({ database: db.database, config, gateways: resolved });
  const logger = createLogger({ level: "silent", service: "test" });
  return { config, app, dependencies: { config, database: db.database, logger, gateways: resolved, paymentHooks } };
}

export type PosApp = ReturnType<typeof posSetup>["app"];

/** A client for one key: JSON in, supertest responses out; sales get a fresh Idempotency-Key. */
export function client(app: PosApp, key: string) {
  const auth = (test: request.Test) => test.set("Authorization", `Bearer ${key}`);
  return {
    get: (path: string, query: Record<string, string | number | boolean> = {}) =>
      auth(request(app).get(path).query(query)),
    post: (path: string, body: unknown, idempotencyKey: string = randomUUID()) =>
      auth(request(app).post(path))
        .set("Idempotency-Key", idempotencyKey)
        .send(body as object),
    patch: (path: string, body: unknown) => auth(request(app).patch(path)).send(body as object),
  };
}
export type Client = ReturnType<typeof client>;

/**
 * What the catalog and stock test files share: a test database for the file, and for each test a
 * fresh shop with the API app and a client per world's key.
 */
export function productsTestWorld(options: { poolSize?: number } = {}) {
  const world = {
    db: undefined as unknown as TestDatabase,
    shop: undefined as unknown as TestMerchant,
    app: undefined as unknown as PosApp,
    live: undefined as unknown as Client,
    testWorld: undefined as unknown as Client,
  };
  beforeAll(async () => {
    world.db = await createTestDatabase(options);
  });
  beforeEach(async () => {
    world.shop = await newMerchant(world.db.database);
    world.app = posSetup(world.db).app;
    world.live = client(world.app, world.shop.liveKey);
    world.testWorld = client(world.app, world.shop.testKey);
  });
  afterAll(() => world.db.close());
  return world;
}

/** Creates a product through the API and returns its body, failing loudly when it is refused. */
export async function createProduct(api: Client, body: Record<string, unknown>) {
  const response = await api.post("/v1/products", body);
  if (response.status !== 201) {
    throw new Error(`product not created: ${response.status} ${JSON.stringify(response.body)}`);
  }
  return response.body as { id: string; stock_qty: number | null; [key: string]: unknown };
}

const moveRow = z.object({
  id: z.string(),
  livemode: z.boolean(),
  product_id: z.string(),
  kind: z.string(),
  qty_delta: z.number(),
  stock_qty_after: z.number(),
  sale_id: z.string().nullable(),
  actor_id: z.string(),
  note: z.string().nullable(),
  seq: z.number(),
});

export async function movesOf(db: TestDatabase, productId: string) {
  return db.database.any(sql.type(moveRow)`
    SELECT id, livemode, product_id, kind, qty_delta, stock_qty_after, sale_id, actor_id, note, seq
    FROM stock_moves WHERE product_id = ${productId} ORDER BY seq`);
}

export async function onHandOf(db: TestDatabase, productId: string): Promise<number> {
  return db.database.oneFirst(sql.type(z.object({ stock_qty: z.number() }))`
    SELECT stock_qty FROM products WHERE id = ${productId}`);
}

export async function eventsOfType(db: TestDatabase, merchantId: string, type: string) {
  return db.database.any(
    sql.type(z.object({ livemode: z.boolean(), data: z.record(z.string(), z.unknown()) }))`
      SELECT livemode, data FROM events WHERE merchant_id = ${merchantId} AND type = ${type} ORDER BY seq`,
  );
}

export async function ledgerTransactionCount(db: TestDatabase, merchantId: string): Promise<number> {
  return db.database.oneFirst(sql.type(z.object({ count: z.number() }))`
    SELECT count(*)::int AS count FROM ledger_transactions WHERE merchant_id = ${merchantId}`);
}
