import { randomUUID } from "node:crypto";
import request from "supertest";
import { sampleValue } from "../../../tests/support/metrics.ts";
import { createProduct, eventsOfType, onHandOf } from "../../../tests/support/pos.ts";
import { salesTestWorld } from "../../../tests/support/sales.ts";
import { sql } from "../../platform/db/pool.ts";

/** What a sale refuses, its Idempotency-Key replay, and its snapshotted lines. */

const world = salesTestWorld();

describe("refused sales", () => {
  let priced: { id: string };
  let unpriced: { id: string };
  let zwg: { id: string };
  let inactive: { id: string };
  beforeEach(async () => {
    priced = await createProduct(world.live, { name: "Priced", price_cents: 100, stock_qty: 10 });
    unpriced = await createProduct(world.live, { name: "Unpriced", stock_qty: 10 });
    zwg = await createProduct(world.live, { name: "ZWG item", price_cents: 100, currency: "ZWG" });
    inactive = await createProduct(world.live, { name: "Gone", price_cents: 100 });
    await world.live.patch(`/v1/products/${inactive.id}`, { active: false });
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
      () => ({ tender: "cash", items: [{ product_id: priced.id, qty: 1, coupon: 5 }] }),
    ],
    [
      "a discount that is not one",
      400,
      "invalid_discount",
      () => ({ tender: "cash", items: [{ product_id: priced.id, qty: 1, discount: 5 }] }),
    ],
  ];
  test.each(cases)("refuses %s: %i %s; nothing is sold or moved", async (_, status, code, body) => {
    const response = await world.live.post("/v1/sales", body());
    expect(response.status).toBe(status);
    expect(response.body.error).toMatchObject({ type: "invalid_request", code });
    expect(await world.saleCount(world.shop.id)).toBe(0);
    expect(await onHandOf(world.db, priced.id)).toBe(10);
    expect((await world.live.get("/v1/stock/moves", { kind: "sale" })).body.data).toEqual([]);
  });
});

describe("idempotency", () => {
  test("POST /v1/sales requires an Idempotency-Key; a retry replays the sale and moves nothing twice", async () => {
    const product = await createProduct(world.live, { name: "Water", price_cents: 50, stock_qty: 10 });
    const missing = await request(world.setup.app)
      .post("/v1/sales")
      .set("Authorization", `Bearer ${world.shop.liveKey}`)
      .send({ tender: "cash", items: [{ product_id: product.id, qty: 1 }] });
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe("missing_idempotency_key");
    const key = randomUUID();
    const body = { tender: "cash", items: [{ product_id: product.id, qty: 2 }] };
    const labels = { tender: "cash", livemode: "true", currency: "USD" };
    const before = await sampleValue("pos_sales_total", labels);
    const first = await world.live.post("/v1/sales", body, key);
    const replay = await world.live.post("/v1/sales", body, key);
    expect(replay.status).toBe(201);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(replay.body).toEqual(first.body);
    const mismatch = await world.live.post("/v1/sales", { ...body, note: "changed" }, key);
    expect(mismatch.status).toBe(409);
    expect(mismatch.body.error.code).toBe("idempotency_mismatch");
    expect(await onHandOf(world.db, product.id)).toBe(8);
    expect(await world.saleCount(world.shop.id)).toBe(1);
    expect(await eventsOfType(world.db, world.shop.id, "sale.completed")).toHaveLength(1);
    expect(await sampleValue("pos_sales_total", labels)).toBe(before + 1);
  });
});

describe("snapshots", () => {
  test("catalog edits never change a past sale, and the database refuses to edit one", async () => {
    const product = await createProduct(world.live, { name: "Tea", price_cents: 100, stock_qty: 5 });
    const sale = (await world.live.post("/v1/sales", { tender: "cash", items: [{ product_id: product.id, qty: 2 }] }))
      .body;
    await world.live.patch(`/v1/products/${product.id}`, { name: "Green tea", price_cents: 175, active: false });
    expect((await world.live.get(`/v1/sales/${sale.id}`)).body).toEqual(sale);
    expect((await world.live.get("/v1/sales")).body.data[0]).toEqual(sale);
    await expect(
      world.db.database.query(sql.unsafe`UPDATE sales SET items = '[]'::jsonb WHERE id = ${sale.id}`),
    ).rejects.toThrow(/only a pending sale changes/);
    await expect(
      world.db.database.query(sql.unsafe`UPDATE sales SET total_cents = 1 WHERE id = ${sale.id}`),
    ).rejects.toThrow(/only a pending sale changes/);
    await expect(world.db.database.query(sql.unsafe`DELETE FROM sales WHERE id = ${sale.id}`)).rejects.toThrow(
      /never deleted/,
    );
    expect((await world.live.get(`/v1/sales/${sale.id}`)).body).toEqual(sale);
  });
});
