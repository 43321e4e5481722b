import { randomUUID } from "node:crypto";
import request from "supertest";
import { z } from "zod";
import { collidingCodes } from "../../../tests/support/colliding-codes.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/database.ts";
import { newMerchant, type TestMerchant } from "../../../tests/support/factories.ts";
import { sampleValue } from "../../../tests/support/metrics.ts";
import {
  type Client,
  client,
  createProduct,
  eventsOfType,
  ledgerTransactionCount,
  movesOf,
  onHandOf,
  posSetup,
} from "../../../tests/support/pos.ts";
import { createSandboxGateway, SANDBOX_MAGIC_AMOUNTS } from "../../gateway/sandbox.ts";
import { type GatewaySimulator, startGatewaySimulator } from "../../gateway/simulator/app.ts";
import type { PaymentGateway } from "../../gateway/wallet-gateway.ts";
import { sql } from "../../platform/db/pool.ts";
import { createLogger } from "../../platform/telemetry/logger.ts";
import * as payments from "../payments/service.ts";

let db: TestDatabase;
let shop: TestMerchant;
let setup: ReturnType<typeof posSetup>;
let live: Client;
let testWorld: Client;

beforeAll(async () => {
  db = await createTestDatabase({ poolSize: 20 });
});
beforeEach(async () => {
  shop = await newMerchant(db.database, { fee_bps: 150, fee_fixed_cents: 0 });
  setup = posSetup(db);
  live = client(setup.app, shop.liveKey);
  testWorld = client(setup.app, shop.testKey);
});
afterAll(() => db.close());

const saleCount = async (merchantId: string) =>
  db.database.oneFirst(sql.type(z.object({ count: z.number() }))`
    SELECT count(*)::int AS count FROM sales WHERE merchant_id = ${merchantId}`);

const balanceOf = async (api: Client) =>
  Object.fromEntries(
    (await api.get("/v1/balance")).body.available.map((entry: { currency: string; amount_cents: number }) => [
      entry.currency,
      entry.amount_cents,
    ]),
  );

