import { execFile } from "node:child_process";
import { promisify } from "node:util";
import pg from "pg";
import request from "supertest";
import { z } from "zod";
import { fund } from "../../../tests/support/factories.ts";
import { sampleValue } from "../../../tests/support/metrics.ts";
import { accountBalances, available, eventsAbout, ledgerTransactionsOf } from "../../../tests/support/money.ts";
import { admin, countingSandbox, createPayout, payoutsTestWorld } from "../../../tests/support/payouts.ts";
import { manualClock, waitUntil } from "../../../tests/support/time.ts";
import { sql } from "../../platform/db/pool.ts";
import { processPayout } from "./processing.ts";
import { reversePayout } from "./reversal.ts";

/** A payout's passes through its states in the sandbox, and an operator's reversal. */

const world = payoutsTestWorld();
const { setup, setDestination, processUntilFinal } = world;

describe("payout states (test world, sandbox timing shortened)", () => {
  test("requested → submitted at once → confirmed on the next pass after settling: payout.confirmed", async () => {
    const clock = manualClock();
    const { app, dependencies } = setup({}, countingSandbox(clock).gateways);
    await fund(world.db.database, world.shop, 5000);
    const created = (await createPayout(app, world.shop.testKey, { amount_cents: 1200 })).body;
    const confirmedBefore = await sampleValue("pos_payouts_total", {
      status: "confirmed",
      livemode: "false",
      currency: "USD",
    });
    const before = Date.now();
    const submitted = await processPayout(dependencies, { merchantId: world.shop.id, payoutId: created.id });
    expect(submitted).toMatchObject({ status: "submitted", submit_attempts: 1 });
    expect(submitted?.destination_name).toMatch(/^[A-Z][a-z]+ [A-Z][a-z]+$/);
    // The next pass comes one processor interval (0.4 s) later, by which time it has settled (0.3 s).
    expect((submitted?.next_attempt_at.getTime() ?? 0) - before).toBeGreaterThanOrEqual(400);
    clock.advance(400);
    const confirmed = await processPayout(dependencies, { merchantId: world.shop.id, payoutId: created.id });
    expect(confirmed).toMatchObject({ status: "confirmed" });
    const body = (
      await request(app).get(`/v1/payouts/${created.id}`).set("Authorization", `Bearer ${world.shop.testKey}`)
    ).body;
    expect(body).toMatchObject({ status: "confirmed", failure_reason: null });
    expect(Date.parse(body.confirmed_at)).toBeGreaterThanOrEqual(Date.parse(body.submitted_at));
    expect(await eventsAbout(world.db.database, "payout_id", created.id)).toEqual([
      {
        type: "payout.confirmed",
        livemode: false,
        data: { payout_id: created.id, amount_cents: 1200, currency: "USD", reference: created.reference },
      },
    ]);
    expect(await accountBalances(world.db.database, world.shop.id, false)).toMatchObject({
      merchant_available: { USD: 3800 },
      payouts_in_transit: { USD: 0 },
      gateway_clearing: { USD: -5000 + 1200 },
    });
    expect(await sampleValue("pos_payouts_total", { status: "confirmed", livemode: "false", currency: "USD" })).toBe(
      confirmedBefore + 1,
    );
    // A late duplicate job changes nothing.
    await processPayout(dependencies, { merchantId: world.shop.id, payoutId: created.id });
    expect(await ledgerTransactionsOf(world.db.database, created.id)).toHaveLength(2);
  });

  test("a destination ending 0000 is rejected when it settles: failed, exactly the amount restored, payout.failed", async () => {
    const { app, dependencies } = setup();
    await setDestination(world.shop, "263770000000");
    await fund(world.db.database, world.shop, 5000);
    await fund(world.db.database, world.shop, 700, false, "ZWG");
    const created = (await createPayout(app, world.shop.testKey, { amount_cents: 4321 })).body;
    expect(await available(world.db.database, world.shop.id, false)).toBe(679);
    const failed = await processUntilFinal(dependencies, created);
    expect(failed).toMatchObject({ status: "failed" });
    expect(failed?.failure_reason).toContain("0000");
    expect(failed?.submitted_at).not.toBeNull();
    expect(await accountBalances(world.db.database, world.shop.id, false)).toMatchObject({
      merchant_available: { USD: 5000, ZWG: 700 },
      payouts_in_transit: { USD: 0 },
    });
    const [event] = await eventsAbout(world.db.database, "payout_id", created.id);
    expect(event).toMatchObject({
      type: "payout.failed",
      data: { payout_id: created.id, amount_cents: 4321, currency: "USD", reason: failed?.failure_reason },
    });
    const transactions = await ledgerTransactionsOf(world.db.database, created.id);
    expect(transactions).toHaveLength(2);
    expect(transactions[1]?.reverses_transaction_id).toBe(transactions[0]?.id);
    const entries = await request(setup().app)
      .get("/v1/ledger?entry_type=reversal")
      .set("Authorization", `Bearer ${world.shop.testKey}`);
    expect(entries.body.data.map((entry: { amount_cents: number }) => entry.amount_cents)).toEqual([4321]);
  });

  test("a destination ending 0096: the first submission fails transiently, is retried internally, and completes", async () => {
    const { gateways, submissions } = countingSandbox();
    const { app, dependencies } = setup({}, gateways);
    await setDestination(world.shop, "263771230096");
    await fund(world.db.database, world.shop, 5000);
    const created = (await createPayout(app, world.shop.testKey, { amount_cents: 800 })).body;
    const before = Date.now();
    const first = await processPayout(dependencies, { merchantId: world.shop.id, payoutId: created.id });
    expect(first).toMatchObject({ status: "requested", submit_attempts: 1 });
    // Looked at again after PAYOUT_RETRY_SECONDS, not at once.
    expect((first?.next_attempt_at.getTime() ?? 0) - before).toBeGreaterThanOrEqual(200);
    const confirmed = await processUntilFinal(dependencies, created);
    expect(confirmed).toMatchObject({ status: "confirmed", submit_attempts: 2 });
    expect(submissions.get(created.id)).toBe(2);
    expect(await available(world.db.database, world.shop.id, false)).toBe(4200);
    expect((await eventsAbout(world.db.database, "payout_id", created.id)).map((event) => event.type)).toEqual([
      "payout.confirmed",
    ]);
  });
});

