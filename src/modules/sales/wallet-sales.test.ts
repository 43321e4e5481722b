import { randomUUID } from "node:crypto";
import request from "supertest";
import { z } from "zod";
import { collidingCodes } from "../../../tests/support/colliding-codes.ts";
import { sampleValue } from "../../../tests/support/metrics.ts";
import {
  client,
  createProduct,
  eventsOfType,
  ledgerTransactionCount,
  movesOf,
  onHandOf,
  posSetup,
} from "../../../tests/support/pos.ts";
import { salesTestWorld } from "../../../tests/support/sales.ts";
import { manualClock } from "../../../tests/support/time.ts";
import { createSandboxGateway, SANDBOX_MAGIC_AMOUNTS } from "../../gateway/sandbox.ts";
import type { PaymentGateway } from "../../gateway/wallet-gateway.ts";
import { sql } from "../../platform/db/pool.ts";
import * as payments from "../payments/service.ts";

/** Wallet sales in the test world: completed or cancelled with their payment's end, exactly once. */

const world = salesTestWorld();

describe("wallet sales (test world)", () => {
  test("a payment code still live elsewhere is replaced by a fresh one; a gateway issuing only those fails the sale", async () => {
    const sandbox = createSandboxGateway({ autoSettleMs: 3_600_000 });
    const codes = collidingCodes(sandbox.issuePaymentCode);
    const { issuedCodes } = codes;
    const colliding: PaymentGateway = { ...sandbox, issuePaymentCode: codes.issue };
    const till = client(posSetup(world.db, {}, { test: colliding, live: colliding }).app, world.shop.testKey);
    const product = await createProduct(world.live, { name: "Socks", price_cents: 500, stock_qty: 10 });
    const walletSale = { tender: "wallet", items: [{ product_id: product.id, qty: 1 }] };
    const first = await till.post("/v1/sales", walletSale);
    expect(first.status).toBe(201);
    const liveCode: string = first.body.payment.code;

    codes.repeat(liveCode, 2);
    const second = await till.post("/v1/sales", walletSale);
    expect(second.status).toBe(201);
    expect(issuedCodes.slice(1)).toEqual([liveCode, liveCode, second.body.payment.code]);
    expect(second.body.payment.code).not.toBe(liveCode);
    expect(await world.saleCount(world.shop.id)).toBe(2);

    codes.repeat(liveCode, 3);
    const key = randomUUID();
    const failed = await till.post("/v1/sales", walletSale, key);
    expect(failed.status).toBe(502);
    expect(failed.body.error.code).toBe("code_generation_failed");
    // Nothing written (sale or payment) and the key released: the retry with the same key runs again.
    expect(await world.saleCount(world.shop.id)).toBe(2);
    const retried = await till.post("/v1/sales", walletSale, key);
    expect(retried.status).toBe(201);
    expect(await world.saleCount(world.shop.id)).toBe(3);
    expect(
      await world.db.database.oneFirst(sql.type(z.object({ count: z.number() }))`
        SELECT count(*)::int AS count FROM payments WHERE merchant_id = ${world.shop.id}`),
    ).toBe(3);
  });

  test("pending with an embedded payment; mockpay completes it: stock journaled, sale.completed, balance net of fee", async () => {
    const product = await createProduct(world.live, { name: "Shoes", price_cents: 2000, stock_qty: 6 });
    const labels = { tender: "wallet", livemode: "false", currency: "USD" };
    const before = await sampleValue("pos_sales_total", labels);
    const created = await world.testWorld.post("/v1/sales", {
      tender: "wallet",
      items: [{ product_id: product.id, qty: 2 }],
    });
    expect(created.status).toBe(201);
    const sale = created.body;
    expect(sale).toMatchObject({
      livemode: false,
      status: "pending",
      tender: "wallet",
      total_cents: 4000,
      completed_at: null,
      payment_id: expect.stringMatching(/^pay_/),
    });
    expect(sale.payment).toMatchObject({
      id: sale.payment_id,
      object: "payment",
      status: "pending",
      amount_cents: 4000,
      currency: "USD",
      fee_cents: 60,
      metadata: { sale_id: sale.id },
      checkout_url: `https://pay.example.com/checkout/${sale.payment_id}`,
    });
    expect(sale.payment.code).toMatch(/^[0-9]{9}$/);
    expect(sale.payment.qr_png_data_url).toMatch(/^data:image\/png;base64,/);
    expect(sale.payment.deep_link).toContain(sale.payment.code);
    // Nothing moves while pending.
    expect((await movesOf(world.db, product.id)).filter((move) => move.kind === "sale")).toEqual([]);
    expect(await eventsOfType(world.db, world.shop.id, "sale.completed")).toEqual([]);

    const paid = await request(world.setup.app).post(`/checkout/${sale.payment_id}/mockpay`).send({});
    expect(paid.body.status).toBe("paid");
    const fetched = (await world.testWorld.get(`/v1/sales/${sale.id}`)).body;
    expect(fetched).toMatchObject({ status: "completed", completed_at: expect.any(String) });
    expect(fetched.payment.status).toBe("paid");
    expect((await movesOf(world.db, product.id)).at(-1)).toMatchObject({
      livemode: false,
      kind: "sale",
      qty_delta: -2,
      stock_qty_after: 6,
      sale_id: sale.id,
    });
    expect(await onHandOf(world.db, product.id)).toBe(6);
    const [event] = await eventsOfType(world.db, world.shop.id, "sale.completed");
    expect(event).toEqual({
      livemode: false,
      data: {
        sale_id: sale.id,
        tender: "wallet",
        total_cents: 4000,
        currency: "USD",
        payment_id: sale.payment_id,
        cashier: null,
        items: sale.items,
        completed_at: fetched.completed_at,
      },
    });
    expect(await world.balanceOf(world.testWorld)).toEqual({ USD: 3940, ZWG: 0 });
    expect(await world.balanceOf(world.live)).toEqual({ USD: 0, ZWG: 0 });
    expect(await sampleValue("pos_sales_total", labels)).toBe(before + 1);
  });

  test("an expired payment cancels the sale with nothing moved; so does a failed one", async () => {
    const product = await createProduct(world.live, { name: "Bag", price_cents: 700, stock_qty: 4 });
    const sale = (
      await world.testWorld.post("/v1/sales", { tender: "wallet", items: [{ product_id: product.id, qty: 1 }] })
    ).body;
    await request(world.setup.app).post(`/checkout/${sale.payment_id}/mockpay`).send({ outcome: "expired" });
    const fetched = (await world.testWorld.get(`/v1/sales/${sale.id}`)).body;
    expect(fetched).toMatchObject({ status: "cancelled", completed_at: null, cancelled_at: expect.any(String) });
    expect(fetched.payment.status).toBe("expired");

    const unusable = await createProduct(world.live, {
      name: "Cursed",
      price_cents: SANDBOX_MAGIC_AMOUNTS.codeUnusable,
    });
    const failing = (
      await world.testWorld.post("/v1/sales", { tender: "wallet", items: [{ product_id: unusable.id, qty: 1 }] })
    ).body;
    const failed = (await world.testWorld.get(`/v1/sales/${failing.id}`)).body;
    expect(failed.status).toBe("cancelled");
    expect(failed.payment.status).toBe("failed");

    expect((await movesOf(world.db, product.id)).filter((move) => move.kind === "sale")).toEqual([]);
    expect(await eventsOfType(world.db, world.shop.id, "sale.completed")).toEqual([]);
    expect(await ledgerTransactionCount(world.db, world.shop.id)).toBe(0);
    expect(await world.balanceOf(world.testWorld)).toEqual({ USD: 0, ZWG: 0 });
    // Paying afterwards changes nothing: the payment is final.
    expect((await request(world.setup.app).post(`/checkout/${sale.payment_id}/mockpay`).send({})).status).toBe(409);
    expect((await world.testWorld.get(`/v1/sales/${sale.id}`)).body.status).toBe("cancelled");
  });

  test("the code window closes unpaid: the expiry job cancels the sale in the payment's transaction", async () => {
    const short = posSetup(world.db, { PAYMENT_CODE_WINDOW_SECONDS: "1" });
    const api = client(short.app, world.shop.testKey);
    const product = await createProduct(api, {
      name: "Never paid",
      price_cents: SANDBOX_MAGIC_AMOUNTS.neverSettles,
      stock_qty: 3,
    });
    const sale = (await api.post("/v1/sales", { tender: "wallet", items: [{ product_id: product.id, qty: 1 }] })).body;
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, Date.parse(sale.payment.expires_at) + 50 - Date.now())),
    );
    const payment = await payments.expireIfUnpaid(short.dependencies, { paymentId: sale.payment_id });
    expect(payment?.status).toBe("expired");
    // Read straight from the table: no GET refresh involved.
    const status = await world.db.database.oneFirst(sql.type(z.object({ status: z.string() }))`
      SELECT status FROM sales WHERE id = ${sale.id}`);
    expect(status).toBe("cancelled");
    expect((await movesOf(world.db, product.id)).filter((move) => move.kind === "sale")).toEqual([]);
  });

  test("a payment settled by a process without the sales hook (an older release): GET /v1/sales/:id finishes the sale once", async () => {
    const product = await createProduct(world.live, { name: "Rollout", price_cents: 500, stock_qty: 3 });
    const sale = (
      await world.testWorld.post("/v1/sales", { tender: "wallet", items: [{ product_id: product.id, qty: 1 }] })
    ).body;
    // Settled as a process given no payment hooks would settle it.
    const pending = await payments.getPaymentById(world.db.database, sale.payment_id);
    await payments.settlePayment({ database: world.db.database, paymentHooks: [] }, pending, {
      paidAt: new Date(),
      payerMsisdn: null,
    });
    expect((await world.testWorld.get(`/v1/payments/${sale.payment_id}`)).body.status).toBe("paid");
    expect(
      await world.db.database.oneFirst(
        sql.type(z.object({ status: z.string() }))`SELECT status FROM sales WHERE id = ${sale.id}`,
      ),
    ).toBe("pending");
    const fetched = await Promise.all([
      world.testWorld.get(`/v1/sales/${sale.id}`),
      world.testWorld.get(`/v1/sales/${sale.id}`),
    ]);
    expect(fetched.map((response) => response.body.status)).toEqual(["completed", "completed"]);
    expect(
      (await eventsOfType(world.db, world.shop.id, "sale.completed")).filter((event) => event.data.sale_id === sale.id),
    ).toHaveLength(1);
    expect((await movesOf(world.db, product.id)).filter((move) => move.kind === "sale")).toHaveLength(1);
  });

  test("settlement racing GET /v1/sales/:id refreshes, the poller and mockpay: the sale completes exactly once", async () => {
    for (let round = 0; round < 4; round += 1) {
      const clock = manualClock();
      const sandbox = createSandboxGateway({ autoSettleMs: 250, now: clock.now });
      const racing = posSetup(
        world.db,
        { PAYMENT_INQUIRY_MIN_INTERVAL_SECONDS: "0.01" },
        { test: sandbox, live: sandbox },
      );
      const api = client(racing.app, world.shop.testKey);
      const product = await createProduct(api, { name: `Race ${round}`, price_cents: 300, stock_qty: 10 });
      const sale = (await api.post("/v1/sales", { tender: "wallet", items: [{ product_id: product.id, qty: 2 }] }))
        .body;
      // Paid at the sandbox from now on, so that every racer below finds it paid.
      clock.set(Date.now() + 250);
      const outcomes = await Promise.allSettled([
        ...Array.from({ length: 8 }, () => api.get(`/v1/sales/${sale.id}`)),
        api.get(`/v1/payments/${sale.payment_id}`),
        payments.pollPayment(racing.dependencies, { paymentId: sale.payment_id }),
        request(racing.app).post(`/checkout/${sale.payment_id}/mockpay`).send({}),
      ]);
      expect(outcomes.every((outcome) => outcome.status === "fulfilled")).toBe(true);
      const final = (await api.get(`/v1/sales/${sale.id}`)).body;
      expect(final.status).toBe("completed");
      const completions = (await eventsOfType(world.db, world.shop.id, "sale.completed")).filter(
        (event) => event.data.sale_id === sale.id,
      );
      expect(completions).toHaveLength(1);
      expect((await movesOf(world.db, product.id)).filter((move) => move.kind === "sale")).toHaveLength(1);
      const settlements = await world.db.database.oneFirst(sql.type(z.object({ count: z.number() }))`
        SELECT count(*)::int AS count FROM ledger_transactions WHERE source_id = ${sale.payment_id}`);
      expect(settlements).toBe(1);
    }
  });
});
