import { randomUUID } from "node:crypto";
import { z } from "zod";
import { scrapeMetrics } from "../../../tests/support/app.ts";
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
import { type Database, sql } from "../../platform/db/pool.ts";

/** Cash sales: completed at once, stock journaled, never the ledger. */

const world = salesTestWorld();

describe("cash sales", () => {
  test("live: completed at once, lines snapshotted, stock decremented and journaled, sale.completed, counted", async () => {
    const cola = await createProduct(world.live, { name: "Cola", price_cents: 150, stock_qty: 20 });
    const bread = await createProduct(world.live, { name: "Bread", price_cents: 90, stock_qty: 5 });
    const labels = { tender: "cash", livemode: "true", currency: "USD" };
    const countedBefore = await sampleValue("pos_sales_total", labels);
    const response = await world.live.post("/v1/sales", {
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
      // A sale of one tender shows it as one entry of `tenders`.
      tenders: [
        {
          kind: "cash",
          currency: "USD",
          amount_cents: 700,
          credit_cents: 700,
          contributed_cents: 700,
          net_amount_cents: 700,
          exchange_rate_id: null,
          other_per_base_micros: null,
          status: "paid",
          payment_id: null,
        },
      ],
      paid_cents: 700,
      due_cents: 0,
      change: null,
      total_cents: 450 + 80 + 20 + 150,
      currency: "USD",
      items: [
        { product_id: cola.id, name: "Cola", qty: 3, unit_cents: 150, line_total_cents: 450 },
        { product_id: bread.id, name: "Bread", qty: 1, unit_cents: 80, line_total_cents: 80 },
        { product_id: null, name: "Plastic bag", qty: 2, unit_cents: 10, line_total_cents: 20 },
        { product_id: cola.id, name: "Cola", qty: 1, unit_cents: 150, line_total_cents: 150 },
      ],
      discount_cents: 0,
      discount_reason: null,
      tax_cents: 0,
      taxes: [],
      cashier: "Tendai",
      note: "Table 4",
      payment_id: null,
      payment: null,
      actor: { type: "api_key", id: world.shop.liveKeyId },
      client_sale_id: null,
      till_id: null,
      shift_id: null,
      tendered_cents: null,
      change_cents: null,
      returns: [],
      receipt_url: expect.stringMatching(/^https:\/\/pay\.example\.com\/receipts\/[\w-]{32}$/),
      taken_at: sale.created_at,
      completed_at: expect.any(String),
      cancelled_at: null,
      created_at: expect.any(String),
    });
    expect(await onHandOf(world.db, cola.id)).toBe(16);
    expect(await onHandOf(world.db, bread.id)).toBe(4);
    expect((await movesOf(world.db, cola.id)).at(-1)).toMatchObject({
      livemode: true,
      kind: "sale",
      qty_delta: -4,
      stock_qty_after: 16,
      sale_id: sale.id,
      actor_id: world.shop.liveKeyId,
    });
    expect(await eventsOfType(world.db, world.shop.id, "sale.completed")).toEqual([
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
    expect((await scrapeMetrics(world.setup.app)).text).toMatch(/pos_sales_total\{[^}]*tender="cash"/);
    expect((await world.live.get(`/v1/sales/${sale.id}`)).body).toEqual(sale);
  });

  test("test world: completed and journaled with livemode false, the shared on-hand unchanged", async () => {
    const product = await createProduct(world.live, { name: "Chips", price_cents: 60, stock_qty: 9 });
    const sale = (
      await world.testWorld.post("/v1/sales", { tender: "cash", items: [{ product_id: product.id, qty: 4 }] })
    ).body;
    expect(sale).toMatchObject({ livemode: false, status: "completed", total_cents: 240 });
    expect(await onHandOf(world.db, product.id)).toBe(9);
    expect((await movesOf(world.db, product.id)).at(-1)).toMatchObject({
      livemode: false,
      kind: "sale",
      qty_delta: -4,
      stock_qty_after: 9,
      sale_id: sale.id,
    });
    expect((await eventsOfType(world.db, world.shop.id, "sale.completed")).map((event) => event.livemode)).toEqual([
      false,
    ]);
  });

  test("untracked products and ad hoc lines never move stock", async () => {
    const service = await createProduct(world.live, { name: "Haircut", price_cents: 500, track_stock: false });
    const sale = await world.live.post("/v1/sales", {
      tender: "cash",
      items: [
        { product_id: service.id, qty: 2 },
        { name: "Tip", qty: 1, unit_cents: 100 },
      ],
    });
    expect(sale.body).toMatchObject({ status: "completed", total_cents: 1100 });
    expect(await movesOf(world.db, service.id)).toEqual([]);
    expect((await world.live.get("/v1/stock/moves")).body.data).toEqual([]);
    expect(await onHandOf(world.db, service.id)).toBe(0);
  });

  test("a sale never fails for lack of recorded stock: on-hand goes negative and the product is low", async () => {
    const product = await createProduct(world.live, { name: "Last one", price_cents: 100, stock_qty: 1 });
    expect(
      (await world.live.post("/v1/sales", { tender: "cash", items: [{ product_id: product.id, qty: 3 }] })).status,
    ).toBe(201);
    expect((await world.live.get(`/v1/products/${product.id}`)).body).toMatchObject({ stock_qty: -2, low_stock: true });
    const report = (await world.live.get("/v1/stock/report")).body;
    expect(report.low_stock.map((item: { product_id: string }) => item.product_id)).toEqual([product.id]);
  });

  test("cash sales never change the balance nor the ledger", async () => {
    const product = await createProduct(world.live, { name: "Sweets", price_cents: 25, stock_qty: 100 });
    for (const api of [world.live, world.testWorld]) {
      expect(
        (await api.post("/v1/sales", { tender: "cash", items: [{ product_id: product.id, qty: 4 }] })).status,
      ).toBe(201);
    }
    expect(await world.balanceOf(world.live)).toEqual({ USD: 0, ZWG: 0 });
    expect(await world.balanceOf(world.testWorld)).toEqual({ USD: 0, ZWG: 0 });
    expect(await ledgerTransactionCount(world.db, world.shop.id)).toBe(0);
  });

  test("the currency defaults to the products'; ZWG products sell in ZWG; ad hoc-only sales default to USD", async () => {
    const zwg = await createProduct(world.live, { name: "Maize meal", price_cents: 4500, currency: "ZWG" });
    expect(
      (await world.live.post("/v1/sales", { tender: "cash", items: [{ product_id: zwg.id, qty: 1 }] })).body.currency,
    ).toBe("ZWG");
    expect(
      (await world.live.post("/v1/sales", { tender: "cash", items: [{ name: "Misc", qty: 1, unit_cents: 5 }] })).body
        .currency,
    ).toBe("USD");
    expect(
      (
        await world.live.post("/v1/sales", {
          tender: "cash",
          currency: "ZWG",
          items: [{ name: "Misc", qty: 1, unit_cents: 5 }],
        })
      ).body.currency,
    ).toBe("ZWG");
  });

  test("a till's cash sale is one statement: sale, cash in the shift, stock, event and stored answer, no transaction block", async () => {
    const product = await createProduct(world.live, { name: "Cola", price_cents: 150, stock_qty: 10 });
    const shift = (await world.live.post("/v1/shifts", { till_id: "till-1" })).body;
    const { counting, api } = world.countedClient(world.shop.liveKey);
    const key = randomUUID();
    const body = {
      tender: "cash",
      till_id: "till-1",
      client_sale_id: randomUUID(),
      items: [{ product_id: product.id, qty: 2 }],
    };
    const sale = await api.post("/v1/sales", body, key);
    expect(sale.status).toBe(201);
    expect(sale.body).toMatchObject({ status: "completed", till_id: "till-1", shift_id: shift.id, total_cents: 300 });
    // Authentication with the key's claim (and the shop's tax settings), the client_sale_id lookup, the
    // products, the open shift, the sale.
    expect(counting.statements()).toBe(5);
    expect(counting.callsOf("transaction")).toBe(0);
    expect(await onHandOf(world.db, product.id)).toBe(8);
    expect(await eventsOfType(world.db, world.shop.id, "sale.completed")).toHaveLength(1);
    expect(await cashMovesOfSale(world.db.database, sale.body.id)).toEqual([
      { shift_id: shift.id, kind: "sale", amount_cents: 300 },
    ]);
    const replay = await world.live.post("/v1/sales", body, key);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(replay.text).toBe(sale.text);
  });

  test("a shift closed between its read and the sale's statement: 409 shift_not_open, nothing written", async () => {
    const product = await createProduct(world.live, { name: "Bread", price_cents: 90, stock_qty: 10 });
    const shift = (await world.live.post("/v1/shifts", { till_id: "till-2" })).body;
    // The close lands just before the sale's statement, after the sale has read the shift open.
    const closingFirst = new Proxy(world.db.database, {
      get: (target, property, receiver) => {
        const value = Reflect.get(target, property, receiver);
        if (property !== "one" || typeof value !== "function") {
          return value;
        }
        return async (query: { sql: string }, ...rest: unknown[]) => {
          if (query.sql.includes("INSERT INTO sales")) {
            const closed = await world.live.post(`/v1/shifts/${shift.id}/close`, { counted: [] });
            expect(closed.status).toBe(200);
          }
          return value.apply(target, [query, ...rest]);
        };
      },
    }) as Database;
    const api = client(posSetup({ ...world.db, database: closingFirst }).app, world.shop.liveKey);
    const refused = await api.post("/v1/sales", {
      tender: "cash",
      till_id: "till-2",
      items: [{ product_id: product.id, qty: 1 }],
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("shift_not_open");
    expect(await world.saleCount(world.shop.id)).toBe(0);
    expect(await onHandOf(world.db, product.id)).toBe(10);
    expect(await eventsOfType(world.db, world.shop.id, "sale.completed")).toEqual([]);
    expect((await world.live.get(`/v1/shifts/${shift.id}`)).body).toMatchObject({ status: "closed" });
  });
});

const cashMovesOfSale = (database: Database, saleId: string) =>
  database.any(sql.type(z.object({ shift_id: z.string(), kind: z.string(), amount_cents: z.number() }))`
    SELECT shift_id, kind, amount_cents FROM shift_cash_moves WHERE sale_id = ${saleId}`);
