import { z } from "zod";
import { newMerchant } from "../../../tests/support/factories.ts";
import { client, createProduct, movesOf, onHandOf, posSetup, productsTestWorld } from "../../../tests/support/pos.ts";
import { sql } from "../../platform/db/pool.ts";

const world = productsTestWorld({ poolSize: 20 });

describe("live stock operations", () => {
  test("receive, adjust and count change on-hand and journal who, when, why, the delta and the result", async () => {
    const product = await createProduct(world.live, { name: "Rice 2kg", price_cents: 350, stock_qty: 10 });
    const received = await world.live.post("/v1/stock/receive", {
      product_id: product.id,
      qty: 24,
      note: "Delivery #7",
    });
    expect(received.status).toBe(201);
    expect(received.body.move).toEqual({
      id: expect.stringMatching(/^smv_/),
      object: "stock_move",
      livemode: true,
      product_id: product.id,
      kind: "receive",
      qty_delta: 24,
      stock_qty_after: 34,
      note: "Delivery #7",
      actor: { type: "api_key", id: world.shop.liveKeyId },
      sale_id: null,
      created_at: expect.any(String),
    });
    expect(received.body.product).toMatchObject({ id: product.id, object: "product", stock_qty: 34 });

    const adjusted = await world.live.post("/v1/stock/adjust", { product_id: product.id, qty: -3, note: "Torn bags" });
    expect(adjusted.body.move).toMatchObject({ kind: "adjust", qty_delta: -3, stock_qty_after: 31 });
    const counted = await world.live.post("/v1/stock/count", { product_id: product.id, qty: 28, note: "Stocktake" });
    expect(counted.body.move).toMatchObject({ kind: "count", qty_delta: -3, stock_qty_after: 28 });
    // A count that agrees is journaled too, with a zero delta.
    const agreeing = await world.live.post("/v1/stock/count", { product_id: product.id, qty: 28 });
    expect(agreeing.body.move).toMatchObject({ kind: "count", qty_delta: 0, stock_qty_after: 28, note: null });
    expect(await onHandOf(world.db, product.id)).toBe(28);
    expect(
      (await movesOf(world.db, product.id)).map((move) => [move.kind, move.qty_delta, move.stock_qty_after]),
    ).toEqual([
      ["count", 10, 10],
      ["receive", 24, 34],
      ["adjust", -3, 31],
      ["count", -3, 28],
      ["count", 0, 28],
    ]);
  });

  test.each([
    ["/v1/stock/receive", { qty: 0 }, "invalid_quantity"],
    ["/v1/stock/receive", { qty: -2 }, "invalid_quantity"],
    ["/v1/stock/receive", { qty: 1.5 }, "invalid_quantity"],
    ["/v1/stock/receive", {}, "invalid_quantity"],
    ["/v1/stock/adjust", { qty: 0 }, "invalid_quantity"],
    ["/v1/stock/adjust", { qty: "3" }, "invalid_quantity"],
    ["/v1/stock/count", { qty: -1 }, "invalid_quantity"],
    ["/v1/stock/count", { qty: 5, extra: true }, "parameter_unknown"],
  ])("%s refuses %j with %s and journals nothing", async (path, body, code) => {
    const product = await createProduct(world.live, { name: "Beans" });
    const response = await world.live.post(path, { product_id: product.id, ...body });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ type: "invalid_request", code });
    expect(await movesOf(world.db, product.id)).toEqual([]);
  });

  test("untracked products are never counted (400 stock_not_tracked); unknown and foreign products are 404 product_not_found", async () => {
    const service = await createProduct(world.live, { name: "Gift wrapping", price_cents: 100, track_stock: false });
    for (const path of ["/v1/stock/receive", "/v1/stock/adjust", "/v1/stock/count"]) {
      const response = await world.live.post(path, { product_id: service.id, qty: 1 });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ type: "invalid_request", code: "stock_not_tracked" });
      const missing = await world.live.post(path, { product_id: "prod_nope", qty: 1 });
      expect(missing.status).toBe(404);
      expect(missing.body.error).toMatchObject({ type: "invalid_request", code: "product_not_found" });
    }
    expect(await movesOf(world.db, service.id)).toEqual([]);

    const mine = await createProduct(world.live, { name: "Mine", stock_qty: 5 });
    const other = await newMerchant(world.db.database);
    const stranger = client(posSetup(world.db).app, other.liveKey);
    const foreign = await stranger.post("/v1/stock/receive", { product_id: mine.id, qty: 100 });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe("product_not_found");
    expect(await onHandOf(world.db, mine.id)).toBe(5);
    expect((await stranger.get("/v1/stock/moves")).body.data).toEqual([]);
    expect((await stranger.get("/v1/stock/report")).body.products.data).toEqual([]);
  });

  test("concurrent receipts, adjustments and counts: on-hand is the sum of the live journal, each move's result its running sum", async () => {
    const product = await createProduct(world.live, { name: "Sugar", stock_qty: 100 });
    const operations = Array.from({ length: 60 }, (_, index) => {
      if (index % 3 === 0) {
        return world.live.post("/v1/stock/receive", { product_id: product.id, qty: 5 });
      }
      if (index % 3 === 1) {
        return world.live.post("/v1/stock/adjust", { product_id: product.id, qty: -2 });
      }
      return world.live.post("/v1/stock/count", { product_id: product.id, qty: 90 + index });
    });
    const responses = await Promise.all(operations);
    expect(responses.every((response) => response.status === 201)).toBe(true);
    const moves = await movesOf(world.db, product.id);
    expect(moves).toHaveLength(61);
    let running = 0;
    for (const move of moves) {
      running += move.qty_delta;
      expect(move.stock_qty_after).toBe(running);
    }
    expect(await onHandOf(world.db, product.id)).toBe(running);
  });
});

