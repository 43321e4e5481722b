import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { promisify } from "node:util";
import pg from "pg";
import request from "supertest";
import { z } from "zod";
import { apiPost, apiSetup, TEST_ADMIN_TOKEN, type TestApp, testApp, testConfig } from "../../../tests/support/app.ts";
import { countingDatabase } from "../../../tests/support/counting-database.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/database.ts";
import { fund, newMerchant, type TestMerchant } from "../../../tests/support/factories.ts";
import { sampleValue } from "../../../tests/support/metrics.ts";
import {
  accountBalances,
  available,
  eventsAbout,
  eventually,
  jobsWithKey,
  ledgerTransactionsOf,
  postingsOf,
  sleep,
} from "../../../tests/support/money.ts";
import { CLAIM_LIMIT, runClaimed, startPoolPump } from "../../../tests/support/pumps.ts";
import { manualClock, waitUntil } from "../../../tests/support/time.ts";
import { createSandboxGateway } from "../../gateway/sandbox.ts";
import { type GatewaySimulator, startGatewaySimulator } from "../../gateway/simulator/app.ts";
import type { WalletGateway, WalletGateways } from "../../gateway/wallet-gateway.ts";
import { createDatabase, sql } from "../../platform/db/pool.ts";
import { claimRequestOf } from "../../platform/idempotency/service.ts";
import { createLogger } from "../../platform/telemetry/logger.ts";
import type { MerchantRow } from "../../platform/tenant.ts";
import { createPayoutWriter } from "./payout-writer.ts";
import { processDuePayoutsPump } from "./pumps/process-due-payouts.ts";
import * as payouts from "./service.ts";

const logger = createLogger({ level: "silent", service: "test" });
const admin = `Bearer ${TEST_ADMIN_TOKEN}`;
const WALLET = "263771234567";
let db: TestDatabase;
let shop: TestMerchant;

beforeAll(async () => {
  db = await createTestDatabase({ poolSize: 20 });
});
beforeEach(async () => {
  shop = await newMerchant(db.database, { payout_msisdn: WALLET, payout_verified: true });
});
afterAll(() => db.close());

/** Shortened sandbox time: settles 0.3 s after submission, the processor comes back every 0.4 s. */
const FAST = {
  PAYOUT_SETTLE_SECONDS: "0.3",
  PAYOUT_PROCESSOR_INTERVAL_SECONDS: "0.4",
  PAYOUT_RETRY_SECONDS: "0.2",
  RATE_LIMIT_REQUESTS: "10000",
  // The sandbox answers in-process; short gateway deadlines allow short leases in the crash tests.
  GATEWAY_TIMEOUT_MS: "100",
  GATEWAY_RETRIES: "0",
};

const setup = (environment: Record<string, string> = {}, gateways?: WalletGateways) =>
  apiSetup(db, { ...FAST, ...environment }, gateways);

const createPayout = (app: TestApp, key: string, body: unknown, idempotencyKey?: string) =>
  apiPost(app, "/v1/payouts", key, body, idempotencyKey);

const setDestination = (merchant: TestMerchant, msisdn: string, verified = true) =>
  request(testApp({ database: db.database, config: testConfig(db.url) }))
    .post(`/admin/v1/merchants/${merchant.id}/payout_destination`)
    .set("Authorization", admin)
    .send({ msisdn, verified })
    .expect(200);

async function payoutRow(id: string) {
  return db.database.one(
    sql.type(
      z.object({ status: z.string(), submit_attempts: z.number(), next_attempt_at: z.date() }),
    )`SELECT status, submit_attempts, next_attempt_at FROM payouts WHERE id = ${id}`,
  );
}

/** Runs the processor's passes as its jobs would, each at its scheduled time, until the payout is final. */
async function processUntilFinal(dependencies: payouts.PayoutDependencies, payout: { id: string }, passes = 10) {
  const { merchant_id: merchantId } = await payouts.getPayoutById(db.database, payout.id);
  for (let pass = 0; pass < passes; pass += 1) {
    const row = await payouts.processPayout(dependencies, { merchantId, payoutId: payout.id });
    if (row === null || !["requested", "submitted"].includes(row.status)) {
      return row;
    }
    await sleep(Math.max(0, row.next_attempt_at.getTime() - Date.now()) + 20);
  }
  return payouts.getPayoutById(db.database, payout.id);
}

/** One step of the processor's pump: the due payouts (at most `limit`) claimed and passed once. */
const runDue = async (dependencies: payouts.PayoutDependencies, limit = CLAIM_LIMIT) =>
  runClaimed(await payouts.claimDuePayoutPasses(dependencies, limit));

/**
 * As if the dying worker's lease had lapsed some time ago: moved into the past on the database clock,
 * which decides it.
 */
async function lapseLease(payoutId: string) {
  await db.database.query(sql.unsafe`
    UPDATE payouts SET lease_until = now() - interval '1 millisecond', next_attempt_at = now() - interval '1 hour'
    WHERE id = ${payoutId}`);
}

/**
 * A gateway that counts submissions per payout id at the sandbox's door. Its payouts settle 0.3 s
 * after submission on `clock`, which the test moves (the real clock unless given).
 */