describe("cash sales", () => {
  test("live: completed at once, lines snapshotted, stock decremented and journaled, sale.completed, counted", async () => {
    const cola = await createProduct(live, { name: "Cola", price_cents: 150, stock_qty: 20 });
    const bread = await createProduct(live, { name: "Bread", price_cents: 90, stock_qty: 5 });
    const labels = { tender: "cash", livemode: "true", currency: "USD" };
    const countedBefore = await sampleValue("pos_sales_total", labels);
    const response = await live.post("/v1/sales", {
      tender: "cash",
      cashier: "Tendai",
      note: "Table 4",
      items: [
        { product_id: cola.id, qty: 3 },
        { product_id: bread.id, qty: 1, unit_cents: 80 },
        { name: "Plastic bag", qty: 2, unit_cents: 10 },
        { product_id: cola.id, qty: 1 },
      ],
    });
    expect(response.status).toBe(201);
    const sale = response.body;
    expect(sale).toEqual({
      id: expect.stringMatching(/^sale_[0-9A-Za-z]{24}$/),
      object: "sale",
      livemode: true,
      status: "completed",
      tender: "cash",
      total_cents: 450 + 80 + 20 + 150,
      currency: "USD",
      items: [
        { product_id: cola.id, name: "Cola", qty: 3, unit_cents: 150, line_total_cents: 450 },
        { product_id: bread.id, name: "Bread", qty: 1, unit_cents: 80, line_total_cents: 80 },
        { product_id: null, name: "Plastic bag", qty: 2, unit_cents: 10, line_total_cents: 20 },
        { product_id: cola.id, name: "Cola", qty: 1, unit_cents: 150, line_total_cents: 150 },
      ],
      cashier: "Tendai",
      note: "Table 4",
      payment_id: null,
      payment: null,
      actor: { type: "api_key", id: shop.liveKeyId },
      client_sale_id: null,
      till_id: null,
      shift_id: null,
      returns: [],
      receipt_url: expect.stringMatching(/^https:\/\/pay\.example\.com\/receipts\/[\w-]{32}$/),
      taken_at: sale.created_at,
      completed_at: expect.any(String),
      cancelled_at: null,
      created_at: expect.any(String),
    });
    expect(await onHandOf(db, cola.id)).toBe(16);
    expect(await onHandOf(db, bread.id)).toBe(4);
    expect((await movesOf(db, cola.id)).at(-1)).toMatchObject({
      livemode: true,
      kind: "sale",
      qty_delta: -4,
      stock_qty_after: 16,
      sale_id: sale.id,
      actor_id: shop.liveKeyId,
    });
    expect(await eventsOfType(db, shop.id, "sale.completed")).toEqual([
      {
        livemode: true,
        data: {
          sale_id: sale.id,
          tender: "cash",
          total_cents: 700,
          currency: "USD",
          payment_id: null,
          cashier: "Tendai",
          items: sale.items,
          completed_at: sale.completed_at,
        },
      },
    ]);
    expect(await sampleValue("pos_sales_total", labels)).toBe(countedBefore + 1);
    expect((await request(setup.app).get("/metrics")).text).toMatch(/pos_sales_total\{[^}]*tender="cash"/);
    expect((await live.get(`/v1/sales/${sale.id}`)).body).toEqual(sale);
  });

  test("test world: completed and journaled with livemode false, the shared on-hand unchanged", async () => {
    const product = await createProduct(live, { name: "Chips", price_cents: 60, stock_qty: 9 });
    const sale = (await testWorld.post("/v1/sales", { tender: "cash", items: [{ product_id: product.id, qty: 4 }] }))
      .body;
    expect(sale).toMatchObject({ livemode: false, status: "completed", total_cents: 240 });
    expect(await onHandOf(db, product.id)).toBe(9);
    expect((await movesOf(db, product.id)).at(-1)).toMatchObject({
      livemode: false,
      kind: "sale",
      qty_delta: -4,
      stock_qty_after: 9,
      sale_id: sale.id,
    });
    expect((await eventsOfType(db, shop.id, "sale.completed")).map((event) => event.livemode)).toEqual([false]);
  });

  test("untracked products and ad hoc lines never move stock", async () => {
    const service = await createProduct(live, { name: "Haircut", price_cents: 500, track_stock: false });
    const sale = await live.post("/v1/sales", {
      tender: "cash",
      items: [
        { product_id: service.id, qty: 2 },
        { name: "Tip", qty: 1, unit_cents: 100 },
      ],
    });
    expect(sale.body).toMatchObject({ status: "completed", total_cents: 1100 });
    expect(await movesOf(db, service.id)).toEqual([]);
    expect((await live.get("/v1/stock/moves")).body.data).toEqual([]);
    expect(await onHandOf(db, service.id)).toBe(0);
  });

  test("a sale never fails for lack of recorded stock: on-hand goes negative and the product is low", async () => {
    const product = await createProduct(live, { name: "Last one", price_cents: 100, stock_qty: 1 });
    expect((await live.post("/v1/sales", { tender: "cash", items: [{ product_id: product.id, qty: 3 }] })).status).toBe(
      201,
    );
    expect((await live.get(`/v1/products/${product.id}`)).body).toMatchObject({ stock_qty: -2, low_stock: true });
    const report = (await live.get("/v1/stock/report")).body;
    expect(report.low_stock.map((item: { product_id: string }) => item.product_id)).toEqual([product.id]);
  });

  test("cash sales never change the balance nor the ledger", async () => {
    const product = await createProduct(live, { name: "Sweets", price_cents: 25, stock_qty: 100 });
    for (const api of [live, testWorld]) {
      expect(
        (await api.post("/v1/sales", { tender: "cash", items: [{ product_id: product.id, qty: 4 }] })).status,
      ).toBe(201);
    }
    expect(await balanceOf(live)).toEqual({ USD: 0, ZWG: 0 });
    expect(await balanceOf(testWorld)).toEqual({ USD: 0, ZWG: 0 });
    expect(await ledgerTransactionCount(db, shop.id)).toBe(0);
  });

  test("the currency defaults to the products'; ZWG products sell in ZWG; ad hoc-only sales default to USD", async () => {
    const zwg = await createProduct(live, { name: "Maize meal", price_cents: 4500, currency: "ZWG" });
    expect(
      (await live.post("/v1/sales", { tender: "cash", items: [{ product_id: zwg.id, qty: 1 }] })).body.currency,
    ).toBe("ZWG");
    expect(
      (await live.post("/v1/sales", { tender: "cash", items: [{ name: "Misc", qty: 1, unit_cents: 5 }] })).body
        .currency,
    ).toBe("USD");
    expect(
      (
        await live.post("/v1/sales", {
          tender: "cash",
          currency: "ZWG",
          items: [{ name: "Misc", qty: 1, unit_cents: 5 }],
        })
      ).body.currency,
    ).toBe("ZWG");
  });
});

