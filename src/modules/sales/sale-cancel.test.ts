import request from "supertest";
import {
  client,
  createProduct,
  eventsOfType,
  ledgerTransactionCount,
  onHandOf,
  posSetup,
} from "../../../tests/support/pos.ts";
import { salesTestWorld } from "../../../tests/support/sales.ts";
import { manualClock } from "../../../tests/support/time.ts";
import { createSandboxGateway } from "../../gateway/sandbox.ts";

/** `POST /v1/sales/:id/cancel`: a pending wallet sale and its payment cancelled together, once. */

const world = salesTestWorld();

/** A till in both worlds whose sandbox never settles by itself while the test runs. */
function tills() {
  const sandbox = createSandboxGateway({ autoSettleMs: 60_000, now: manualClock().now });
  const { app } = posSetup(world.db, {}, { test: sandbox, live: sandbox });
  return { app, test: client(app, world.shop.testKey), live: client(app, world.shop.liveKey) };
}

describe("cancelling a sale", () => {
  test.each(["test", "live"] as const)(
    "a pending wallet sale (%s): sale and payment cancelled, nothing moved; idempotent",
    async (mode) => {
      const { [mode]: till } = tills();
      const product = await createProduct(world.live, { name: "Tea", price_cents: 2000, stock_qty: 10 });
      const sale = (await till.post("/v1/sales", { tender: "wallet", items: [{ product_id: product.id, qty: 2 }] }))
        .body;
      const cancelled = await till.post(`/v1/sales/${sale.id}/cancel`, {});
      expect(cancelled.status).toBe(200);
      expect(cancelled.body).toMatchObject({ status: "cancelled", payment: { status: "cancelled" } });
      expect(cancelled.body.cancelled_at).not.toBeNull();
      const again = await till.post(`/v1/sales/${sale.id}/cancel`, {});
      expect(again.body).toMatchObject({ status: "cancelled", cancelled_at: cancelled.body.cancelled_at });
      expect(await eventsOfType(world.db, world.shop.id, "payment.cancelled")).toHaveLength(1);
      expect(await eventsOfType(world.db, world.shop.id, "sale.completed")).toHaveLength(0);
      expect(await onHandOf(world.db, product.id)).toBe(10);
      expect(await ledgerTransactionCount(world.db, world.shop.id)).toBe(0);
      // Its code can no longer complete it: the checkout's simulated payment is refused (live: never offered).
      const mockpay = await request(tills().app).post(`/checkout/${sale.payment_id}/mockpay`).send({});
      expect(mockpay.status).toBe(mode === "test" ? 409 : 403);
    },
  );

  test("a completed sale, a cash sale, another merchant's: 409 sale_not_pending or 404", async () => {
    const { app, test: till } = tills();
    const paidSale = (
      await till.post("/v1/sales", { tender: "wallet", items: [{ name: "Pen", qty: 1, unit_cents: 300 }] })
    ).body;
    expect((await request(app).post(`/checkout/${paidSale.payment_id}/mockpay`).send({})).status).toBe(200);
    const completed = await till.post(`/v1/sales/${paidSale.id}/cancel`, {});
    expect(completed.status).toBe(409);
    expect(completed.body.error.code).toBe("sale_not_pending");
    const cash = (await till.post("/v1/sales", { tender: "cash", items: [{ name: "Pen", qty: 1, unit_cents: 300 }] }))
      .body;
    expect((await till.post(`/v1/sales/${cash.id}/cancel`, {})).body.error.code).toBe("sale_not_pending");
    const other = client(app, world.shop.liveKey);
    expect((await other.post(`/v1/sales/${paidSale.id}/cancel`, {})).status).toBe(404);
  });

  test("cancel and the customer's payment side by side: the sale ends one way only", async () => {
    const { app, test: till } = tills();
    for (let round = 0; round < 8; round += 1) {
      const sale = (
        await till.post("/v1/sales", { tender: "wallet", items: [{ name: "Pen", qty: 1, unit_cents: 300 }] })
      ).body;
      const [cancelled, paid] = await Promise.all([
        till.post(`/v1/sales/${sale.id}/cancel`, {}),
        request(app).post(`/checkout/${sale.payment_id}/mockpay`).send({}),
      ]);
      const final = (await till.get(`/v1/sales/${sale.id}`)).body;
      // Exactly one of the two answers 200; the other lost and changed nothing.
      expect([cancelled.status, paid.status].sort()).toEqual([200, 409]);
      expect(final.status).toBe(cancelled.status === 200 ? "cancelled" : "completed");
      expect(final.payment.status).toBe(cancelled.status === 200 ? "cancelled" : "paid");
    }
  });
});