function countingSandbox(clock: { now: () => number } = { now: Date.now }) {
  const sandbox = createSandboxGateway({ autoSettleMs: 18_000, payoutSettleMs: 300, now: clock.now });
  const submissions = new Map<string, number>();
  const gateway: WalletGateway = {
    ...sandbox,
    submitPayout: (submission) => {
      submissions.set(submission.payoutId, (submissions.get(submission.payoutId) ?? 0) + 1);
      return sandbox.submitPayout(submission);
    },
  };
  return { gateways: { test: gateway, live: gateway }, submissions };
}

describe("requesting a payout", () => {
  test("requested at once: the amount leaves the balance for payouts in transit, due for the processor, no job", async () => {
    const { app } = setup();
    await fund(db.database, shop, 10_000);
    const response = await createPayout(app, shop.testKey, { amount_cents: 2500 });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      object: "payout",
      livemode: false,
      status: "requested",
      amount_cents: 2500,
      currency: "USD",
      destination_account: WALLET,
      destination_name: null,
      failure_reason: null,
      submitted_at: null,
      confirmed_at: null,
    });
    expect(response.body.id).toMatch(/^po_[0-9A-Za-z]{24}$/);
    expect(response.body.reference).toMatch(/^PO[0-9A-Z]{12}$/);
    expect(await accountBalances(db.database, shop.id, false)).toMatchObject({
      merchant_available: { USD: 7500 },
      payouts_in_transit: { USD: 2500 },
    });
    expect(await postingsOf(db.database, response.body.id)).toEqual([
      { account: "payouts_in_transit", entry_type: "payout", currency: "USD", amount_cents: 2500 },
      { account: "merchant_available", entry_type: "payout", currency: "USD", amount_cents: -2500 },
    ]);
    // The processor's batch claim finds it by its row: due now, nothing submitted yet, no job enqueued.
    const row = await payoutRow(response.body.id);
    expect(row).toMatchObject({ status: "requested", submit_attempts: 0 });
    expect(row.next_attempt_at.getTime()).toBeLessThanOrEqual(Date.now());
    expect(await jobsWithKey(db.database, `payout:${response.body.id}`)).toEqual([]);
    // GET shows the same payout.
    const fetched = await request(app)
      .get(`/v1/payouts/${response.body.id}`)
      .set("Authorization", `Bearer ${shop.testKey}`);
    expect(fetched.body).toEqual(response.body);
  });

  test("402 insufficient_funds above the balance: nothing debited, nothing created; the reply is replayed", async () => {
    const { app } = setup();
    await fund(db.database, shop, 1000);
    const key = randomUUID();
    const refused = await createPayout(app, shop.testKey, { amount_cents: 1001 }, key);
    expect(refused.status).toBe(402);
    expect(refused.body.error).toMatchObject({ type: "insufficient_funds", code: "insufficient_funds" });
    expect(await accountBalances(db.database, shop.id, false)).toMatchObject({ merchant_available: { USD: 1000 } });
    expect((await accountBalances(db.database, shop.id, false)).payouts_in_transit).toBeUndefined();
    const replay = await createPayout(app, shop.testKey, { amount_cents: 1001 }, key);
    expect(replay.status).toBe(402);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    // A ZWG payout draws on the ZWG balance only.
    expect((await createPayout(app, shop.testKey, { amount_cents: 1, currency: "ZWG" })).status).toBe(402);
    expect(
      await db.database.oneFirst(sql.type(z.object({ count: z.number() }))`
        SELECT count(*)::int AS count FROM payouts WHERE merchant_id = ${shop.id}`),
    ).toBe(0);
  });

  test("403 payout_destination_unverified without a verified wallet, before any balance check", async () => {
    const { app } = setup();
    const noWallet = await newMerchant(db.database);
    await fund(db.database, noWallet, 5000);
    const missing = await createPayout(app, noWallet.testKey, { amount_cents: 100 });
    expect(missing.status).toBe(403);
    expect(missing.body.error).toMatchObject({ type: "auth_error", code: "payout_destination_unverified" });
    await setDestination(noWallet, "263771111111", false);
    const unverified = await createPayout(app, noWallet.testKey, { amount_cents: 100_000 });
    expect(unverified.status).toBe(403);
    expect(unverified.body.error.code).toBe("payout_destination_unverified");
    expect(await available(db.database, noWallet.id, false)).toBe(5000);
    await setDestination(noWallet, "263771111111", true);
    expect((await createPayout(app, noWallet.testKey, { amount_cents: 100 })).status).toBe(201);
  });

  test.each([
    ["zero", { amount_cents: 0 }, "invalid_amount"],
    ["fractional", { amount_cents: 1.5 }, "invalid_amount"],
    ["missing", {}, "invalid_amount"],
    ["too large", { amount_cents: 1_000_000_001 }, "invalid_amount"],
    ["an unknown currency", { amount_cents: 100, currency: "EUR" }, "invalid_currency"],
    ["an unknown field", { amount_cents: 100, destination: "263770000000" }, "parameter_unknown"],
  ])("refuses %s with 400", async (_, body, code) => {
    const { app } = setup();
    await fund(db.database, shop, 1000);
    const response = await createPayout(app, shop.testKey, body);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ type: "invalid_request", code });
    expect(await available(db.database, shop.id, false)).toBe(1000);
  });

  test("requires an Idempotency-Key; a retry with the same key moves nothing twice", async () => {
    const { app } = setup();
    await fund(db.database, shop, 1000);
    const missing = await request(app)
      .post("/v1/payouts")
      .set("Authorization", `Bearer ${shop.testKey}`)
      .send({ amount_cents: 100 });
    expect(missing.body.error.code).toBe("missing_idempotency_key");
    const key = randomUUID();
    const first = await createPayout(app, shop.testKey, { amount_cents: 300 }, key);
    const again = await createPayout(app, shop.testKey, { amount_cents: 300 }, key);
    expect(again.body.id).toBe(first.body.id);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(await available(db.database, shop.id, false)).toBe(700);
    expect((await createPayout(app, shop.testKey, { amount_cents: 301 }, key)).body.error.code).toBe(
      "idempotency_mismatch",
    );
  });

  test("one statement for the requests of a moment: the owner's answer with its debit and payout; a taken-over request writes nothing; an overdraft only fails itself", async () => {
    await fund(db.database, shop, 1000);
    const merchant = { payout_msisdn: WALLET, payout_verified: true } as MerchantRow;
    const tenant = { merchantId: shop.id, livemode: false, merchant };
    const claim = async () => {
      const request = claimRequestOf({ key: randomUUID(), method: "POST", path: "/v1/payouts", body: {} }, 30_000);
      await db.database.query(sql.unsafe`
        INSERT INTO idempotency_keys (merchant_id, livemode, key, request_method, request_path, request_fingerprint,
          state, owner_token, locked_until)
        VALUES (${shop.id}, false, ${request.key}, 'POST', '/v1/payouts', ${sql.binary(request.fingerprint)},
          'in_flight', ${request.ownerToken}, now() + interval '30 seconds')`);
      return { merchantId: shop.id, livemode: false, key: request.key, ownerToken: request.ownerToken };
    };
    const record = (key: string) =>
      db.database.one(sql.type(z.object({ state: z.string(), response_body: z.string().nullable() }))`
        SELECT state, response_body FROM idempotency_keys WHERE merchant_id = ${shop.id} AND key = ${key}`);
    const payoutCount = () =>
      db.database.oneFirst(sql.type(z.object({ count: z.number() }))`
        SELECT count(*)::int AS count FROM payouts WHERE merchant_id = ${shop.id}`);

    // Three requests of one moment, written in one statement by the process's writer: one whose key a
    // retry took over (its owner token no longer owns it), one that owns its key, one above the balance.
    const write = createPayoutWriter(db.database);
    const [lost, owned, tooMuch] = [await claim(), await claim(), await claim()];
    let id = "";
    const [takenOver, written, refused] = await Promise.allSettled([
      payouts.requestPayout(write, tenant, { amount_cents: 400, currency: "USD" }, (_, store) =>
        store({ ...lost, ownerToken: randomUUID(), status: 201, body: "{}" }),
      ),
      payouts.requestPayout(write, tenant, { amount_cents: 400, currency: "USD" }, (payout, store) => {
        id = payout.id;
        return store({ ...owned, status: 201, body: JSON.stringify({ id: payout.id }) });
      }),
      payouts.requestPayout(write, tenant, { amount_cents: 1001, currency: "USD" }, (_, store) =>
        store({ ...tooMuch, status: 201, body: "{}" }),
      ),
    ]);
    // The taken-over request wrote nothing: no debit, no payout, its record still the retry's.
    expect(takenOver).toEqual({ status: "fulfilled", value: false });
    expect(await record(lost.key)).toEqual({ state: "in_flight", response_body: null });
    // The owner: its answer, the debit and the payout committed together.
    expect(written).toEqual({ status: "fulfilled", value: true });
    expect(await record(owned.key)).toEqual({ state: "completed", response_body: JSON.stringify({ id }) });
    expect(await ledgerTransactionsOf(db.database, id)).toHaveLength(1);
    // Above the balance: 402 (it failed the batch's statement; written alone, it fails alone), nothing
    // written for it (the request then stores its 402 answer itself).
    expect(refused).toMatchObject({ status: "rejected", reason: { status: 402, code: "insufficient_funds" } });
    expect(await record(tooMuch.key)).toEqual({ state: "in_flight", response_body: null });
    expect(await payoutCount()).toBe(1);
    expect(await accountBalances(db.database, shop.id, false)).toMatchObject({
      merchant_available: { USD: 600 },
      payouts_in_transit: { USD: 400 },
    });
  });

  test("50 concurrent payouts racing one balance never overdraw it", async () => {
    const { app } = setup();
    await fund(db.database, shop, 1000);
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => createPayout(app, shop.testKey, { amount_cents: 100 })),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(10);
    expect(statuses.filter((status) => status === 402)).toHaveLength(40);
    expect(await accountBalances(db.database, shop.id, false)).toMatchObject({
      merchant_available: { USD: 0 },
      payouts_in_transit: { USD: 1000 },
    });
    expect(
      await db.database.oneFirst(sql.type(z.object({ count: z.number() }))`
        SELECT count(*)::int AS count FROM payouts WHERE merchant_id = ${shop.id}`),
    ).toBe(10);
  });
});