describe("refused sales", () => {
  let priced: { id: string };
  let unpriced: { id: string };
  let zwg: { id: string };
  let inactive: { id: string };
  beforeEach(async () => {
    priced = await createProduct(live, { name: "Priced", price_cents: 100, stock_qty: 10 });
    unpriced = await createProduct(live, { name: "Unpriced", stock_qty: 10 });
    zwg = await createProduct(live, { name: "ZWG item", price_cents: 100, currency: "ZWG" });
    inactive = await createProduct(live, { name: "Gone", price_cents: 100 });
    await live.patch(`/v1/products/${inactive.id}`, { active: false });
  });

  const cases: [string, number, string, () => unknown][] = [
    ["no items", 400, "parameter_missing", () => ({ tender: "cash" })],
    ["an empty basket", 400, "parameter_invalid", () => ({ tender: "cash", items: [] })],
    [
      "101 lines",
      400,
      "too_many_items",
      () => ({ tender: "cash", items: Array.from({ length: 101 }, () => ({ product_id: priced.id, qty: 1 })) }),
    ],
    [
      "a zero quantity",
      400,
      "invalid_quantity",
      () => ({ tender: "cash", items: [{ product_id: priced.id, qty: 0 }] }),
    ],
    [
      "a negative quantity",
      400,
      "invalid_quantity",
      () => ({ tender: "cash", items: [{ product_id: priced.id, qty: -1 }] }),
    ],
    [
      "a fractional quantity",
      400,
      "invalid_quantity",
      () => ({ tender: "cash", items: [{ product_id: priced.id, qty: 1.5 }] }),
    ],
    [
      "a negative unit price",
      400,
      "invalid_amount",
      () => ({ tender: "cash", items: [{ product_id: priced.id, qty: 1, unit_cents: -1 }] }),
    ],
    [
      "an unknown tender",
      400,
      "parameter_invalid",
      () => ({ tender: "card", items: [{ product_id: priced.id, qty: 1 }] }),
    ],
    [
      "an unknown currency",
      400,
      "invalid_currency",
      () => ({ tender: "cash", currency: "EUR", items: [{ product_id: priced.id, qty: 1 }] }),
    ],
    [
      "an unknown product",
      404,
      "product_not_found",
      () => ({ tender: "cash", items: [{ product_id: "prod_nope", qty: 1 }] }),
    ],
    [
      "an inactive product",
      400,
      "product_inactive",
      () => ({ tender: "cash", items: [{ product_id: inactive.id, qty: 1 }] }),
    ],
    [
      "an unpriced product without unit_cents",
      400,
      "price_required",
      () => ({ tender: "cash", items: [{ product_id: unpriced.id, qty: 1 }] }),
    ],
    [
      "an ad hoc line without unit_cents",
      400,
      "price_required",
      () => ({ tender: "cash", items: [{ name: "X", qty: 1 }] }),
    ],
    [
      "a line with both product_id and name",
      400,
      "parameter_invalid",
      () => ({ tender: "cash", items: [{ product_id: priced.id, name: "X", qty: 1, unit_cents: 1 }] }),
    ],
    [
      "a line with neither product_id nor name",
      400,
      "parameter_missing",
      () => ({ tender: "cash", items: [{ qty: 1 }] }),
    ],
    [
      "a product in another currency",
      400,
      "currency_mismatch",
      () => ({ tender: "cash", currency: "USD", items: [{ product_id: zwg.id, qty: 1 }] }),
    ],
    [
      "products in two currencies",
      400,
      "currency_mismatch",
      () => ({
        tender: "cash",
        items: [
          { product_id: priced.id, qty: 1 },
          { product_id: zwg.id, qty: 1 },
        ],
      }),
    ],
    [
      "a wallet sale of nothing to pay",
      400,
      "invalid_amount",
      () => ({ tender: "wallet", items: [{ product_id: priced.id, qty: 1, unit_cents: 0 }] }),
    ],
    [
      "a total above 1,000,000,000 cents",
      400,
      "invalid_amount",
      () => ({ tender: "cash", items: [{ name: "Gold", qty: 2, unit_cents: 1_000_000_000 }] }),
    ],
    [
      "an unknown field",
      400,
      "parameter_unknown",
      () => ({ tender: "cash", items: [{ product_id: priced.id, qty: 1, discount: 5 }] }),
    ],
  ];
  test.each(cases)("refuses %s: %i %s; nothing is sold or moved", async (_, status, code, body) => {
    const response = await live.post("/v1/sales", body());
    expect(response.status).toBe(status);
    expect(response.body.error).toMatchObject({ type: "invalid_request", code });
    expect(await saleCount(shop.id)).toBe(0);
    expect(await onHandOf(db, priced.id)).toBe(10);
    expect((await live.get("/v1/stock/moves", { kind: "sale" })).body.data).toEqual([]);
  });
});

