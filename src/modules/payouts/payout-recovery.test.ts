import request from "supertest";
import { fund } from "../../../tests/support/factories.ts";
import { sampleValue } from "../../../tests/support/metrics.ts";
import {
  accountBalances,
  available,
  eventsAbout,
  eventually,
  ledgerTransactionsOf,
} from "../../../tests/support/money.ts";
import {
  countingSandbox,
  createPayout,
  dyingAfterSubmission,
  logger,
  payoutsTestWorld,
  runDue,
  WALLET,
} from "../../../tests/support/payouts.ts";
import { manualClock } from "../../../tests/support/time.ts";
import { type GatewaySimulator, startGatewaySimulator } from "../../gateway/simulator/app.ts";
import type { WalletGateway } from "../../gateway/wallet-gateway.ts";
import { processPayout } from "./processing.ts";

/** Workers killed mid-payout, and live payouts through the gateway simulator: never paid twice. */

const world = payoutsTestWorld();
const { setup, setDestination, payoutRow, processUntilFinal, lapseLease } = world;

describe("a worker killed mid-payout", () => {
  test("killed after the gateway accepted the submission, before recording it: no second submission, no lost payout", async () => {
    const { gateways, submissions } = countingSandbox();
    const { app, config } = setup({ MONEY_OUT_LEASE_SECONDS: "60" }, gateways);
    await fund(world.db.database, world.shop, 2000);
    const created = (await createPayout(app, world.shop.testKey, { amount_cents: 700 })).body;
    // The dying worker: its submission reaches the gateway, and the process dies before the answer is used.
    const dying = dyingAfterSubmission(gateways.test);
    void processPayout(
      { config, database: world.db.database, logger, gateways: { test: dying, live: dying } },
      { merchantId: world.shop.id, payoutId: created.id },
    );
    await eventually(async () => submissions.get(created.id) === 1);
    expect((await payoutRow(created.id)).submit_attempts).toBe(1);
    // While its lease lasts the processor's claim leaves it alone; once the lease has lapsed the claim
    // takes it again, and the pass asks the gateway first and finds the submission.
    const processor = { config, database: world.db.database, logger, gateways };
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
    expect(await available(world.db.database, world.shop.id, false)).toBe(1300);
    expect(await ledgerTransactionsOf(world.db.database, created.id)).toHaveLength(2);
  });

  test("killed after the gateway accepted it, found completed by the recovered pass: submitted and confirmed in one update", async () => {
    const clock = manualClock();
    const { gateways, submissions } = countingSandbox(clock);
    const { app, config } = setup({ MONEY_OUT_LEASE_SECONDS: "60" }, gateways);
    await fund(world.db.database, world.shop, 2000);
    const created = (await createPayout(app, world.shop.testKey, { amount_cents: 650 })).body;
    const dying = dyingAfterSubmission(gateways.test);
    void processPayout(
      { config, database: world.db.database, logger, gateways: { test: dying, live: dying } },
      { merchantId: world.shop.id, payoutId: created.id },
    );
    await eventually(async () => submissions.get(created.id) === 1);
    const metric = (status: string) => sampleValue("pos_payouts_total", { status, livemode: "false", currency: "USD" });
    const [submittedBefore, confirmedBefore] = [await metric("submitted"), await metric("confirmed")];
    // Settled at the gateway (0.3 s after the recorded attempt, on the database's clock) by the time the
    // recovered pass asks. (A direct pass: the batch claim would also pass earlier tests' payouts, and
    // the counts compared here are the process's.)
    clock.advance(5000);
    await lapseLease(created.id);
    await processPayout(
      { config, database: world.db.database, logger, gateways },
      { merchantId: world.shop.id, payoutId: created.id },
    );
    const body = (
      await request(app).get(`/v1/payouts/${created.id}`).set("Authorization", `Bearer ${world.shop.testKey}`)
    ).body;
    expect(body).toMatchObject({ status: "confirmed", failure_reason: null });
    expect(body.submitted_at).not.toBeNull();
    expect(body.destination_name).toMatch(/^[A-Z][a-z]+ [A-Z][a-z]+$/);
    expect(submissions.get(created.id)).toBe(1);
    expect([await metric("submitted"), await metric("confirmed")]).toEqual([submittedBefore + 1, confirmedBefore + 1]);
    expect((await eventsAbout(world.db.database, "payout_id", created.id)).map((event) => event.type)).toEqual([
      "payout.confirmed",
    ]);
    expect(await ledgerTransactionsOf(world.db.database, created.id)).toHaveLength(2);
    expect(await accountBalances(world.db.database, world.shop.id, false)).toMatchObject({
      merchant_available: { USD: 1350 },
      payouts_in_transit: { USD: 0 },
    });
  });

  test("killed between submitted and confirmed: the recovered pass confirms once, without submitting again", async () => {
    const clock = manualClock();
    const { gateways, submissions } = countingSandbox(clock);
    const { app, config, dependencies } = setup({ MONEY_OUT_LEASE_SECONDS: "60" }, gateways);
    await fund(world.db.database, world.shop, 2000);
    const created = (await createPayout(app, world.shop.testKey, { amount_cents: 500 })).body;
    expect(await processPayout(dependencies, { merchantId: world.shop.id, payoutId: created.id })).toMatchObject({
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
    void processPayout(
      { config, database: world.db.database, logger, gateways: { test: dying, live: dying } },
      { merchantId: world.shop.id, payoutId: created.id },
    );
    await eventually(async () => inquiries === 1);
    // Another pass meanwhile (a direct call, the processor's claim) cannot act while the dying worker's lease lasts.
    expect(await processPayout(dependencies, { merchantId: world.shop.id, payoutId: created.id })).toMatchObject({
      status: "submitted",
    });
    await runDue(dependencies);
    expect(await payoutRow(created.id)).toMatchObject({ status: "submitted" });
    // Once it has lapsed, the processor's claim takes the payout again and confirms it.
    await lapseLease(created.id);
    await runDue(dependencies);
    expect(await payoutRow(created.id)).toMatchObject({ status: "confirmed" });
    expect(submissions.get(created.id)).toBe(1);
    expect((await eventsAbout(world.db.database, "payout_id", created.id)).map((event) => event.type)).toEqual([
      "payout.confirmed",
    ]);
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
    await fund(world.db.database, world.shop, 5000, true);
    const created = (await createPayout(app, world.shop.liveKey, { amount_cents: 1500 })).body;
    expect(created).toMatchObject({ livemode: true, status: "requested" });
    const submitted = await processPayout(dependencies, { merchantId: world.shop.id, payoutId: created.id });
    expect(submitted).toMatchObject({ status: "submitted" });
    expect(simulator.state.payouts.get(created.id)).toMatchObject({ status: "processing", submissions: 1 });
    const confirmed = await processUntilFinal(dependencies, created);
    expect(confirmed).toMatchObject({ status: "confirmed" });
    expect(simulator.state.wallets.get(WALLET)?.get("USD")).toBeGreaterThanOrEqual(1500);
    expect(await available(world.db.database, world.shop.id, true)).toBe(3500);
    expect(await available(world.db.database, world.shop.id, false)).toBe(0);
    expect(
      (await eventsAbout(world.db.database, "payout_id", created.id)).map((event) => [event.type, event.livemode]),
    ).toEqual([["payout.confirmed", true]]);
  });

  test("the network rejects (0000): failed and restored; a transient fault (0096) is retried by the client", async () => {
    const { app, dependencies } = live();
    await setDestination(world.shop, "263775550000");
    await fund(world.db.database, world.shop, 5000, true);
    const rejected = (await createPayout(app, world.shop.liveKey, { amount_cents: 1000 })).body;
    expect(await processUntilFinal(dependencies, rejected)).toMatchObject({
      status: "failed",
      failure_reason: "the destination wallet is closed",
    });
    expect(await available(world.db.database, world.shop.id, true)).toBe(5000);

    await setDestination(world.shop, "263775550096");
    const transient = (await createPayout(app, world.shop.liveKey, { amount_cents: 1000 })).body;
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
    await fund(world.db.database, world.shop, 5000, true);
    const created = (await createPayout(app, world.shop.liveKey, { amount_cents: 400 })).body;
    await fetch(`${simulator.url}/sim/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ operation: "submit_payout", mode: "timeout", count: 1 }),
    });
    const unclear = await processPayout(dependencies, { merchantId: world.shop.id, payoutId: created.id });
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
    await fund(world.db.database, world.shop, 5000, true);
    const created = (await createPayout(app, world.shop.liveKey, { amount_cents: 250 })).body;
    const dying = dyingAfterSubmission(dependencies.gateways.live);
    void processPayout(
      { config, database: world.db.database, logger, gateways: { test: dying, live: dying } },
      { merchantId: world.shop.id, payoutId: created.id },
    );
    await eventually(async () => simulator.state.payouts.has(created.id));
    await lapseLease(created.id);
    await runDue(dependencies);
    const recovered = await payoutRow(created.id);
    expect(["submitted", "confirmed"]).toContain(recovered.status);
    expect(recovered.submit_attempts).toBe(1);
    expect(await processUntilFinal(dependencies, created)).toMatchObject({ status: "confirmed", submit_attempts: 1 });
    expect(simulator.state.payouts.get(created.id)?.submissions).toBe(1);
    expect(await ledgerTransactionsOf(world.db.database, created.id)).toHaveLength(2);
  });
});