describe("payout states (test world, sandbox timing shortened)", () => {
  test("requested → submitted at once → confirmed on the next pass after settling: payout.confirmed", async () => {
    const clock = manualClock();
    const { app, dependencies } = setup({}, countingSandbox(clock).gateways);
    await fund(db.database, shop, 5000);
    const created = (await createPayout(app, shop.testKey, { amount_cents: 1200 })).body;
    const confirmedBefore = await sampleValue("pos_payouts_total", {
      status: "confirmed",
      livemode: "false",
      currency: "USD",
    });
    const before = Date.now();
    const submitted = await payouts.processPayout(dependencies, { merchantId: shop.id, payoutId: created.id });
    expect(submitted).toMatchObject({ status: "submitted", submit_attempts: 1 });
    expect(submitted?.destination_name).toMatch(/^[A-Z][a-z]+ [A-Z][a-z]+$/);
    // The next pass comes one processor interval (0.4 s) later, by which time it has settled (0.3 s).
    expect((submitted?.next_attempt_at.getTime() ?? 0) - before).toBeGreaterThanOrEqual(400);
    clock.advance(400);
    const confirmed = await payouts.processPayout(dependencies, { merchantId: shop.id, payoutId: created.id });
    expect(confirmed).toMatchObject({ status: "confirmed" });
    const body = (await request(app).get(`/v1/payouts/${created.id}`).set("Authorization", `Bearer ${shop.testKey}`))
      .body;
    expect(body).toMatchObject({ status: "confirmed", failure_reason: null });
    expect(Date.parse(body.confirmed_at)).toBeGreaterThanOrEqual(Date.parse(body.submitted_at));
    expect(await eventsAbout(db.database, "payout_id", created.id)).toEqual([
      {
        type: "payout.confirmed",
        livemode: false,
        data: { payout_id: created.id, amount_cents: 1200, currency: "USD", reference: created.reference },
      },
    ]);
    expect(await accountBalances(db.database, shop.id, false)).toMatchObject({
      merchant_available: { USD: 3800 },
      payouts_in_transit: { USD: 0 },
      gateway_clearing: { USD: -5000 + 1200 },
    });
    expect(await sampleValue("pos_payouts_total", { status: "confirmed", livemode: "false", currency: "USD" })).toBe(
      confirmedBefore + 1,
    );
    // A late duplicate job changes nothing.
    await payouts.processPayout(dependencies, { merchantId: shop.id, payoutId: created.id });
    expect(await ledgerTransactionsOf(db.database, created.id)).toHaveLength(2);
  });

  test("a destination ending 0000 is rejected when it settles: failed, exactly the amount restored, payout.failed", async () => {
    const { app, dependencies } = setup();
    await setDestination(shop, "263770000000");
    await fund(db.database, shop, 5000);
    await fund(db.database, shop, 700, false, "ZWG");
    const created = (await createPayout(app, shop.testKey, { amount_cents: 4321 })).body;
    expect(await available(db.database, shop.id, false)).toBe(679);
    const failed = await processUntilFinal(dependencies, created);
    expect(failed).toMatchObject({ status: "failed" });
    expect(failed?.failure_reason).toContain("0000");
    expect(failed?.submitted_at).not.toBeNull();
    expect(await accountBalances(db.database, shop.id, false)).toMatchObject({
      merchant_available: { USD: 5000, ZWG: 700 },
      payouts_in_transit: { USD: 0 },
    });
    const [event] = await eventsAbout(db.database, "payout_id", created.id);
    expect(event).toMatchObject({
      type: "payout.failed",
      data: { payout_id: created.id, amount_cents: 4321, currency: "USD", reason: failed?.failure_reason },
    });
    const transactions = await ledgerTransactionsOf(db.database, created.id);
    expect(transactions).toHaveLength(2);
    expect(transactions[1]?.reverses_transaction_id).toBe(transactions[0]?.id);
    const entries = await request(setup().app)
      .get("/v1/ledger?entry_type=reversal")
      .set("Authorization", `Bearer ${shop.testKey}`);
    expect(entries.body.data.map((entry: { amount_cents: number }) => entry.amount_cents)).toEqual([4321]);
  });

  test("a destination ending 0096: the first submission fails transiently, is retried internally, and completes", async () => {
    const { gateways, submissions } = countingSandbox();
    const { app, dependencies } = setup({}, gateways);
    await setDestination(shop, "263771230096");
    await fund(db.database, shop, 5000);
    const created = (await createPayout(app, shop.testKey, { amount_cents: 800 })).body;
    const before = Date.now();
    const first = await payouts.processPayout(dependencies, { merchantId: shop.id, payoutId: created.id });
    expect(first).toMatchObject({ status: "requested", submit_attempts: 1 });
    // Looked at again after PAYOUT_RETRY_SECONDS, not at once.
    expect((first?.next_attempt_at.getTime() ?? 0) - before).toBeGreaterThanOrEqual(200);
    const confirmed = await processUntilFinal(dependencies, created);
    expect(confirmed).toMatchObject({ status: "confirmed", submit_attempts: 2 });
    expect(submissions.get(created.id)).toBe(2);
    expect(await available(db.database, shop.id, false)).toBe(4200);
    expect((await eventsAbout(db.database, "payout_id", created.id)).map((event) => event.type)).toEqual([
      "payout.confirmed",
    ]);
  });
});

