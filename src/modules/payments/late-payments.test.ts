import request from "supertest";
import type { TestApp } from "../../../tests/support/app.ts";
import { paymentsTestWorld } from "../../../tests/support/payments.ts";
import * as payments from "./service.ts";

/**
 * A payment that arrives after its code was cancelled or expired: recorded and credited exactly once,
 * announced once, shown as late, and refunded in one call (to the payer's wallet, else flagged cash).
 */

const world = paymentsTestWorld();
const typesOf = async (paymentId: string) => (await world.eventsOf(paymentId)).map((event) => event.type);
const refund = (app: TestApp, id: string) =>
  request(app).post(`/v1/payments/${id}/refund_late`).set("Authorization", `Bearer ${world.shop.testKey}`);

/** A test payment expired unpaid, as its row now stands. */
async function expiredPayment(app: TestApp) {
  const created = (await world.create(app, world.shop.testKey, { amount_cents: 1000 })).body;
  expect((await request(app).post(`/checkout/${created.id}/mockpay`).send({ outcome: "expired" })).status).toBe(200);
  return payments.getPaymentById(world.db.database, created.id);
}

describe("late payments", () => {
  test("observed paid after the expiry, five times at once: recorded once, credited once, payment.late_paid once", async () => {
    const { gateways } = world.sandboxOnClock(3_600_000);
    const { app, dependencies } = world.setup({}, gateways);
    const expired = await expiredPayment(app);
    const observation = { paidAt: new Date(), payerMsisdn: "263771110001" };
    const seen = await Promise.all(
      Array.from({ length: 5 }, () => payments.settlePayment(dependencies, expired, observation)),
    );
    expect(seen.map((payment) => payment.status)).toEqual(Array(5).fill("expired"));
    expect(await typesOf(expired.id)).toEqual(["payment.expired", "payment.late_paid"]);
    expect(await world.ledgerTransactionsOf(expired.id)).toBe(1);
    expect(await world.balanceOf(world.shop.id, false)).toEqual({ USD: 985 });
    const shown = await request(app)
      .get(`/v1/payments/${expired.id}`)
      .set("Authorization", `Bearer ${world.shop.testKey}`);
    expect(shown.body).toMatchObject({
      status: "expired",
      late_payment: { payer_msisdn: "263771110001", refund: "due", refund_reference: null },
    });
  });

  test("refund to the payer's wallet: the late credit undone once, the transfer's reference kept", async () => {
    const { gateways } = world.sandboxOnClock(3_600_000);
    const { app, dependencies } = world.setup({}, gateways);
    const expired = await expiredPayment(app);
    await payments.settlePayment(dependencies, expired, { paidAt: new Date(), payerMsisdn: "263771110002" });
    const [first, second] = await Promise.all([refund(app, expired.id), refund(app, expired.id)]);
    for (const answer of [first, second]) {
      expect(answer.status).toBe(200);
      expect(answer.body.late_payment).toMatchObject({ refund: "wallet" });
    }
    const after = await refund(app, expired.id);
    expect(after.body.late_payment.refund_reference).toEqual(expect.any(String));
    expect(await world.balanceOf(world.shop.id, false)).toEqual({ USD: 0 });
    expect(await world.ledgerTransactionsOf(expired.id)).toBe(2);
  });

  test("no payer known, or a transfer the gateway refuses: flagged for a cash refund, the balance kept", async () => {
    const { gateways } = world.sandboxOnClock(3_600_000);
    const { app, dependencies } = world.setup({}, gateways);
    const unknownPayer = await expiredPayment(app);
    await payments.settlePayment(dependencies, unknownPayer, { paidAt: new Date(), payerMsisdn: null });
    expect((await refund(app, unknownPayer.id)).body.late_payment).toMatchObject({ refund: "cash" });
    expect(await world.ledgerTransactionsOf(unknownPayer.id)).toBe(1);
    // The sandbox refuses transfers to numbers ending 0000: the refund's debit is undone.
    const closedWallet = await expiredPayment(app);
    await payments.settlePayment(dependencies, closedWallet, { paidAt: new Date(), payerMsisdn: "263771110000" });
    expect((await refund(app, closedWallet.id)).body.late_payment).toMatchObject({ refund: "cash" });
    expect(await world.ledgerTransactionsOf(closedWallet.id)).toBe(3);
    expect(await world.balanceOf(world.shop.id, false)).toEqual({ USD: 1970 });
  });

  test("a payment without a late payment: 409 no_late_payment", async () => {
    const { app } = world.setup();
    const expired = await expiredPayment(app);
    const refused = await refund(app, expired.id);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("no_late_payment");
  });
});
