import { randomUUID } from "node:crypto";
import request from "supertest";
import { z } from "zod";
import { fund, newMerchant } from "../../../tests/support/factories.ts";
import {
  accountBalances,
  available,
  jobsWithKey,
  ledgerTransactionsOf,
  postingsOf,
} from "../../../tests/support/money.ts";
import { createPayout, payoutsTestWorld, WALLET } from "../../../tests/support/payouts.ts";
import { sql } from "../../platform/db/pool.ts";
import { claimRequestOf, type ResponseToStore } from "../../platform/idempotency/service.ts";
import type { MerchantRow } from "../../platform/tenant.ts";
import { createPayoutWriter } from "./batch-writers.ts";
import { requestPayout } from "./request.ts";

/** Requesting payouts (the debit, the stored answer, one statement for a moment's requests) and reading them. */

const world = payoutsTestWorld();
const { setup, setDestination, payoutRow, processUntilFinal } = world;

describe("requesting a payout", () => {
  test("requested at once: the amount leaves the balance for payouts in transit, due for the processor, no job", async () => {
    const { app } = setup();
    await fund(world.db.database, world.shop, 10_000);
    const response = await createPayout(app, world.shop.testKey, { amount_cents: 2500 });
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
    expect(await accountBalances(world.db.database, world.shop.id, false)).toMatchObject({
      merchant_available: { USD: 7500 },
      payouts_in_transit: { USD: 2500 },
    });
    expect(await postingsOf(world.db.database, response.body.id)).toEqual([
      { account: "payouts_in_transit", entry_type: "payout", currency: "USD", amount_cents: 2500 },
      { account: "merchant_available", entry_type: "payout", currency: "USD", amount_cents: -2500 },
    ]);
    // The processor's batch claim finds it by its row: due now, nothing submitted yet, no job enqueued.
    const row = await payoutRow(response.body.id);
    expect(row).toMatchObject({ status: "requested", submit_attempts: 0 });
    expect(row.next_attempt_at.getTime()).toBeLessThanOrEqual(Date.now());
    expect(await jobsWithKey(world.db.database, `payout:${response.body.id}`)).toEqual([]);
    // GET shows the same payout.
    const fetched = await request(app)
      .get(`/v1/payouts/${response.body.id}`)
      .set("Authorization", `Bearer ${world.shop.testKey}`);
    expect(fetched.body).toEqual(response.body);
  });

  test("402 insufficient_funds above the balance: nothing debited, nothing created; the reply is replayed", async () => {
    const { app } = setup();
    await fund(world.db.database, world.shop, 1000);
    const key = randomUUID();
    const refused = await createPayout(app, world.shop.testKey, { amount_cents: 1001 }, key);
    expect(refused.status).toBe(402);
    expect(refused.body.error).toMatchObject({ type: "insufficient_funds", code: "insufficient_funds" });
    expect(await accountBalances(world.db.database, world.shop.id, false)).toMatchObject({
      merchant_available: { USD: 1000 },
    });
    expect((await accountBalances(world.db.database, world.shop.id, false)).payouts_in_transit).toBeUndefined();
    const replay = await createPayout(app, world.shop.testKey, { amount_cents: 1001 }, key);
    expect(replay.status).toBe(402);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    // A ZWG payout draws on the ZWG balance only.
    expect((await createPayout(app, world.shop.testKey, { amount_cents: 1, currency: "ZWG" })).status).toBe(402);
    expect(
      await world.db.database.oneFirst(sql.type(z.object({ count: z.number() }))`
        SELECT count(*)::int AS count FROM payouts WHERE merchant_id = ${world.shop.id}`),
    ).toBe(0);
  });

  test("403 payout_destination_unverified without a verified wallet, before any balance check", async () => {
    const { app } = setup();
    const noWallet = await newMerchant(world.db.database);
    await fund(world.db.database, noWallet, 5000);
    const missing = await createPayout(app, noWallet.testKey, { amount_cents: 100 });
    expect(missing.status).toBe(403);
    expect(missing.body.error).toMatchObject({ type: "auth_error", code: "payout_destination_unverified" });
    await setDestination(noWallet, "263771111111", false);
    const unverified = await createPayout(app, noWallet.testKey, { amount_cents: 100_000 });
    expect(unverified.status).toBe(403);
    expect(unverified.body.error.code).toBe("payout_destination_unverified");
    expect(await available(world.db.database, noWallet.id, false)).toBe(5000);
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
    await fund(world.db.database, world.shop, 1000);
    const response = await createPayout(app, world.shop.testKey, body);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ type: "invalid_request", code });
    expect(await available(world.db.database, world.shop.id, false)).toBe(1000);
  });

  test("requires an Idempotency-Key; a retry with the same key moves nothing twice", async () => {
    const { app } = setup();
    await fund(world.db.database, world.shop, 1000);
    const missing = await request(app)
      .post("/v1/payouts")
      .set("Authorization", `Bearer ${world.shop.testKey}`)
      .send({ amount_cents: 100 });
    expect(missing.body.error.code).toBe("missing_idempotency_key");
    const key = randomUUID();
    const first = await createPayout(app, world.shop.testKey, { amount_cents: 300 }, key);
    const again = await createPayout(app, world.shop.testKey, { amount_cents: 300 }, key);
    expect(again.body.id).toBe(first.body.id);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(await available(world.db.database, world.shop.id, false)).toBe(700);
    expect((await createPayout(app, world.shop.testKey, { amount_cents: 301 }, key)).body.error.code).toBe(
      "idempotency_mismatch",
    );
  });

  test("one statement for the requests of a moment: the owner's answer with its debit and payout; a taken-over request writes nothing; an overdraft only fails itself", async () => {
    await fund(world.db.database, world.shop, 1000);
    const merchant = { payout_msisdn: WALLET, payout_verified: true } as MerchantRow;
    const tenant = { merchantId: world.shop.id, livemode: false, merchant };
    const claim = async () => {
      const request = claimRequestOf({ key: randomUUID(), method: "POST", path: "/v1/payouts", body: {} }, 30_000);
      await world.db.database.query(sql.unsafe`
        INSERT INTO idempotency_keys (merchant_id, livemode, key, request_method, request_path, request_fingerprint,
          state, owner_token, locked_until)
        VALUES (${world.shop.id}, false, ${request.key}, 'POST', '/v1/payouts', ${sql.binary(request.fingerprint)},
          'in_flight', ${request.ownerToken}, now() + interval '30 seconds')`);
      return { merchantId: world.shop.id, livemode: false, key: request.key, ownerToken: request.ownerToken };
    };
    const record = (key: string) =>
      world.db.database.one(sql.type(z.object({ state: z.string(), response_body: z.string().nullable() }))`
        SELECT state, response_body FROM idempotency_keys WHERE merchant_id = ${world.shop.id} AND key = ${key}`);
    const payoutCount = () =>
      world.db.database.oneFirst(sql.type(z.object({ count: z.number() }))`
        SELECT count(*)::int AS count FROM payouts WHERE merchant_id = ${world.shop.id}`);

    // Three requests of one moment, written in one statement by the process's writer: one whose key a
    // retry took over (its owner token no longer owns it), one that owns its key, one above the balance.
    const write = createPayoutWriter(world.db.database);
    const [lost, owned, tooMuch] = [await claim(), await claim(), await claim()];
    // Whether each request's write wrote (the service's outcome is the payout; `commit` sees the write).
    const wrote = new Map<string, boolean>();
    const storing =
      (claimed: Awaited<ReturnType<typeof claim>>, body: (payout: { id: string }) => string) =>
      async (payout: { id: string }, store: (response: ResponseToStore | null) => Promise<boolean>) => {
        wrote.set(claimed.key, await store({ ...claimed, status: 201, body: body(payout) }));
      };
    const [takenOver, written, refused] = await Promise.allSettled([
      requestPayout(
        write,
        tenant,
        { amount_cents: 400, currency: "USD" },
        storing({ ...lost, ownerToken: randomUUID() }, () => "{}"),
      ),
      requestPayout(
        write,
        tenant,
        { amount_cents: 400, currency: "USD" },
        storing(owned, (payout) => JSON.stringify({ id: payout.id })),
      ),
      requestPayout(
        write,
        tenant,
        { amount_cents: 1001, currency: "USD" },
        storing(tooMuch, () => "{}"),
      ),
    ]);
    // The taken-over request wrote nothing: no debit, no payout, its record still the retry's.
    expect(takenOver.status).toBe("fulfilled");
    expect(wrote.get(lost.key)).toBe(false);
    expect(await record(lost.key)).toEqual({ state: "in_flight", response_body: null });
    // The owner: its answer, the debit and the payout committed together.
    if (written.status !== "fulfilled") throw written.reason;
    const id = written.value.id;
    expect(wrote.get(owned.key)).toBe(true);
    expect(await record(owned.key)).toEqual({ state: "completed", response_body: JSON.stringify({ id }) });
    expect(await ledgerTransactionsOf(world.db.database, id)).toHaveLength(1);
    // Above the balance: 402 (it failed the batch's statement; written alone, it fails alone), nothing
    // written for it (the request then stores its 402 answer itself).
    expect(refused).toMatchObject({ status: "rejected", reason: { status: 402, code: "insufficient_funds" } });
    expect(await record(tooMuch.key)).toEqual({ state: "in_flight", response_body: null });
    expect(await payoutCount()).toBe(1);
    expect(await accountBalances(world.db.database, world.shop.id, false)).toMatchObject({
      merchant_available: { USD: 600 },
      payouts_in_transit: { USD: 400 },
    });
  });

  test("50 concurrent payouts racing one balance never overdraw it", async () => {
    const { app } = setup();
    await fund(world.db.database, world.shop, 1000);
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => createPayout(app, world.shop.testKey, { amount_cents: 100 })),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(10);
    expect(statuses.filter((status) => status === 402)).toHaveLength(40);
    expect(await accountBalances(world.db.database, world.shop.id, false)).toMatchObject({
      merchant_available: { USD: 0 },
      payouts_in_transit: { USD: 1000 },
    });
    expect(
      await world.db.database.oneFirst(sql.type(z.object({ count: z.number() }))`
        SELECT count(*)::int AS count FROM payouts WHERE merchant_id = ${world.shop.id}`),
    ).toBe(10);
  });
});

