import request from "supertest";
import { z } from "zod";
import * as ledger from "../../src/modules/ledger/service.ts";
import { sql } from "../../src/platform/db/pool.ts";
import { testApp, testConfig } from "./app.ts";
import { createTestDatabase, type TestDatabase } from "./database.ts";
import { newMerchant, type TestMerchant } from "./factories.ts";

const sumsRowSchema = z.object({ currency: z.string(), total: z.number().int() });

/**
 * What the ledger test files share: a test database and an app for the file, a fresh shop for each
 * test, and readers and a writer of its live balance.
 */
export function ledgerTestWorld() {
  const world = {
    db: undefined as unknown as TestDatabase,
    app: undefined as unknown as ReturnType<typeof testApp>,
    shop: undefined as unknown as TestMerchant,
    /** Σ postings of the merchant's available account per currency, straight from the ledger rows. */
    sumOfPostings: async (merchantId: string, livemode: boolean) => {
      const rows = await world.db.database.any(sql.type(sumsRowSchema)`
        SELECT currency, sum(amount_cents)::int8 AS total FROM ledger_postings
        WHERE merchant_id = ${merchantId} AND livemode = ${livemode} AND account = 'merchant_available'
        GROUP BY currency`);
      return Object.fromEntries(rows.map((row) => [row.currency, row.total]));
    },
    /** The available balance per currency, as GET /v1/balance tells it. */
    balanceOf: async (key: string) => {
      const response = await request(world.app).get("/v1/balance").set("Authorization", `Bearer ${key}`);
      expect(response.status).toBe(200);
      return Object.fromEntries(
        (response.body.available as { currency: string; amount_cents: number }[]).map((row) => [
          row.currency,
          row.amount_cents,
        ]),
      );
    },
    /** A live USD payout's movement of `amountCents` from the available balance, under `key`. */
    debit: (merchantId: string, amountCents: number, key: string) =>
      world.db.database.transaction((transaction) =>
        ledger.post(transaction, {
          merchantId,
          livemode: true,
          postingKey: key,
          description: "Payout",
          source: { type: "payout", id: key },
          postings: [
            { account: "merchant_available", entryType: "payout", currency: "USD", amountCents: -amountCents },
            { account: "payouts_in_transit", entryType: "payout", currency: "USD", amountCents },
          ],
        }),
      ),
  };
  beforeAll(async () => {
    world.db = await createTestDatabase({ poolSize: 20 });
    world.app = testApp({ database: world.db.database, config: testConfig(world.db.url) });
  });
  beforeEach(async () => {
    world.shop = await newMerchant(world.db.database);
  });
  afterAll(() => world.db.close());
  return world;
}