describe("an operator reverses a confirmed payout", () => {
  test("reversed, payout.reversed, the money returns; only once, only when confirmed, only for operators", async () => {
    const { app, dependencies } = setup();
    await fund(db.database, shop, 3000);
    const created = (await createPayout(app, shop.testKey, { amount_cents: 1000 })).body;
    const reverse = (id: string, body: object = {}) =>
      request(app).post(`/admin/v1/payouts/${id}/reverse`).set("Authorization", admin).send(body);
    const early = await reverse(created.id);
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe("payout_not_confirmed");
    await processUntilFinal(dependencies, created);
    expect(await available(db.database, shop.id, false)).toBe(2000);

    expect((await request(app).post(`/admin/v1/payouts/${created.id}/reverse`).send({})).status).toBe(401);
    const reversed = await reverse(created.id, { reason: "wallet provider recalled it" });
    expect(reversed.status).toBe(200);
    expect(reversed.body).toMatchObject({
      id: created.id,
      status: "reversed",
      merchant_id: shop.id,
      reversal_reason: "wallet provider recalled it",
    });
    expect(reversed.body.reversed_at).not.toBeNull();
    expect(await accountBalances(db.database, shop.id, false)).toMatchObject({
      merchant_available: { USD: 3000 },
      payouts_in_transit: { USD: 0 },
      gateway_clearing: { USD: -3000 },
    });
    expect((await eventsAbout(db.database, "payout_id", created.id)).map((event) => event.type)).toEqual([
      "payout.confirmed",
      "payout.reversed",
    ]);
    expect((await reverse(created.id)).body.error.code).toBe("payout_not_confirmed");
    expect((await reverse("po_missing")).status).toBe(404);
    expect(await ledgerTransactionsOf(db.database, created.id)).toHaveLength(4);
    expect(await available(db.database, shop.id, false)).toBe(3000);
  });

  test("a reversal takes the balances in the order a payout request does: a request meanwhile waits, never deadlocks", async () => {
    const { app, dependencies } = setup();
    await fund(db.database, shop, 3000);
    const created = (await createPayout(app, shop.testKey, { amount_cents: 1000 })).body;
    await processUntilFinal(dependencies, created);
    // A payout request's statement between its two balance locks: available taken, in transit next.
    const requesting = new pg.Client({ connectionString: db.url });
    await requesting.connect();
    const lockBalance = (account: string, wait: "" | "NOWAIT") =>
      requesting.query(
        `SELECT balance_cents FROM ledger_balances
         WHERE merchant_id = $1 AND livemode = false AND account = $2 AND currency = 'USD' FOR UPDATE ${wait}`,
        [shop.id, account],
      );
    try {
      await requesting.query("BEGIN");
      await lockBalance("merchant_available", "");
      const reversing = payouts.reversePayout(db.database, created.id, { reason: "recalled" });
      await waitUntil("the reversal waits for the available balance", async () => {
        const waiting = await db.database.oneFirst(sql.type(z.object({ count: z.number() }))`
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
    expect(await accountBalances(db.database, shop.id, false)).toMatchObject({
      merchant_available: { USD: 3000 },
      payouts_in_transit: { USD: 0 },
    });
  });

  test("through the admin CLI", async () => {
    const { app, dependencies } = setup();
    await fund(db.database, shop, 900);
    const created = (await createPayout(app, shop.testKey, { amount_cents: 900 })).body;
    await processUntilFinal(dependencies, created);
    const cli = (...args: string[]) =>
      promisify(execFile)(process.execPath, ["services/admin/main.ts", ...args], {
        env: { PATH: process.env.PATH, DATABASE_URL: db.url, LOG_LEVEL: "silent" },
      });
    const reversed = JSON.parse((await cli("reverse-payout", "--payout", created.id, "--reason", "fraud")).stdout);
    expect(reversed).toMatchObject({ id: created.id, status: "reversed", reversal_reason: "fraud" });
    expect(await available(db.database, shop.id, false)).toBe(900);
    await expect(cli("reverse-payout", "--payout", created.id)).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('"code":"payout_not_confirmed"'),
    });
  });
});

describe("a worker killed mid-payout", () => {
  test("killed after the gateway accepted the submission, before recording it: no second submission, no lost payout", async () => {
    const { gateways, submissions } = countingSandbox();
    const { app, config } = setup({ MONEY_OUT_LEASE_SECONDS: "60" }, gateways);
    await fund(db.database, shop, 2000);
    const created = (await createPayout(app, shop.testKey, { amount_cents: 700 })).body;
    // The dying worker: its submission reaches the gateway, and the process dies before the answer is used.
    const dying: WalletGateway = {
      ...gateways.test,
      submitPayout: async (submission) => {
        await gateways.test.submitPayout(submission);
        return new Promise<never>(() => {});
      },
    };
    void payouts.processPayout(
      { config, database: db.database, logger, gateways: { test: dying, live: dying } },
      { merchantId: shop.id, payoutId: created.id },
    );
    await eventually(async () => submissions.get(created.id) === 1);
    expect((await payoutRow(created.id)).submit_attempts).toBe(1);
    // While its lease lasts the processor's claim leaves it alone; once the lease has lapsed the claim
    // takes it again, and the pass asks the gateway first and finds the submission.
    const processor = { config, database: db.database, logger, gateways };
    await runDue(processor);
    expect(await payoutRow(created.id)).toMatchObject({ status: "requested", submit_attempts: 1 });
    await lapseLease(created.id);
    await runDue(processor);
    // Submitted, or already confirmed if the sandbox settled it meanwhile (0.3 s): never submitted again.
    const recovered = await payoutRow(created.id);
    expect(["submitted", "confirmed"]).toContain(recovered.status);
    expect(recovered.submit_attempts).toBe(1);
    expect(submissions.get(created.id)).toBe(1);
    const final = await processUntilFinal(processor, created);
    expect(final).toMatchObject({ status: "confirmed", submit_attempts: 1 });
    expect(submissions.get(created.id)).toBe(1);
    expect(await available(db.database, shop.id, false)).toBe(1300);
    expect(await ledgerTransactionsOf(db.database, created.id)).toHaveLength(2);
  });

  test("killed after the gateway accepted it, found completed by the recovered pass: submitted and confirmed in one update", async () => {
    const clock = manualClock();
    const { gateways, submissions } = countingSandbox(clock);
    const { app, config } = setup({ MONEY_OUT_LEASE_SECONDS: "60" }, gateways);
    await fund(db.database, shop, 2000);
    const created = (await createPayout(app, shop.testKey, { amount_cents: 650 })).body;
    const dying: WalletGateway = {
      ...gateways.test,
      submitPayout: async (submission) => {
        await gateways.test.submitPayout(submission);
        return new Promise<never>(() => {});
      },
    };
    void payouts.processPayout(
      { config, database: db.database, logger, gateways: { test: dying, live: dying } },
      { merchantId: shop.id, payoutId: created.id },
    );
    await eventually(async () => submissions.get(created.id) === 1);
    const metric = (status: string) => sampleValue("pos_payouts_total", { status, livemode: "false", currency: "USD" });
    const [submittedBefore, confirmedBefore] = [await metric("submitted"), await metric("confirmed")];
    // Settled at the gateway (0.3 s after the recorded attempt, on the database's clock) by the time the
    // recovered pass asks. (A direct pass: the batch claim would also pass earlier tests' payouts, and
    // the counts compared here are the process's.)
    clock.advance(5000);
    await lapseLease(created.id);
    await payouts.processPayout(
      { config, database: db.database, logger, gateways },
      { merchantId: shop.id, payoutId: created.id },
    );
    const body = (await request(app).get(`/v1/payouts/${created.id}`).set("Authorization", `Bearer ${shop.testKey}`))
      .body;
    expect(body).toMatchObject({ status: "confirmed", failure_reason: null });
    expect(body.submitted_at).not.toBeNull();
    expect(body.destination_name).toMatch(/^[A-Z][a-z]+ [A-Z][a-z]+$/);
    expect(submissions.get(created.id)).toBe(1);
    expect([await metric("submitted"), await metric("confirmed")]).toEqual([submittedBefore + 1, confirmedBefore + 1]);
    expect((await eventsAbout(db.database, "payout_id", created.id)).map((event) => event.type)).toEqual([
      "payout.confirmed",
    ]);
    expect(await ledgerTransactionsOf(db.database, created.id)).toHaveLength(2);
    expect(await accountBalances(db.database, shop.id, false)).toMatchObject({
      merchant_available: { USD: 1350 },
      payouts_in_transit: { USD: 0 },
    });
  });

  test("killed between submitted and confirmed: the recovered pass confirms once, without submitting again", async () => {
    const clock = manualClock();
    const { gateways, submissions } = countingSandbox(clock);
    const { app, config, dependencies } = setup({ MONEY_OUT_LEASE_SECONDS: "60" }, gateways);
    await fund(db.database, shop, 2000);
    const created = (await createPayout(app, shop.testKey, { amount_cents: 500 })).body;
    expect(await payouts.processPayout(dependencies, { merchantId: shop.id, payoutId: created.id })).toMatchObject({
      status: "submitted",
    });
    // Settled at the gateway by the time the dying pass asks.
    clock.advance(300);
    let inquiries = 0;
    const dying: WalletGateway = {
      ...gateways.test,
      inquirePayout: async (inquiry) => {
        inquiries += 1;
        await gateways.test.inquirePayout(inquiry);
        return new Promise<never>(() => {});
      },
    };
    void payouts.processPayout(
      { config, database: db.database, logger, gateways: { test: dying, live: dying } },
      { merchantId: shop.id, payoutId: created.id },
    );
    await eventually(async () => inquiries === 1);
    // Another pass meanwhile (a direct call, the processor's claim) cannot act while the dying worker's lease lasts.
    expect(await payouts.processPayout(dependencies, { merchantId: shop.id, payoutId: created.id })).toMatchObject({
      status: "submitted",
    });
    await runDue(dependencies);
    expect(await payoutRow(created.id)).toMatchObject({ status: "submitted" });
    // Once it has lapsed, the processor's claim takes the payout again and confirms it.
    await lapseLease(created.id);
    await runDue(dependencies);
    expect(await payoutRow(created.id)).toMatchObject({ status: "confirmed" });
    expect(submissions.get(created.id)).toBe(1);
    expect((await eventsAbout(db.database, "payout_id", created.id)).map((event) => event.type)).toEqual([
      "payout.confirmed",
    ]);
  });
});

describe("listing and isolation", () => {
  test("filters by status and time, pages newest first, never shows another merchant's or the other world's", async () => {
    const { app, dependencies } = setup();
    await fund(db.database, shop, 10_000);
    await fund(db.database, shop, 10_000, true);
    const ids: string[] = [];
    for (let index = 0; index < 5; index += 1) {
      ids.push((await createPayout(app, shop.testKey, { amount_cents: 100 + index })).body.id);
    }
    await processUntilFinal(dependencies, { id: ids[0] as string });
    const live = (await createPayout(app, shop.liveKey, { amount_cents: 100 })).body;
    const other = await newMerchant(db.database, { payout_msisdn: "263772222222", payout_verified: true });
    await fund(db.database, other, 1000);
    const foreign = (await createPayout(app, other.testKey, { amount_cents: 100 })).body;

    const list = (query: string, key = shop.testKey) =>
      request(app).get(`/v1/payouts${query}`).set("Authorization", `Bearer ${key}`);
    const firstPage = await list("?limit=2");
    expect(firstPage.body.data.map((payout: { id: string }) => payout.id)).toEqual([ids[4], ids[3]]);
    expect(firstPage.body.has_more).toBe(true);
    const rest = await list(`?limit=10&cursor=${firstPage.body.next_cursor}`);
    expect(rest.body.data.map((payout: { id: string }) => payout.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(rest.body).toMatchObject({ has_more: false, next_cursor: null });
    expect((await list("?status=confirmed")).body.data.map((payout: { id: string }) => payout.id)).toEqual([ids[0]]);
    expect((await list("?status=requested")).body.data).toHaveLength(4);
    expect((await list(`?from=${new Date(Date.now() + 60_000).toISOString()}`)).body.data).toEqual([]);
    expect((await list("?to=2000-01-01")).body.data).toEqual([]);
    expect((await list("", shop.liveKey)).body.data.map((payout: { id: string }) => payout.id)).toEqual([live.id]);
    expect((await list("?limit=101")).status).toBe(400);
    expect((await list("?cursor=nonsense")).body.error.code).toBe("parameter_invalid");
    expect((await list("?status=paid")).status).toBe(400);

    const get = (id: string, key: string) =>
      request(app).get(`/v1/payouts/${id}`).set("Authorization", `Bearer ${key}`);
    expect((await get(foreign.id, shop.testKey)).status).toBe(404);
    expect((await get(live.id, shop.testKey)).status).toBe(404);
    expect((await get(ids[1] as string, shop.liveKey)).status).toBe(404);
    expect((await get(live.id, shop.liveKey)).status).toBe(200);
  });

  test("test and live balances never mix: a live payout cannot draw on the test balance", async () => {
    const { app } = setup();
    await fund(db.database, shop, 5000);
    const live = await createPayout(app, shop.liveKey, { amount_cents: 100 });
    expect(live.status).toBe(402);
    await fund(db.database, shop, 300, true);
    expect((await createPayout(app, shop.liveKey, { amount_cents: 300 })).status).toBe(201);
    expect(await available(db.database, shop.id, false)).toBe(5000);
    expect(await available(db.database, shop.id, true)).toBe(0);
  });
});

describe("the payout-processor pool", () => {
  test("without any direct call, its pump confirms one payout and fails another (0000), each exactly once", async () => {
    const { app, config, dependencies } = setup({ WORKER_POLL_INTERVAL_MS: "50" });
    const rejecting = await newMerchant(db.database, { payout_msisdn: "263779990000", payout_verified: true });
    await fund(db.database, shop, 1000);
    await fund(db.database, rejecting, 1000);
    const pump = startPoolPump("payout-processor", processDuePayoutsPump(dependencies.gateways), {
      config,
      database: db.database,
      databaseUrl: db.url,
      logger,
    });
    try {
      const confirming = (await createPayout(app, shop.testKey, { amount_cents: 600 })).body;
      const failing = (await createPayout(app, rejecting.testKey, { amount_cents: 600 })).body;
      const statuses = async () =>
        Promise.all(
          [confirming.id, failing.id].map(async (id) => (await payouts.getPayoutById(db.database, id)).status),
        );
      await eventually(async () => (await statuses()).join() === "confirmed,failed");
      expect(await available(db.database, shop.id, false)).toBe(400);
      expect(await available(db.database, rejecting.id, false)).toBe(1000);
      expect((await eventsAbout(db.database, "payout_id", confirming.id)).map((event) => event.type)).toEqual([
        "payout.confirmed",
      ]);
      expect((await eventsAbout(db.database, "payout_id", failing.id)).map((event) => event.type)).toEqual([
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
      const again = await payouts.processPayout(processor(own.database), {
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
        await payouts.processPayout(processor(own.database), {
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
    const shops = [shop, ...(await Promise.all([1, 2].map(() => newMerchant(db.database))))];
    await Promise.all(shops.map((merchant) => setDestination(merchant, WALLET)));
    await Promise.all(shops.map((merchant) => fund(db.database, merchant, 100_000)));
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
        createDatabase({ url: db.url, poolSize: 10, statementTimeoutMs: 30_000, logger, applicationName: "replica" }),
      ),
    );
    try {
      const unfinished = async () =>
        db.database.oneFirst(sql.type(z.object({ count: z.number() }))`
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
        expect(await ledgerTransactionsOf(db.database, id)).toHaveLength(2);
        expect((await eventsAbout(db.database, "payout_id", id)).map((event) => event.type)).toEqual([
          "payout.confirmed",
        ]);
      }
      for (const merchant of shops) {
        expect(await accountBalances(db.database, merchant.id, false)).toMatchObject({
          payouts_in_transit: { USD: 0 },
        });
      }
    } finally {
      await Promise.all(replicas.map((replica) => replica.end()));
    }
  });
});

describe("live payouts, through the gateway simulator", () => {
  let simulator: GatewaySimulator;
  beforeAll(async () => {
    simulator = await startGatewaySimulator({ port: 0, apiKey: "gwsim_payouts", logger, payoutSettleMs: 300 });
  });
  afterAll(() => simulator.stop());

  const live = (environment: Record<string, string> = {}) =>
    setup({
      GATEWAY_URL: simulator.url,
      GATEWAY_API_KEY: "gwsim_payouts",
      GATEWAY_TIMEOUT_MS: "5000",
      GATEWAY_RETRIES: "2",
      ...environment,
    });

  test("requested → submitted → confirmed; the simulator credits the merchant's wallet once", async () => {
    const { app, dependencies } = live();
    await fund(db.database, shop, 5000, true);
    const created = (await createPayout(app, shop.liveKey, { amount_cents: 1500 })).body;
    expect(created).toMatchObject({ livemode: true, status: "requested" });
    const submitted = await payouts.processPayout(dependencies, { merchantId: shop.id, payoutId: created.id });
    expect(submitted).toMatchObject({ status: "submitted" });
    expect(simulator.state.payouts.get(created.id)).toMatchObject({ status: "processing", submissions: 1 });
    const confirmed = await processUntilFinal(dependencies, created);
    expect(confirmed).toMatchObject({ status: "confirmed" });
    expect(simulator.state.wallets.get(WALLET)?.get("USD")).toBeGreaterThanOrEqual(1500);
    expect(await available(db.database, shop.id, true)).toBe(3500);
    expect(await available(db.database, shop.id, false)).toBe(0);
    expect(
      (await eventsAbout(db.database, "payout_id", created.id)).map((event) => [event.type, event.livemode]),
    ).toEqual([["payout.confirmed", true]]);
  });

  test("the network rejects (0000): failed and restored; a transient fault (0096) is retried by the client", async () => {
    const { app, dependencies } = live();
    await setDestination(shop, "263775550000");
    await fund(db.database, shop, 5000, true);
    const rejected = (await createPayout(app, shop.liveKey, { amount_cents: 1000 })).body;
    expect(await processUntilFinal(dependencies, rejected)).toMatchObject({
      status: "failed",
      failure_reason: "the destination wallet is closed",
    });
    expect(await available(db.database, shop.id, true)).toBe(5000);

    await setDestination(shop, "263775550096");
    const transient = (await createPayout(app, shop.liveKey, { amount_cents: 1000 })).body;
    expect(await processUntilFinal(dependencies, transient)).toMatchObject({ status: "confirmed", submit_attempts: 1 });
    expect(simulator.state.payouts.get(transient.id)?.submissions).toBe(1);
  });

  test("an unanswered submission (timeout) is settled by inquiry: the gateway pays once", async () => {
    const { app, dependencies } = live({
      // The faulted call hangs until this deadline; the others must never reach it, however slow the machine.
      GATEWAY_TIMEOUT_MS: "3000",
      GATEWAY_RETRIES: "0",
      MONEY_OUT_LEASE_SECONDS: "60",
    });
    await fund(db.database, shop, 5000, true);
    const created = (await createPayout(app, shop.liveKey, { amount_cents: 400 })).body;
    await fetch(`${simulator.url}/sim/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ operation: "submit_payout", mode: "timeout", count: 1 }),
    });
    const unclear = await payouts.processPayout(dependencies, { merchantId: shop.id, payoutId: created.id });
    expect(unclear).toMatchObject({ status: "requested", submit_attempts: 1 });
    // The timed-out call never reached the simulator's payouts; the next pass asks, finds nothing, submits.
    expect(simulator.state.payouts.has(created.id)).toBe(false);
    expect(await processUntilFinal(dependencies, created)).toMatchObject({ status: "confirmed", submit_attempts: 2 });
    expect(simulator.state.payouts.get(created.id)?.submissions).toBe(1);
  });

  test("killed after the simulator accepted the submission: recovered by inquiry, submitted once", async () => {
    const { app, config, dependencies } = live({
      GATEWAY_TIMEOUT_MS: "10000",
      GATEWAY_RETRIES: "0",
      MONEY_OUT_LEASE_SECONDS: "60",
    });
    await fund(db.database, shop, 5000, true);
    const created = (await createPayout(app, shop.liveKey, { amount_cents: 250 })).body;
    const real = dependencies.gateways.live;
    const dying: WalletGateway = {
      ...real,
      submitPayout: async (submission) => {
        await real.submitPayout(submission);
        return new Promise<never>(() => {});
      },
    };
    void payouts.processPayout(
      { config, database: db.database, logger, gateways: { test: dying, live: dying } },
      { merchantId: shop.id, payoutId: created.id },
    );
    await eventually(async () => simulator.state.payouts.has(created.id));
    await lapseLease(created.id);
    await runDue(dependencies);
    const recovered = await payoutRow(created.id);
    expect(["submitted", "confirmed"]).toContain(recovered.status);
    expect(recovered.submit_attempts).toBe(1);
    expect(await processUntilFinal(dependencies, created)).toMatchObject({ status: "confirmed", submit_attempts: 1 });
    expect(simulator.state.payouts.get(created.id)?.submissions).toBe(1);
    expect(await ledgerTransactionsOf(db.database, created.id)).toHaveLength(2);
  });
});