describe("listing and isolation", () => {
  test("filters by status and time, pages newest first, never shows another merchant's or the other world's", async () => {
    const { app, dependencies } = setup();
    await fund(world.db.database, world.shop, 10_000);
    await fund(world.db.database, world.shop, 10_000, true);
    const ids: string[] = [];
    for (let index = 0; index < 5; index += 1) {
      ids.push((await createPayout(app, world.shop.testKey, { amount_cents: 100 + index })).body.id);
    }
    await processUntilFinal(dependencies, { id: ids[0] as string });
    const live = (await createPayout(app, world.shop.liveKey, { amount_cents: 100 })).body;
    const other = await newMerchant(world.db.database, { payout_msisdn: "263772222222", payout_verified: true });
    await fund(world.db.database, other, 1000);
    const foreign = (await createPayout(app, other.testKey, { amount_cents: 100 })).body;

    const list = (query: string, key = world.shop.testKey) =>
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
    expect((await list("", world.shop.liveKey)).body.data.map((payout: { id: string }) => payout.id)).toEqual([
      live.id,
    ]);
    expect((await list("?limit=101")).status).toBe(400);
    expect((await list("?cursor=nonsense")).body.error.code).toBe("parameter_invalid");
    expect((await list("?status=paid")).status).toBe(400);

    const get = (id: string, key: string) =>
      request(app).get(`/v1/payouts/${id}`).set("Authorization", `Bearer ${key}`);
    expect((await get(foreign.id, world.shop.testKey)).status).toBe(404);
    expect((await get(live.id, world.shop.testKey)).status).toBe(404);
    expect((await get(ids[1] as string, world.shop.liveKey)).status).toBe(404);
    expect((await get(live.id, world.shop.liveKey)).status).toBe(200);
  });

  test("test and live balances never mix: a live payout cannot draw on the test balance", async () => {
    const { app } = setup();
    await fund(world.db.database, world.shop, 5000);
    const live = await createPayout(app, world.shop.liveKey, { amount_cents: 100 });
    expect(live.status).toBe(402);
    await fund(world.db.database, world.shop, 300, true);
    expect((await createPayout(app, world.shop.liveKey, { amount_cents: 300 })).status).toBe(201);
    expect(await available(world.db.database, world.shop.id, false)).toBe(5000);
    expect(await available(world.db.database, world.shop.id, true)).toBe(0);
  });
});
