import request from "supertest";
import type { TestApp } from "../../../tests/support/app.ts";
import { poolOn } from "../../../tests/support/database.ts";
import { newMerchant } from "../../../tests/support/factories.ts";
import { simulatedGateway } from "../../../tests/support/gateway-simulator.ts";
import { paymentsTestWorld } from "../../../tests/support/payments.ts";
import * as payments from "./service.ts";

/** Cancelling a payment: idempotent, either world, guarded against a settlement in SQL. */

const world = paymentsTestWorld();
const cancel = (app: TestApp, id: string, key: string) =>
  request(app).post(`/v1/payments/${id}/cancel`).set("Authorization", `Bearer ${key}`);
const typesOf = async (paymentId: string) => (await world.eventsOf(paymentId)).map((event) => event.type);

describe("cancelling a payment (test world)", () => {
  test("cancelled once: status, cancelled_at, payment.cancelled, nothing credited; again: the same, no new event", async () => {
    const { gateways } = world.sandboxOnClock(18_000);
    const { app } = world.setup({}, gateways);
    const payment = (await world.create(app, world.shop.testKey, { amount_cents: 4000 })).body;
    const first = await cancel(app, payment.id, world.shop.testKey);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ id: payment.id, status: "cancelled", late_payment: null });
    expect(first.body.cancelled_at).not.toBeNull();
    const again = await cancel(app, payment.id, world.shop.testKey);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ status: "cancelled", cancelled_at: first.body.cancelled_at });
    expect(await typesOf(payment.id)).toEqual(["payment.cancelled"]);
    expect(await world.ledgerTransactionsOf(payment.id)).toBe(0);
    // The checkout's simulated payment of a cancelled code is refused, never a second way to pay it.
    const mockpay = await request(app).post(`/checkout/${payment.id}/mockpay`).send({});
    expect(mockpay.status).toBe(409);
    expect(mockpay.body.error.code).toBe("payment_not_pending");
  });

  test("another merchant's payment, or the other world's key: 404 resource_missing, nothing changed", async () => {
    const { app } = world.setup();
    const payment = (await world.create(app, world.shop.testKey, { amount_cents: 500 })).body;
    const stranger = await newMerchant(world.db.database);
    for (const key of [stranger.testKey, stranger.liveKey, world.shop.liveKey]) {
      const refused = await cancel(app, payment.id, key);
      expect(refused.status).toBe(404);
      expect(refused.body.error.code).toBe("resource_missing");
    }
    expect((await world.pollFieldsOf(payment.id)).status).toBe("pending");
  });

  test("a paid payment: 409 payment_not_pending, still paid and credited once", async () => {
    const { app } = world.setup();
    const payment = (await world.create(app, world.shop.testKey, { amount_cents: 1000 })).body;
    expect((await request(app).post(`/checkout/${payment.id}/mockpay`).send({})).status).toBe(200);
    const refused = await cancel(app, payment.id, world.shop.testKey);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("payment_not_pending");
    expect(await typesOf(payment.id)).toEqual(["payment.paid"]);
    expect(await world.ledgerTransactionsOf(payment.id)).toBe(1);
  });

  test("the gateway says the code was paid before the void: settled (once), and the cancel answers 409", async () => {
    const { clock, gateways } = world.sandboxOnClock(18_000);
    const { app } = world.setup({}, gateways);
    const payment = (await world.create(app, world.shop.testKey, { amount_cents: 1000 })).body;
    clock.advance(60_000);
    const refused = await cancel(app, payment.id, world.shop.testKey);
    expect(refused.status).toBe(409);
    expect((await world.pollFieldsOf(payment.id)).status).toBe("paid");
    expect(await world.balanceOf(world.shop.id, false)).toEqual({ USD: 985 });
  });

  test("cancel against a settlement, side by side: exactly one wins; the money is credited exactly once", async () => {
    const { gateways } = world.sandboxOnClock(3_600_000);
    const { app, dependencies } = world.setup({}, gateways);
    // The settlement comes from another pool (another process's writer), so the two ends meet in the
    // database's guarded UPDATE rather than in one process's batch.
    const otherProcess = { ...dependencies, database: await poolOn(world.db.url, 4) };
    const outcomes = new Set<string>();
    try {
      for (let round = 0; round < 12; round += 1) {
        const payment = (await world.create(app, world.shop.testKey, { amount_cents: 1000 })).body;
        const row = await payments.getPaymentById(world.db.database, payment.id);
        // The settlement observed the code paid: if the cancel wins, the money is a late payment.
        const [cancelled] = await Promise.all([
          cancel(app, payment.id, world.shop.testKey),
          payments.settlePayment(otherProcess, row, { paidAt: new Date(), payerMsisdn: "263771230000" }),
        ]);
        const status = (await world.pollFieldsOf(payment.id)).status;
        outcomes.add(status);
        expect(await world.ledgerTransactionsOf(payment.id)).toBe(1);
        if (status === "paid") {
          expect(cancelled.status).toBe(409);
          expect(await typesOf(payment.id)).toEqual(["payment.paid"]);
        } else {
          expect(status).toBe("cancelled");
          expect(cancelled.status).toBe(200);
          expect(await typesOf(payment.id)).toEqual(["payment.cancelled", "payment.late_paid"]);
        }
      }
    } finally {
      await otherProcess.database.end();
    }
    // Which one wins is the database's to say; either way the assertions above held for each round.
    expect([...outcomes].every((status) => status === "paid" || status === "cancelled")).toBe(true);
  });
});

