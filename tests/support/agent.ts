import { z } from "zod";
import type { WalletGateways } from "../../src/gateway/wallet-gateway.ts";
import { sql } from "../../src/platform/db/pool.ts";
import { apiSetup } from "./app.ts";
import { createTestDatabase, type TestDatabase } from "./database.ts";
import { newMerchant, type TestMerchant } from "./factories.ts";

const pollFieldsSchema = z.object({
  status: z.string(),
  next_poll_at: z.date().nullable(),
  poll_count: z.number(),
  expiry_retry_at: z.date().nullable(),
  expiry_attempts: z.number(),
  inquiry_count: z.number(),
});

const BASE = { RATE_LIMIT_REQUESTS: "10000", GATEWAY_TIMEOUT_MS: "100", GATEWAY_RETRIES: "0" };

/**
 * What every agent test file shares: a test database for the file, a fresh shop for each test, the
 * API set up over them with fast gateway deadlines, and the clock moves the tests make.
 */
export function agentTestWorld() {
  const world = {
    db: undefined as unknown as TestDatabase,
    shop: undefined as unknown as TestMerchant,
    setup: (environment: Record<string, string> = {}, gateways?: WalletGateways) =>
      apiSetup(world.db, { ...BASE, ...environment }, gateways),
    /** The code's window closes now, on the database's clock, which decides expiry. */
    closeWindow: async (withdrawalId: string) => {
      await world.db.database.query(sql.unsafe`
        UPDATE withdrawal_codes SET expires_at = now() - interval '1 millisecond' WHERE id = ${withdrawalId}`);
    },
    /** As if the code's next poll were due now. */
    makePollDue: async (withdrawalId: string) => {
      await world.db.database.query(
        sql.unsafe`UPDATE withdrawal_codes SET next_poll_at = now() WHERE id = ${withdrawalId}`,
      );
    },
    /** As if the backoff of the code's last failed expiry had passed. */
    passExpiryBackoff: async (withdrawalId: string) => {
      await world.db.database.query(
        sql.unsafe`UPDATE withdrawal_codes SET expiry_retry_at = now() WHERE id = ${withdrawalId}`,
      );
    },
    /** The code's state and its batch polling and expiry fields. */
    pollFieldsOf: (withdrawalId: string) =>
      world.db.database.one(sql.type(pollFieldsSchema)`
        SELECT status, next_poll_at, poll_count, expiry_retry_at, expiry_attempts, inquiry_count
        FROM withdrawal_codes WHERE id = ${withdrawalId}`),
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