describe("the test world", () => {
  test("test-world operations are journaled with livemode false and change nothing", async () => {
    const product = await createProduct(world.live, { name: "Oil 2l", price_cents: 400, stock_qty: 12 });
    const received = await world.testWorld.post("/v1/stock/receive", { product_id: product.id, qty: 50 });
    expect(received.status).toBe(201);
    expect(received.body.move).toMatchObject({
      livemode: false,
      kind: "receive",
      qty_delta: 50,
      stock_qty_after: 12,
      actor: { type: "api_key", id: world.shop.testKeyId },
    });
    expect(received.body.product.stock_qty).toBe(12);
    expect(
      (await world.testWorld.post("/v1/stock/adjust", { product_id: product.id, qty: -7 })).body.move,
    ).toMatchObject({
      livemode: false,
      qty_delta: -7,
      stock_qty_after: 12,
    });
    expect((await world.testWorld.post("/v1/stock/count", { product_id: product.id, qty: 3 })).body.move).toMatchObject(
      {
        livemode: false,
        qty_delta: -9,
        stock_qty_after: 12,
      },
    );
    expect(await onHandOf(world.db, product.id)).toBe(12);
    // Each world lists its own journal.
    const testKinds = (await world.testWorld.get("/v1/stock/moves")).body.data.map(
      (move: { kind: string }) => move.kind,
    );
    expect(testKinds).toEqual(["count", "adjust", "receive"]);
    const liveMoves = (await world.live.get("/v1/stock/moves")).body.data;
    expect(liveMoves.map((move: { kind: string; livemode: boolean }) => [move.kind, move.livemode])).toEqual([
      ["count", true],
    ]);
  });
});

describe("the journal", () => {
  test("is append-only: the database refuses UPDATE, DELETE and TRUNCATE", async () => {
    const product = await createProduct(world.live, { name: "Tea", stock_qty: 3 });
    const [move] = await movesOf(world.db, product.id);
    await expect(
      world.db.database.query(sql.unsafe`UPDATE stock_moves SET qty_delta = 100 WHERE id = ${move?.id ?? ""}`),
    ).rejects.toThrow(/append-only/);
    await expect(
      world.db.database.query(sql.unsafe`DELETE FROM stock_moves WHERE id = ${move?.id ?? ""}`),
    ).rejects.toThrow(/append-only/);
    await expect(world.db.database.query(sql.unsafe`TRUNCATE stock_moves CASCADE`)).rejects.toThrow(/append-only/);
    expect(await movesOf(world.db, product.id)).toHaveLength(1);
  });

  test("lists newest first, filters by product and kind, pages with a cursor", async () => {
    const first = await createProduct(world.live, { name: "First", stock_qty: 1 });
    const second = await createProduct(world.live, { name: "Second" });
    for (let index = 0; index < 4; index += 1) {
      await world.live.post("/v1/stock/receive", { product_id: second.id, qty: index + 1 });
    }
    await world.live.post("/v1/stock/adjust", { product_id: first.id, qty: 2 });
    const all = (await world.live.get("/v1/stock/moves", { limit: 100 })).body;
    expect(all.data.map((move: { product_id: string; kind: string }) => [move.product_id, move.kind])).toEqual([
      [first.id, "adjust"],
      [second.id, "receive"],
      [second.id, "receive"],
      [second.id, "receive"],
      [second.id, "receive"],
      [first.id, "count"],
    ]);
    const pageOne = (await world.live.get("/v1/stock/moves", { product_id: second.id, limit: 3 })).body;
    expect(pageOne.data.map((move: { qty_delta: number }) => move.qty_delta)).toEqual([4, 3, 2]);
    expect(pageOne.has_more).toBe(true);
    const pageTwo = (
      await world.live.get("/v1/stock/moves", { product_id: second.id, limit: 3, cursor: pageOne.next_cursor })
    ).body;
    expect(pageTwo.data.map((move: { qty_delta: number }) => move.qty_delta)).toEqual([1]);
    expect(pageTwo.has_more).toBe(false);
    expect((await world.live.get("/v1/stock/moves", { kind: "adjust" })).body.data).toHaveLength(1);
    expect((await world.live.get("/v1/stock/moves", { limit: 101 })).body.error.code).toBe("parameter_invalid");
    expect((await world.live.get("/v1/stock/moves", { cursor: "bad" })).body.error.code).toBe("parameter_invalid");
  });
});