describe("idempotency", () => {
  test("POST /v1/sales requires an Idempotency-Key; a retry replays the sale and moves nothing twice", async () => {
    const product = await createProduct(live, { name: "Water", price_cents: 50, stock_qty: 10 });
    const missing = await request(setup.app)
      .post("/v1/sales")
      .set("Authorization", `Bearer ${shop.liveKey}`)
      .send({ tender: "cash", items: [{ product_id: product.id, qty: 1 }] });
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe("missing_idempotency_key");
    const key = randomUUID();
    const body = { tender: "cash", items: [{ product_id: product.id, qty: 2 }] };
    const labels = { tender: "cash", livemode: "true", currency: "USD" };
    const before = await sampleValue("pos_sales_total", labels);
    const first = await live.post("/v1/sales", body, key);
    const replay = await live.post("/v1/sales", body, key);
    expect(replay.status).toBe(201);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(replay.body).toEqual(first.body);
    const mismatch = await live.post("/v1/sales", { ...body, note: "changed" }, key);
    expect(mismatch.status).toBe(409);
    expect(mismatch.body.error.code).toBe("idempotency_mismatch");
    expect(await onHandOf(db, product.id)).toBe(8);
    expect(await saleCount(shop.id)).toBe(1);
    expect(await eventsOfType(db, shop.id, "sale.completed")).toHaveLength(1);
    expect(await sampleValue("pos_sales_total", labels)).toBe(before + 1);
  });
});

describe("snapshots", () => {
  test("catalog edits never change a past sale, and the database refuses to edit one", async () => {
    const product = await createProduct(live, { name: "Tea", price_cents: 100, stock_qty: 5 });
    const sale = (await live.post("/v1/sales", { tender: "cash", items: [{ product_id: product.id, qty: 2 }] })).body;
    await live.patch(`/v1/products/${product.id}`, { name: "Green tea", price_cents: 175, active: false });
    expect((await live.get(`/v1/sales/${sale.id}`)).body).toEqual(sale);
    expect((await live.get("/v1/sales")).body.data[0]).toEqual(sale);
    await expect(
      db.database.query(sql.unsafe`UPDATE sales SET items = '[]'::jsonb WHERE id = ${sale.id}`),
    ).rejects.toThrow(/only a pending sale changes/);
    await expect(db.database.query(sql.unsafe`UPDATE sales SET total_cents = 1 WHERE id = ${sale.id}`)).rejects.toThrow(
      /only a pending sale changes/,
    );
    await expect(db.database.query(sql.unsafe`DELETE FROM sales WHERE id = ${sale.id}`)).rejects.toThrow(
      /never deleted/,
    );
    expect((await live.get(`/v1/sales/${sale.id}`)).body).toEqual(sale);
  });
});