describe("an operator reverses a confirmed payout", () => {
  test("reversed, payout.reversed, the money returns; only once, only when confirmed, only for operators", async () => {
    const { app, dependencies } = setup();
    await fund(world.db.database, world.shop, 3000);
    const created = (await createPayout(app, world.shop.testKey, { amount_cents: 1000 })).body;
    const reverse = (id: string, body: object = {}) =>
      request(app).post(`/admin/v1/payouts/${id}/reverse`).set("Authorization", admin).send(body);
    const early = await reverse(created.id);
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe("payout_not_confirmed");
    await processUntilFinal(dependencies, created);
    expect(await available(world.db.database, world.shop.id, false)).toBe(2000);

    expect((await request(app).post(`/admin/v1/payouts/${created.id}/reverse`).send({})).status).toBe(401);
    const reversed = await reverse(created.id, { reason: "wallet provider recalled it" });
    expect(reversed.status).toBe(200);
    expect(reversed.body).toMatchObject({
      id: created.id,
      status: "reversed",
      merchant_id: world.shop.id,
      reversal_reason: "wallet provider recalled it",
    });
    expect(reversed.body.reversed_at).not.toBeNull();
    expect(await accountBalances(world.db.database, world.shop.id, false)).toMatchObject({
      merchant_available: { USD: 3000 },
      payouts_in_transit: { USD: 0 },
      gateway_clearing: { USD: -3000 },
    });
    expect((await eventsAbout(world.db.database, "payout_id", created.id)).map((event) => event.type)).toEqual([
      "payout.confirmed",
      "payout.reversed",
    ]);
    expect((await reverse(created.id)).body.error.code).toBe("payout_not_confirmed");
    expect((await reverse("po_missing")).status).toBe(404);
    expect(await ledgerTransactionsOf(world.db.database, created.id)).toHaveLength(4);
    expect(await available(world.db.database, world.shop.id, false)).toBe(3000);
  });

  test("a reversal takes the balances in the order a payout request does: a request meanwhile waits, never deadlocks", async () => {
    const { app, dependencies } = setup();
    await fund(world.db.database, world.shop, 3000);
    const created = (await createPayout(app, world.shop.testKey, { amount_cents: 1000 })).body;
    await processUntilFinal(dependencies, created);
    // A payout request's statement between its two balance locks: available taken, in transit next.
    const requesting = new pg.Client({ connectionString: world.db.url });
    await requesting.connect();
    const lockBalance = (account: string, wait: "" | "NOWAIT") =>
      requesting.query(
        `SELECT balance_cents FROM ledger_balances
         WHERE merchant_id = $1 AND livemode = false AND account = $2 AND currency = 'USD' FOR UPDATE ${wait}`,
        [world.shop.id, account],
      );
    try {
      await requesting.query("BEGIN");
      await lockBalance("merchant_available", "");
      const reversing = reversePayout(world.db.database, created.id, { reason: "recalled" });
      await waitUntil("the reversal waits for the available balance", async () => {
        const waiting = await world.db.database.oneFirst(sql.type(z.object({ count: z.number() }))`
          SELECT count(*)::int AS count FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock'`);
        return waiting > 0;
      });
      // Free: the reversal has not touched it yet. Had it reversed the confirmation first, it would hold
      // it (NOWAIT fails at once), and PostgreSQL would abort one of the two as a deadlock.
      await lockBalance("payouts_in_transit", "NOWAIT");
      await requesting.query("COMMIT");
      expect(await reversing).toMatchObject({ status: "reversed" });
    } finally {
      await requesting.end();
    }
    expect(await accountBalances(world.db.database, world.shop.id, false)).toMatchObject({
      merchant_available: { USD: 3000 },
      payouts_in_transit: { USD: 0 },
    });
  });

  test("through the admin CLI", async () => {
    const { app, dependencies } = setup();
    await fund(world.db.database, world.shop, 900);
    const created = (await createPayout(app, world.shop.testKey, { amount_cents: 900 })).body;
    await processUntilFinal(dependencies, created);
    const cli = (...args: string[]) =>
      promisify(execFile)(process.execPath, ["services/admin/main.ts", ...args], {
        env: { PATH: process.env.PATH, DATABASE_URL: world.db.url, LOG_LEVEL: "silent" },
      });
    const reversed = JSON.parse((await cli("reverse-payout", "--payout", created.id, "--reason", "fraud")).stdout);
    expect(reversed).toMatchObject({ id: created.id, status: "reversed", reversal_reason: "fraud" });
    expect(await available(world.db.database, world.shop.id, false)).toBe(900);
    await expect(cli("reverse-payout", "--payout", created.id)).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('"code":"payout_not_confirmed"'),
    });
  });
});
