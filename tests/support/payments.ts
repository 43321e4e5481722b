import { z } from "zod";
import { createSandboxGateway } from "../../src/gateway/sandbox.ts";
import type { Gateways } from "../../src/gateway/wallet-gateway.ts";
import { sql } from "../../src/platform/db/pool.ts";
import { apiPost, apiSetup, type TestApp } from "./app.ts";
import { createTestDatabase, type TestDatabase } from "./database.ts";
import { newMerchant, type TestMerchant } from "./factories.ts";
import { manualClock } from "./time.ts";

const countSchema = z.object({ count: z.number() });
const pollFieldsSchema = z.object({ next_poll_at: z.date().nullable(), poll_count: z.number(), status: z.string() });

/**
 * What every payments test file shares: a test database for the file, a fresh shop (1.5 % fee) for
 * each test, the API set up over them, and the moves of time and state the tests make on the database.
 */
export function paymentsTestWorld() {
  const world = {
    db: undefined as unknown as TestDatabase,
    shop: undefined as unknown as TestMerchant,
    setup: (environment: Record<string, string> = {}, gateways?: Gateways) =>
      apiSetup(world.db, { PUBLIC_BASE_URL: "https://pay.example.com", ...environment }, gateways),
    create: (app: TestApp, key: string, body: unknown, idempotencyKey?: string) =>
      apiPost(app, "/v1/payments", key, body, idempotencyKey),
    ledgerTransactionsOf: (paymentId: string) =>
      world.db.database.oneFirst(sql.type(countSchema)`
        SELECT count(*)::int AS count FROM ledger_transactions
        WHERE source_type = 'payment' AND source_id = ${paymentId}`),
    eventsOf: (paymentId: string) =>
      world.db.database.any(sql.type(z.object({ type: z.string(), data: z.record(z.string(), z.unknown()) }))`
        SELECT type, data FROM events WHERE data->>'payment_id' = ${paymentId} ORDER BY seq`),
    /**
     * Moves a payment's times `seconds` into the past on the database, as if that long had gone by
     * since: its creation and code window, and its last gateway inquiry unless `keepLastInquiry`
     * (which keeps the inquiry throttle closed).
     */
    backdate: async (paymentId: string, seconds: number, options: { keepLastInquiry?: boolean } = {}) => {
      const shift = sql.fragment`make_interval(secs => ${seconds})`;
      const lastInquiry =
        options.keepLastInquiry === true ? sql.fragment`last_inquiry_at` : sql.fragment`last_inquiry_at - ${shift}`;
      await world.db.database.query(sql.unsafe`
        UPDATE payments SET created_at = created_at - ${shift}, expires_at = expires_at - ${shift},
          last_inquiry_at = ${lastInquiry}
        WHERE id = ${paymentId}`);
    },
    pollFieldsOf: (paymentId: string) =>
      world.db.database.one(sql.type(pollFieldsSchema)`
        SELECT next_poll_at, poll_count, status FROM payments WHERE id = ${paymentId}`),
    /** As if the payment's next poll were due now. */
    makePollDue: async (paymentId: string) => {
      await world.db.database.query(sql.unsafe`UPDATE payments SET next_poll_at = now() WHERE id = ${paymentId}`);
    },
    /** As if the inquiry interval had passed since the payment's last gateway inquiry. */
    passInquiryInterval: async (paymentId: string) => {
      await world.db.database.query(sql.unsafe`
        UPDATE payments SET last_inquiry_at = last_inquiry_at - interval '1 hour' WHERE id = ${paymentId}`);
    },
    /** A sandbox gateway on a clock the test moves, as the test world's gateways. */
    sandboxOnClock: (autoSettleMs: number) => {
      const clock = manualClock();
      const sandbox = createSandboxGateway({ autoSettleMs, now: clock.now });
      return { clock, gateways: { test: sandbox, live: sandbox } };
    },
    balanceOf: async (merchantId: string, livemode: boolean) => {
      const rows = await world.db.database.any(sql.type(z.object({ currency: z.string(), balance_cents: z.number() }))`
        SELECT currency, balance_cents FROM ledger_balances
        WHERE merchant_id = ${merchantId} AND livemode = ${livemode} AND account = 'merchant_available'`);
      return Object.fromEntries(rows.map((row) => [row.currency, row.balance_cents]));
    },
  };
  beforeAll(async () => {
    world.db = await createTestDatabase({ poolSize: 20 });
  });
  beforeEach(async () => {
    world.shop = await newMerchant(world.db.database, { fee_bps: 150, fee_fixed_cents: 0 });
  });
  afterAll(() => world.db.close());
  return world;
}
