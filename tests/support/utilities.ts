import { randomUUID } from "node:crypto";
import type { WalletGateways } from "../../src/gateway/wallet-gateway.ts";
import { apiPost, apiSetup, type TestApp } from "./app.ts";
import { createTestDatabase, type TestDatabase } from "./database.ts";
import { newMerchant, type TestMerchant } from "./factories.ts";

/**
 * What every utilities test file shares: a test database for the file, and for each test a fresh
 * shop, the API over them with short gateway deadlines (`setup`), and a payment request (`pay`).
 */

const BASE = { RATE_LIMIT_REQUESTS: "10000", GATEWAY_TIMEOUT_MS: "100", GATEWAY_RETRIES: "0" };

export function utilitiesTestWorld() {
  const world = {
    db: undefined as unknown as TestDatabase,
    shop: undefined as unknown as TestMerchant,
    setup: (environment: Record<string, string> = {}, gateways?: WalletGateways) =>
      apiSetup(world.db, { ...BASE, ...environment }, gateways),
    pay: (app: TestApp, body: unknown, idempotencyKey: string = randomUUID(), key?: string) =>
      apiPost(app, "/v1/utilities/payments", key ?? world.shop.testKey, body, idempotencyKey),
  };
  beforeAll(async () => {
    world.db = await createTestDatabase({ poolSize: 20 });
  });
  beforeEach(async () => {
    world.shop = await newMerchant(world.db.database);
  });
  afterAll(() => world.db.close());
  return world;
}