describe("cancelling a payment (live world, through the gateway simulator)", () => {
  const gateway = simulatedGateway("gwsim_live_test");
  const live = () => world.setup({ ...gateway.environment(), GATEWAY_TIMEOUT_MS: "10000" });

  test("the code is voided at the gateway: a payer can no longer pay it", async () => {
    const { app } = live();
    const payment = (await world.create(app, world.shop.liveKey, { amount_cents: 700 })).body;
    const cancelled = await cancel(app, payment.id, world.shop.liveKey);
    expect(cancelled.body).toMatchObject({ status: "cancelled", livemode: true });
    expect(gateway.simulator.state.read(payment.code)?.status).toBe("voided");
    await gateway.simulate("/sim/wallets", { msisdn: "263772000009", currency: "USD", amount_cents: 5000 });
    const paying = await gateway.simulate(`/sim/payment-codes/${payment.code}/pay`, { payer_msisdn: "263772000009" });
    expect(paying.status).toBe(409);
    expect((await cancel(app, payment.id, world.shop.liveKey)).status).toBe(200);
    expect(await typesOf(payment.id)).toEqual(["payment.cancelled"]);
  });

  test("the gateway cannot void: cancelled all the same; the payer pays anyway: a late payment, credited once", async () => {
    const { app } = live();
    const payment = (await world.create(app, world.shop.liveKey, { amount_cents: 1000 })).body;
    await gateway.simulate("/sim/faults", { operation: "void_payment_code", mode: "unavailable", count: 3 });
    expect((await cancel(app, payment.id, world.shop.liveKey)).body.status).toBe("cancelled");
    await gateway.simulate("/sim/wallets", { msisdn: "263772000010", currency: "USD", amount_cents: 5000 });
    expect(
      (await gateway.simulate(`/sim/payment-codes/${payment.code}/pay`, { payer_msisdn: "263772000010" })).status,
    ).toBe(200);
    // Reads of the payment ask the gateway (throttle opened each time) and find the payment late.
    const reads = [];
    for (let read = 0; read < 3; read += 1) {
      await world.passInquiryInterval(payment.id);
      reads.push(
        await request(app).get(`/v1/payments/${payment.id}`).set("Authorization", `Bearer ${world.shop.liveKey}`),
      );
    }
    for (const read of reads) {
      expect(read.body).toMatchObject({
        status: "cancelled",
        late_payment: { payer_msisdn: "263772000010", refund: "due" },
      });
    }
    expect(await typesOf(payment.id)).toEqual(["payment.cancelled", "payment.late_paid"]);
    expect(await world.ledgerTransactionsOf(payment.id)).toBe(1);
    expect(await world.balanceOf(world.shop.id, true)).toEqual({ USD: 985 });
  });
});
