import { z } from "zod";
import { sql } from "../../src/platform/db/pool.ts";
import { countingDatabase } from "./counting-database.ts";
import { createTestDatabase, type TestDatabase } from "./database.ts";
import { newMerchant, type TestMerchant } from "./factories.ts";
import { type Client, client, posSetup } from "./pos.ts";

/**
 * What every sales test file shares: a test database for the file, and for each test a fresh shop
 * (1.5 % fee), the API over them (`setup`) and a client per world (`live`, `testWorld`), with the
 * readers the assertions use.
 */
export function salesTestWorld() {
  const world = {
    db: undefined as unknown as TestDatabase,
    shop: undefined as unknown as TestMerchant,
    setup: undefined as unknown as ReturnType<typeof posSetup>,
    live: undefined as unknown as Client,
    testWorld: undefined as unknown as Client,
    saleCount: (merchantId: string) =>
      world.db.database.oneFirst(sql.type(z.object({ count: z.number() }))`
        SELECT count(*)::int AS count FROM sales WHERE merchant_id = ${merchantId}`),
    /**
     * An app whose every database call is counted (`countingDatabase`), as `key` calls it; `gateways`
     * replace the world's (`posSetup`'s third argument).
     */
    countedClient: (key: string, gateways?: Parameters<typeof posSetup>[2]) => {
      const counting = countingDatabase(world.db.database);
      const setup = posSetup({ ...world.db, database: counting.database }, {}, gateways);
      return { counting, setup, api: client(setup.app, key) };
    },
    /** The world's available balance per currency, as GET /v1/balance tells it. */
    balanceOf: async (api: Client) =>
      Object.fromEntries(
        (await api.get("/v1/balance")).body.available.map((entry: { currency: string; amount_cents: number }) => [
          entry.currency,
          entry.amount_cents,
        ]),
      ),
  };
  beforeAll(async () => {
    world.db = await createTestDatabase({ poolSize: 20 });
  });
  beforeEach(async () => {
    world.shop = await newMerchant(world.db.database, { fee_bps: 150, fee_fixed_cents: 0 });
    world.setup = posSetup(world.db);
    world.live = client(world.setup.app, world.shop.liveKey);
    world.testWorld = client(world.setup.app, world.shop.testKey);
  });
  afterAll(() => world.db.close());
  return world;
}