describe("concurrency", () => {
  test("100 concurrent live sales of one product leave on-hand exactly decremented and the journal complete", async () => {
    const product = await createProduct(live, { name: "Hot item", price_cents: 100, stock_qty: 1000 });
    const quantities = Array.from({ length: 100 }, (_, index) => (index % 3) + 1);
    const responses = await Promise.all(
      quantities.map((qty) => live.post("/v1/sales", { tender: "cash", items: [{ product_id: product.id, qty }] })),
    );
    expect(responses.map((response) => response.status)).toEqual(quantities.map(() => 201));
    const sold = quantities.reduce((sum, qty) => sum + qty, 0);
    expect(await onHandOf(db, product.id)).toBe(1000 - sold);
    const moves = (await movesOf(db, product.id)).filter((move) => move.kind === "sale");
    expect(moves).toHaveLength(100);
    expect(new Set(moves.map((move) => move.sale_id))).toEqual(new Set(responses.map((response) => response.body.id)));
    let running = 1000;
    for (const move of moves) {
      running += move.qty_delta;
      expect(move.stock_qty_after).toBe(running);
    }
    expect(running).toBe(1000 - sold);
    expect(await eventsOfType(db, shop.id, "sale.completed")).toHaveLength(100);
  });

  test("concurrent sales naming the same products in opposite orders never deadlock", async () => {
    const first = await createProduct(live, { name: "First", price_cents: 10, stock_qty: 100 });
    const second = await createProduct(live, { name: "Second", price_cents: 10, stock_qty: 100 });
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        live.post("/v1/sales", {
          tender: "cash",
          items:
            index % 2 === 0
              ? [
                  { product_id: first.id, qty: 1 },
                  { product_id: second.id, qty: 1 },
                ]
              : [
                  { product_id: second.id, qty: 1 },
                  { product_id: first.id, qty: 1 },
                ],
        }),
      ),
    );
    expect(responses.every((response) => response.status === 201)).toBe(true);
    expect(await onHandOf(db, first.id)).toBe(60);
    expect(await onHandOf(db, second.id)).toBe(60);
  });
});