describe("the stock report", () => {
  test("on-hand, valuation at current prices and low stock equal sums computed from the product rows", async () => {
    await createProduct(world.live, { name: "Apples", price_cents: 50, stock_qty: 100, low_stock_at: 10 });
    const pears = await createProduct(world.live, { name: "Pears", price_cents: 80, stock_qty: 5, low_stock_at: 10 });
    await createProduct(world.live, { name: "Mangoes", price_cents: 999, currency: "ZWG", stock_qty: 3 });
    await createProduct(world.live, { name: "Unpriced", stock_qty: 4, low_stock_at: 1 });
    const oversold = await createProduct(world.live, { name: "Oversold", price_cents: 10, stock_qty: 1 });
    await world.live.post("/v1/sales", { tender: "cash", items: [{ product_id: oversold.id, qty: 3 }] });
    await createProduct(world.live, { name: "Service", price_cents: 1000, track_stock: false });
    const retired = await createProduct(world.live, { name: "Retired", price_cents: 1, stock_qty: 1000 });
    await world.live.patch(`/v1/products/${retired.id}`, { active: false });
    // Another merchant's stock never counts.
    const other = await newMerchant(world.db.database);
    await createProduct(client(posSetup(world.db).app, other.liveKey), {
      name: "Theirs",
      price_cents: 5,
      stock_qty: 5,
    });

    const report = (await world.live.get("/v1/stock/report")).body;
    expect(report.object).toBe("stock_report");

    const rows = await world.db.database.any(sql.type(
      z.object({
        id: z.string(),
        currency: z.string(),
        stock_qty: z.number(),
        price_cents: z.number().nullable(),
        low_stock_at: z.number(),
      }),
    )`
      SELECT id, currency, stock_qty, price_cents, low_stock_at FROM products
      WHERE merchant_id = ${world.shop.id} AND active AND track_stock`);
    for (const currency of ["USD", "ZWG"]) {
      const inCurrency = rows.filter((row) => row.currency === currency);
      expect(report.totals.find((total: { currency: string }) => total.currency === currency)).toEqual({
        currency,
        products: inCurrency.length,
        units: inCurrency.reduce((sum, row) => sum + row.stock_qty, 0),
        value_cents: inCurrency.reduce((sum, row) => sum + Math.max(row.stock_qty, 0) * (row.price_cents ?? 0), 0),
        unpriced_products: inCurrency.filter((row) => row.price_cents === null).length,
      });
    }
    expect(report.totals[0]).toEqual({
      currency: "USD",
      products: 4,
      units: 107,
      value_cents: 5400,
      unpriced_products: 1,
    });
    const low = rows.filter((row) => row.stock_qty <= row.low_stock_at).map((row) => row.id);
    expect(report.low_stock_count).toBe(low.length);
    expect(report.low_stock.map((item: { product_id: string }) => item.product_id).sort()).toEqual([...low].sort());
    // Furthest below its threshold first: Pears (5 against 10) before the oversold product (-2 against 0).
    expect(report.low_stock.map((item: { product_id: string }) => item.product_id)).toEqual([pears.id, oversold.id]);
    expect(report.low_stock[1]).toMatchObject({ stock_qty: -2, low_stock: true, value_cents: 0 });
    expect(report.products.data.map((item: { name: string }) => item.name)).toEqual([
      "Apples",
      "Mangoes",
      "Oversold",
      "Pears",
      "Unpriced",
    ]);
    expect(report.products.data.find((item: { name: string }) => item.name === "Unpriced").value_cents).toBeNull();

    const firstPage = (await world.live.get("/v1/stock/report", { limit: 2 })).body.products;
    expect(firstPage.has_more).toBe(true);
    const secondPage = (await world.live.get("/v1/stock/report", { limit: 2, cursor: firstPage.next_cursor })).body
      .products;
    expect(secondPage.data.map((item: { name: string }) => item.name)).toEqual(["Oversold", "Pears"]);
  });
});
