import { z } from "zod";
import { apiSetup } from "../../../tests/support/app.ts";
import { countingDatabase } from "../../../tests/support/counting-database.ts";
import { createTestDatabase } from "../../../tests/support/database.ts";
import { fund, newMerchant, type TestMerchant } from "../../../tests/support/factories.ts";
import {
  accountBalances,
  available,
  eventsAbout,
  eventually,
  ledgerTransactionsOf,
  sleep,
} from "../../../tests/support/money.ts";
import {
  countingSandbox,
  createPayout,
  FAST,
  logger,
  payoutsTestWorld,
  runDue,
  WALLET,
} from "../../../tests/support/payouts.ts";
import { startPoolPump } from "../../../tests/support/pumps.ts";
import { manualClock } from "../../../tests/support/time.ts";
import { createDatabase, sql } from "../../platform/db/pool.ts";
import { processPayout } from "./processing.ts";
import { processDuePayoutsPump } from "./pumps/process-due-payouts.ts";
import { getPayoutById } from "./reading.ts";

/** The payout-processor: its pump, its batched writes, and two replicas side by side. */

const world = payoutsTestWorld();
const { setup, setDestination, payoutRow } = world;

describe("the payout-processor pool", () => {
  test("without any direct call, its pump confirms one payout and fails another (0000), each exactly once", async () => {
    const { app, config, dependencies } = setup({ WORKER_POLL_INTERVAL_MS: "50" });
    const rejecting = await newMerchant(world.db.database, { payout_msisdn: "263779990000", payout_verified: true });
    await fund(world.db.database, world.shop, 1000);
    await fund(world.db.database, rejecting, 1000);
    const pump = startPoolPump("payout-processor", processDuePayoutsPump(dependencies.gateways), {
      config,
      database: world.db.database,
      databaseUrl: world.db.url,
      logger,
    });
    try {
      const confirming = (await createPayout(app, world.shop.testKey, { amount_cents: 600 })).body;
      const failing = (await createPayout(app, rejecting.testKey, { amount_cents: 600 })).body;
      const statuses = async () =>
        Promise.all([confirming.id, failing.id].map(async (id) => (await getPayoutById(world.db.database, id)).status));
      await eventually(async () => (await statuses()).join() === "confirmed,failed");
      expect(await available(world.db.database, world.shop.id, false)).toBe(400);
      expect(await available(world.db.database, rejecting.id, false)).toBe(1000);
      expect((await eventsAbout(world.db.database, "payout_id", confirming.id)).map((event) => event.type)).toEqual([
        "payout.confirmed",
      ]);
      expect((await eventsAbout(world.db.database, "payout_id", failing.id)).map((event) => event.type)).toEqual([
        "payout.failed",
      ]);
    } finally {
      await pump.stop();
    }
  });
});

describe("the payout-processor's writes", () => {
  test("the submissions and then the confirmations a claim's payouts get back together are each written in one statement, each guarded", async () => {
    // A database of its own: the claim takes every due payout, and other tests leave some.
    const own = await createTestDatabase();
    try {
      const clock = manualClock();
      const { gateways, submissions } = countingSandbox(clock);
      const { app, config } = apiSetup(own, FAST, gateways);
      const payers = await Promise.all(
        [1, 2].map(() => newMerchant(own.database, { payout_msisdn: WALLET, payout_verified: true })),
      );
      await Promise.all(payers.map((payer) => fund(own.database, payer, 10_000)));
      const created: string[] = [];
      // Interleaved across the merchants: the writer orders the statement's rows itself.
      for (const amount of [100, 200, 300, 400]) {
        const payer = payers[(amount / 100) % 2] as TestMerchant;
        const response = await createPayout(app, payer.testKey, { amount_cents: amount });
        expect(response.status).toBe(201);
        created.push(response.body.id);
      }
      const processor = (database: typeof own.database) => ({ config, database, logger, gateways });
      const statuses = () =>
        own.database.anyFirst(sql.type(z.object({ status: z.string() }))`
          SELECT status FROM payouts ORDER BY amount_cents`);

      const submitting = countingDatabase(own.database);
      expect(await runDue(processor(submitting.database))).toEqual({ claimed: 4, failed: 0 });
      // The claim, then the four accepted submissions together.
      expect(submitting.statements()).toBe(2);
      expect(await statuses()).toEqual(["submitted", "submitted", "submitted", "submitted"]);
      // Guarded: a payout no longer requested is not submitted again; it answers as it stands.
      const [first] = created as [string];
      const again = await processPayout(processor(own.database), {
        merchantId: (payers[1] as TestMerchant).id,
        payoutId: first,
      });
      expect(again).toMatchObject({ id: first, status: "submitted" });
      expect(created.map((id) => submissions.get(id))).toEqual([1, 1, 1, 1]);

      // The gateway completes them; their next passes are due.
      clock.advance(400);
      await own.database.query(sql.unsafe`UPDATE payouts SET next_attempt_at = now() - interval '1 second'`);
      const confirming = countingDatabase(own.database);
      expect(await runDue(processor(confirming.database))).toEqual({ claimed: 4, failed: 0 });
      // The claim, then the four confirmations with their movements and events together.
      expect(confirming.statements()).toBe(2);
      expect(await statuses()).toEqual(["confirmed", "confirmed", "confirmed", "confirmed"]);
      for (const id of created) {
        // The request's debit and the confirmation's movement, once each.
        expect(await ledgerTransactionsOf(own.database, id)).toHaveLength(2);
        expect((await eventsAbout(own.database, "payout_id", id)).map((event) => event.type)).toEqual([
          "payout.confirmed",
        ]);
      }
      // 400 + 200 from one merchant, 100 + 300 from the other, each now out of transit.
      for (const [payer, paidOut] of [
        [payers[0], 600],
        [payers[1], 400],
      ] as const) {
        expect(await accountBalances(own.database, (payer as TestMerchant).id, false)).toMatchObject({
          merchant_available: { USD: 10_000 - paidOut },
          payouts_in_transit: { USD: 0 },
          gateway_clearing: { USD: -10_000 + paidOut },
        });
      }
      // A confirmation observed again changes nothing.
      await own.database.query(sql.unsafe`UPDATE payouts SET next_attempt_at = now() - interval '1 second'`);
      expect(await runDue(processor(own.database))).toEqual({ claimed: 0, failed: 0 });
      expect(
        await processPayout(processor(own.database), {
          merchantId: (payers[1] as TestMerchant).id,
          payoutId: first,
        }),
      ).toMatchObject({ status: "confirmed" });
      expect(await ledgerTransactionsOf(own.database, first)).toHaveLength(2);
    } finally {
      await own.close();
    }
  });
});