describe("wallet sales (test world)", () => {
  test("a payment code still live elsewhere is replaced by a fresh one; a gateway issuing only those fails the sale", async () => {
    const sandbox = createSandboxGateway({ autoSettleMs: 3_600_000 });
    const codes = collidingCodes(sandbox.issuePaymentCode);
    const { issuedCodes } = codes;
    const colliding: PaymentGateway = { ...sandbox, issuePaymentCode: codes.issue };
    const till = client(posSetup(db, {}, { test: colliding, live: colliding }).app, shop.testKey);
    const product = await createProduct(live, { name: "Socks", price_cents: 500, stock_qty: 10 });
    const walletSale = { tender: "wallet", items: [{ product_id: product.id, qty: 1 }] };
    const first = await till.post("/v1/sales", walletSale);
    expect(first.status).toBe(201);
    const liveCode: string = first.body.payment.code;

    codes.repeat(liveCode, 2);
    const second = await till.post("/v1/sales", walletSale);
    expect(second.status).toBe(201);
    expect(issuedCodes.slice(1)).toEqual([liveCode, liveCode, second.body.payment.code]);
    expect(second.body.payment.code).not.toBe(liveCode);
    expect(await saleCount(shop.id)).toBe(2);

    codes.repeat(liveCode, 3);
    const key = randomUUID();
    const failed = await till.post("/v1/sales", walletSale, key);
    expect(failed.status).toBe(502);
    expect(failed.body.error.code).toBe("code_generation_failed");
    // Nothing written (sale or payment) and the key released: the retry with the same key runs again.
    expect(await saleCount(shop.id)).toBe(2);
    const retried = await till.post("/v1/sales", walletSale, key);
    expect(retried.status).toBe(201);
    expect(await saleCount(shop.id)).toBe(3);
    expect(
      await db.database.oneFirst(sql.type(z.object({ count: z.number() }))`
        SELECT count(*)::int AS count FROM payments WHERE merchant_id = ${shop.id}`),
    ).toBe(3);
  });

  test("pending with an embedded payment; mockpay completes it: stock journaled, sale.completed, balance net of fee", async () => {
    const product = await createProduct(live, { name: "Shoes", price_cents: 2000, stock_qty: 6 });
    const labels = { tender: "wallet", livemode: "false", currency: "USD" };
    const before = await sampleValue("pos_sales_total", labels);
    const created = await testWorld.post("/v1/sales", {
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
    expect((await movesOf(db, product.id)).filter((move) => move.kind === "sale")).toEqual([]);
    expect(await eventsOfType(db, shop.id, "sale.completed")).toEqual([]);

    const paid = await request(setup.app).post(`/checkout/${sale.payment_id}/mockpay`).send({});
    expect(paid.body.status).toBe("paid");
    const fetched = (await testWorld.get(`/v1/sales/${sale.id}`)).body;
    expect(fetched).toMatchObject({ status: "completed", completed_at: expect.any(String) });
    expect(fetched.payment.status).toBe("paid");
    expect((await movesOf(db, product.id)).at(-1)).toMatchObject({
      livemode: false,
      kind: "sale",
      qty_delta: -2,
      stock_qty_after: 6,
      sale_id: sale.id,
    });
    expect(await onHandOf(db, product.id)).toBe(6);
    const [event] = await eventsOfType(db, shop.id, "sale.completed");
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
    expect(await balanceOf(testWorld)).toEqual({ USD: 3940, ZWG: 0 });
    expect(await balanceOf(live)).toEqual({ USD: 0, ZWG: 0 });
    expect(await sampleValue("pos_sales_total", labels)).toBe(before + 1);
  });

  test("an expired payment cancels the sale with nothing moved; so does a failed one", async () => {
    const product = await createProduct(live, { name: "Bag", price_cents: 700, stock_qty: 4 });
    const sale = (await testWorld.post("/v1/sales", { tender: "wallet", items: [{ product_id: product.id, qty: 1 }] }))
      .body;
    await request(setup.app).post(`/checkout/${sale.payment_id}/mockpay`).send({ outcome: "expired" });
    const fetched = (await testWorld.get(`/v1/sales/${sale.id}`)).body;
    expect(fetched).toMatchObject({ status: "cancelled", completed_at: null, cancelled_at: expect.any(String) });
    expect(fetched.payment.status).toBe("expired");

    const unusable = await createProduct(live, { name: "Cursed", price_cents: SANDBOX_MAGIC_AMOUNTS.codeUnusable });
    const failing = (
      await testWorld.post("/v1/sales", { tender: "wallet", items: [{ product_id: unusable.id, qty: 1 }] })
    ).body;
    const failed = (await testWorld.get(`/v1/sales/${failing.id}`)).body;
    expect(failed.status).toBe("cancelled");
    expect(failed.payment.status).toBe("failed");

    expect((await movesOf(db, product.id)).filter((move) => move.kind === "sale")).toEqual([]);
    expect(await eventsOfType(db, shop.id, "sale.completed")).toEqual([]);
    expect(await ledgerTransactionCount(db, shop.id)).toBe(0);
    expect(await balanceOf(testWorld)).toEqual({ USD: 0, ZWG: 0 });
    // Paying afterwards changes nothing: the payment is final.
    expect((await request(setup.app).post(`/checkout/${sale.payment_id}/mockpay`).send({})).status).toBe(409);
    expect((await testWorld.get(`/v1/sales/${sale.id}`)).body.status).toBe("cancelled");
  });

  test("the code window closes unpaid: the expiry job cancels the sale in the payment's transaction", async () => {
    const short = posSetup(db, { PAYMENT_CODE_WINDOW_SECONDS: "1" });
    const api = client(short.app, shop.testKey);
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
    const status = await db.database.oneFirst(sql.type(z.object({ status: z.string() }))`
      SELECT status FROM sales WHERE id = ${sale.id}`);
    expect(status).toBe("cancelled");
    expect((await movesOf(db, product.id)).filter((move) => move.kind === "sale")).toEqual([]);
  });

  test("a payment settled by a process without the sales hook (an older release): GET /v1/sales/:id finishes the sale once", async () => {
    const product = await createProduct(live, { name: "Rollout", price_cents: 500, stock_qty: 3 });
    const sale = (await testWorld.post("/v1/sales", { tender: "wallet", items: [{ product_id: product.id, qty: 1 }] }))
      .body;
    // Settled as a process given no payment hooks would settle it.
    const pending = await payments.getPaymentById(db.database, sale.payment_id);
    await payments.settlePayment({ database: db.database, paymentHooks: [] }, pending, {
      paidAt: new Date(),
      payerMsisdn: null,
    });
    expect((await testWorld.get(`/v1/payments/${sale.payment_id}`)).body.status).toBe("paid");
    expect(
      await db.database.oneFirst(
        sql.type(z.object({ status: z.string() }))`SELECT status FROM sales WHERE id = ${sale.id}`,
      ),
    ).toBe("pending");
    const fetched = await Promise.all([testWorld.get(`/v1/sales/${sale.id}`), testWorld.get(`/v1/sales/${sale.id}`)]);
    expect(fetched.map((response) => response.body.status)).toEqual(["completed", "completed"]);
    expect(
      (await eventsOfType(db, shop.id, "sale.completed")).filter((event) => event.data.sale_id === sale.id),
    ).toHaveLength(1);
    expect((await movesOf(db, product.id)).filter((move) => move.kind === "sale")).toHaveLength(1);
  });

  test("settlement racing GET /v1/sales/:id refreshes, the poller and mockpay: the sale completes exactly once", async () => {
    for (let round = 0; round < 4; round += 1) {
      const racing = posSetup(db, {
        SANDBOX_AUTO_SETTLE_SECONDS: "0.25",
        PAYMENT_INQUIRY_MIN_INTERVAL_SECONDS: "0.01",
      });
      const api = client(racing.app, shop.testKey);
      const product = await createProduct(api, { name: `Race ${round}`, price_cents: 300, stock_qty: 10 });
      const sale = (await api.post("/v1/sales", { tender: "wallet", items: [{ product_id: product.id, qty: 2 }] }))
        .body;
      await new Promise((resolve) => setTimeout(resolve, 300));
      const outcomes = await Promise.allSettled([
        ...Array.from({ length: 8 }, () => api.get(`/v1/sales/${sale.id}`)),
        api.get(`/v1/payments/${sale.payment_id}`),
        payments.pollPayment(racing.dependencies, { paymentId: sale.payment_id }),
        request(racing.app).post(`/checkout/${sale.payment_id}/mockpay`).send({}),
      ]);
      expect(outcomes.every((outcome) => outcome.status === "fulfilled")).toBe(true);
      const final = (await api.get(`/v1/sales/${sale.id}`)).body;
      expect(final.status).toBe("completed");
      const completions = (await eventsOfType(db, shop.id, "sale.completed")).filter(
        (event) => event.data.sale_id === sale.id,
      );
      expect(completions).toHaveLength(1);
      expect((await movesOf(db, product.id)).filter((move) => move.kind === "sale")).toHaveLength(1);
      const settlements = await db.database.oneFirst(sql.type(z.object({ count: z.number() }))`
        SELECT count(*)::int AS count FROM ledger_transactions WHERE source_id = ${sale.payment_id}`);
      expect(settlements).toBe(1);
    }
  });
});

describe("wallet sales (live world, through the gateway simulator)", () => {
  let simulator: GatewaySimulator;
  beforeAll(async () => {
    simulator = await startGatewaySimulator({
      port: 0,
      apiKey: "gwsim_live_test",
      logger: createLogger({ level: "silent", service: "test" }),
    });
  });
  afterAll(() => simulator.stop());
  const simulate = (path: string, body: unknown = {}) =>
    fetch(`${simulator.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  test("paid: the sale completes, on-hand is decremented, the live balance is credited net of fee, exactly once under racing refreshes", async () => {
    const liveSetup = posSetup(db, {
      GATEWAY_URL: simulator.url,
      GATEWAY_API_KEY: "gwsim_live_test",
      GATEWAY_TIMEOUT_MS: "10000",
      PAYMENT_INQUIRY_MIN_INTERVAL_SECONDS: "0.01",
    });
    const api = client(liveSetup.app, shop.liveKey);
    const product = await createProduct(api, { name: "Jacket", price_cents: 2000, stock_qty: 10 });
    const cashProduct = await createProduct(api, { name: "Socks", price_cents: 300, stock_qty: 10 });
    await api.post("/v1/sales", { tender: "cash", items: [{ product_id: cashProduct.id, qty: 1 }] });
    const sale = (await api.post("/v1/sales", { tender: "wallet", items: [{ product_id: product.id, qty: 2 }] })).body;
    expect(sale).toMatchObject({ livemode: true, status: "pending", payment: { livemode: true, amount_cents: 4000 } });
    expect((await api.get(`/v1/sales/${sale.id}`)).body.status).toBe("pending");
    expect(await onHandOf(db, product.id)).toBe(10);

    await simulate("/sim/wallets", { msisdn: "263772000009", currency: "USD", amount_cents: 10_000 });
    expect(
      (await simulate(`/sim/payment-codes/${sale.payment.code}/pay`, { payer_msisdn: "263772000009" })).status,
    ).toBe(200);
    await Promise.all([
      ...Array.from({ length: 6 }, () => api.get(`/v1/sales/${sale.id}`)),
      payments.pollPayment(liveSetup.dependencies, { paymentId: sale.payment_id }),
    ]);
    const final = (await api.get(`/v1/sales/${sale.id}`)).body;
    expect(final.status).toBe("completed");
    expect(await onHandOf(db, product.id)).toBe(8);
    expect((await movesOf(db, product.id)).filter((move) => move.kind === "sale")).toEqual([
      expect.objectContaining({ livemode: true, qty_delta: -2, stock_qty_after: 8, sale_id: sale.id }),
    ]);
    // Only the wallet sale feeds the payable balance (4000 less 1.5%); the cash sale does not.
    expect(await balanceOf(api)).toEqual({ USD: 3940, ZWG: 0 });
    expect(
      (await eventsOfType(db, shop.id, "sale.completed")).filter((event) => event.data.sale_id === sale.id),
    ).toHaveLength(1);
  });
});

describe("reading and listing sales", () => {
  test("one merchant never sees or touches another's sales or products; test and live never mix", async () => {
    const product = await createProduct(live, { name: "Private", price_cents: 100, stock_qty: 5 });
    const liveSale = (await live.post("/v1/sales", { tender: "cash", items: [{ product_id: product.id, qty: 1 }] }))
      .body;
    const testSale = (
      await testWorld.post("/v1/sales", { tender: "cash", items: [{ product_id: product.id, qty: 1 }] })
    ).body;
    const other = await newMerchant(db.database);
    const stranger = client(setup.app, other.liveKey);
    for (const response of [
      await stranger.get(`/v1/sales/${liveSale.id}`),
      await testWorld.get(`/v1/sales/${liveSale.id}`),
      await live.get(`/v1/sales/${testSale.id}`),
    ]) {
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe("resource_missing");
    }
    const foreign = await stranger.post("/v1/sales", { tender: "cash", items: [{ product_id: product.id, qty: 5 }] });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe("product_not_found");
    expect(await onHandOf(db, product.id)).toBe(4);
    expect((await stranger.get("/v1/sales")).body.data).toEqual([]);
    expect((await live.get("/v1/sales")).body.data.map((sale: { id: string }) => sale.id)).toEqual([liveSale.id]);
    expect((await testWorld.get("/v1/sales")).body.data.map((sale: { id: string }) => sale.id)).toEqual([testSale.id]);
    expect((await live.get("/v1/sales/report")).body.totals.count).toBe(1);
    expect((await stranger.get("/v1/sales/report")).body.totals.count).toBe(0);
  });

  test("lists newest first with status, from and to filters and keyset pages; limit at most 100", async () => {
    const product = await createProduct(live, { name: "Listed", price_cents: 100 });
    const ids: string[] = [];
    for (let index = 0; index < 4; index += 1) {
      ids.push(
        (await testWorld.post("/v1/sales", { tender: "cash", items: [{ product_id: product.id, qty: 1 }] })).body.id,
      );
    }
    const pending = (
      await testWorld.post("/v1/sales", { tender: "wallet", items: [{ product_id: product.id, qty: 1 }] })
    ).body;
    const first = await testWorld.get("/v1/sales", { limit: 2 });
    expect(first.body.data.map((sale: { id: string }) => sale.id)).toEqual([pending.id, ids[3]]);
    expect(first.body.data[0].payment).toBeNull();
    const second = await testWorld.get("/v1/sales", { limit: 2, cursor: first.body.next_cursor });
    expect(second.body.data.map((sale: { id: string }) => sale.id)).toEqual([ids[2], ids[1]]);
    expect(
      (await testWorld.get("/v1/sales", { status: "pending" })).body.data.map((sale: { id: string }) => sale.id),
    ).toEqual([pending.id]);
    expect((await testWorld.get("/v1/sales", { status: "completed" })).body.data).toHaveLength(4);
    const fromPending = await testWorld.get("/v1/sales", { from: pending.created_at });
    expect(fromPending.body.data.map((sale: { id: string }) => sale.id)).toContain(pending.id);
    expect((await testWorld.get("/v1/sales", { to: "2000-01-01" })).body.data).toEqual([]);
    expect((await testWorld.get("/v1/sales", { limit: 101 })).body.error.code).toBe("parameter_invalid");
    expect((await testWorld.get("/v1/sales", { status: "paid" })).body.error.code).toBe("parameter_invalid");
  });
});