describe("two replicas of the payout-processor", () => {
  test("claiming the same due payouts side by side, they submit each once and confirm each once", async () => {
    const { gateways, submissions } = countingSandbox();
    const { app, config } = setup({ MONEY_OUT_LEASE_SECONDS: "60" }, gateways);
    const shops = [world.shop, ...(await Promise.all([1, 2].map(() => newMerchant(world.db.database))))];
    await Promise.all(shops.map((merchant) => setDestination(merchant, WALLET)));
    await Promise.all(shops.map((merchant) => fund(world.db.database, merchant, 100_000)));
    const created: string[] = [];
    for (let index = 0; index < 60; index += 1) {
      const merchant = shops[index % shops.length] as TestMerchant;
      const response = await createPayout(app, merchant.testKey, { amount_cents: 100 + index });
      expect(response.status).toBe(201);
      created.push(response.body.id);
    }
    // Two replicas: each its own database pool, running the batch task back to back until all are final.
    const replicas = await Promise.all(
      [0, 1].map(() =>
        createDatabase({
          url: world.db.url,
          poolSize: 10,
          statementTimeoutMs: 30_000,
          logger,
          applicationName: "replica",
        }),
      ),
    );
    try {
      const unfinished = async () =>
        world.db.database.oneFirst(sql.type(z.object({ count: z.number() }))`
          SELECT count(*)::int AS count FROM payouts
          WHERE id = ANY(${sql.array(created, "text")}) AND status IN ('requested', 'submitted')`);
      const processors = replicas.map((replica) => ({ config, database: replica, logger, gateways }));
      // Side by side, each claims at most 10 of the 60 due: each takes its own 10, whichever runs first.
      const claimed = (await Promise.all(processors.map((processor) => runDue(processor, 10)))).map(
        (run) => run.claimed,
      );
      await Promise.all(
        processors.map(async (processor, index) => {
          const deadline = Date.now() + 60_000;
          while ((await unfinished()) > 0) {
            if (Date.now() > deadline) throw new Error("payouts still unfinished after 60 s");
            claimed[index] = (claimed[index] ?? 0) + (await runDue(processor)).claimed;
            await sleep(50);
          }
        }),
      );
      // Both took part, and each payout was submitted once, confirmed once, moved once.
      expect(claimed.every((count) => count > 0)).toBe(true);
      for (const id of created) {
        expect(submissions.get(id)).toBe(1);
        expect(await payoutRow(id)).toMatchObject({ status: "confirmed", submit_attempts: 1 });
        expect(await ledgerTransactionsOf(world.db.database, id)).toHaveLength(2);
        expect((await eventsAbout(world.db.database, "payout_id", id)).map((event) => event.type)).toEqual([
          "payout.confirmed",
        ]);
      }
      for (const merchant of shops) {
        expect(await accountBalances(world.db.database, merchant.id, false)).toMatchObject({
          payouts_in_transit: { USD: 0 },
        });
      }
    } finally {
      await Promise.all(replicas.map((replica) => replica.end()));
    }
  });
});
