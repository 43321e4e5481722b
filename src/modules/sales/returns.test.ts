import { randomUUID } from "node:crypto";
import request from "supertest";
import { z } from "zod";
import { newMerchant } from "../../../tests/support/factories.ts";
import { type Client, client, createProduct, eventsOfType, movesOf, onHandOf } from "../../../tests/support/pos.ts";
import { salesTestWorld } from "../../../tests/support/sales.ts";
import { sql } from "../../platform/db/pool.ts";

const world = salesTestWorld();

const returnCount = async (saleId: string) =>
  world.db.database.oneFirst(sql.type(z.object({ count: z.number() }))`
    SELECT count(*)::int AS count FROM sale_returns WHERE sale_id = ${saleId}`);

describe("returns", () => {
  test("a partial return restocks tracked products, refunds in cash from the shift, shows on the sale, fires sale.returned", async () => {
    const cola = await createProduct(world.live, { name: "Cola", price_cents: 150, stock_qty: 20 });
    const soap = await createProduct(world.live, { name: "Soap", price_cents: 300, track_stock: false });
    const shift = await world.live.post("/v1/shifts", {
      till_id: "till-1",
      float: [{ currency: "USD", amount_cents: 1_000 }],
    });
    const sale = await world.live.post("/v1/sales", {
      tender: "cash",
      till_id: "till-1",
      items: [
        { product_id: cola.id, qty: 4, unit_cents: 140 },
        { product_id: soap.id, qty: 1 },
        { name: "Bag", qty: 2, unit_cents: 10 },
      ],
    });
    expect(await onHandOf(world.db, cola.id)).toBe(16);

    const returned = await world.live.post(`/v1/sales/${sale.body.id}/returns`, {
      till_id: "till-1",
      reason: "Flat",
      items: [
        { line: 0, qty: 3 },
        { line: 1, qty: 1 },
        { line: 2, qty: 1 },
      ],
    });
    expect(returned.status).toBe(201);
    const saleReturn = returned.body.sale_return;
    expect(saleReturn).toMatchObject({
      id: expect.stringMatching(/^ret_/),
      object: "sale_return",
      sale_id: sale.body.id,
      currency: "USD",
      refund_cents: 3 * 140 + 300 + 10,
      refund_tender: "cash",
      till_id: "till-1",
      shift_id: shift.body.id,
      reason: "Flat",
    });
    expect(saleReturn.items[0]).toEqual({
      line: 0,
      product_id: cola.id,
      name: "Cola",
      qty: 3,
      unit_cents: 140,
      line_total_cents: 420,
    });
    // Stock back through the journal, tracked products only.
    expect(await onHandOf(world.db, cola.id)).toBe(19);
    expect((await movesOf(world.db, cola.id)).at(-1)).toMatchObject({
      kind: "return",
      qty_delta: 3,
      stock_qty_after: 19,
      sale_id: sale.body.id,
      note: `Return ${saleReturn.id}`,
    });
    expect(await movesOf(world.db, soap.id)).toHaveLength(0);
    // The sale shows it.
    const read = await world.live.get(`/v1/sales/${sale.body.id}`);
    expect(read.body.returns).toEqual([saleReturn]);
    expect((await world.live.get("/v1/sales")).body.data[0].returns).toEqual([saleReturn]);
    // The drawer paid it out.
    const drawer = (await world.live.get(`/v1/shifts/${shift.body.id}`)).body.cash[0];
    expect(drawer).toMatchObject({
      currency: "USD",
      cash_sales_cents: 4 * 140 + 300 + 20,
      refunds_cents: 730,
      refunds_count: 1,
      expected_cents: 1_000 + 880 - 730,
    });
    const events = await eventsOfType(world.db, world.shop.id, "sale.returned");
    expect(events).toEqual([
      {
        livemode: true,
        data: expect.objectContaining({ return_id: saleReturn.id, sale_id: sale.body.id, refund_cents: 730 }),
      },
    ]);
  });

  test("a receipt link finds its sale, the sale's own or one of its returns'; never another world's or merchant's", async () => {
    const cola = await createProduct(world.live, { name: "Cola", price_cents: 150 });
    const sale = (await world.live.post("/v1/sales", { tender: "cash", items: [{ product_id: cola.id, qty: 2 }] }))
      .body;
    const other = (await world.live.post("/v1/sales", { tender: "cash", items: [{ product_id: cola.id, qty: 1 }] }))
      .body;
    const saleReturn = (await world.live.post(`/v1/sales/${sale.id}/returns`, { items: [{ line: 0, qty: 1 }] })).body
      .sale_return;
    // The list shows each sale with its own returns.
    const listed = (await world.live.get("/v1/sales")).body.data as { id: string; returns: { id: string }[] }[];
    expect(listed.map((row) => [row.id, row.returns.map((listedReturn) => listedReturn.id)])).toEqual(
      expect.arrayContaining([
        [sale.id, [saleReturn.id]],
        [other.id, []],
      ]),
    );
    const tokenOf = (url: string) => url.split("/receipts/")[1] as string;
    const found = async (world: Client, token: string) =>
      (await world.get(`/v1/sales?receipt_token=${encodeURIComponent(token)}`)).body.data.map(
        (row: { id: string }) => row.id,
      );
    expect(await found(world.live, tokenOf(sale.receipt_url))).toEqual([sale.id]);
    expect(await found(world.live, tokenOf(saleReturn.receipt_url))).toEqual([sale.id]);
    expect(await found(world.live, "A".repeat(32))).toEqual([]);
    expect(await found(world.testWorld, tokenOf(sale.receipt_url))).toEqual([]);
    const stranger = client(world.setup.app, (await newMerchant(world.db.database)).liveKey);
    expect(await found(stranger, tokenOf(saleReturn.receipt_url))).toEqual([]);
  });

  test("returning more than was sold is refused, counting earlier returns; nothing moves", async () => {
    const cola = await createProduct(world.live, { name: "Cola", price_cents: 150, stock_qty: 10 });
    const sale = await world.live.post("/v1/sales", { tender: "cash", items: [{ product_id: cola.id, qty: 2 }] });
    const path = `/v1/sales/${sale.body.id}/returns`;
    const tooMany = await world.live.post(path, { items: [{ line: 0, qty: 3 }] });
    expect([tooMany.status, tooMany.body.error.code]).toEqual([409, "return_exceeds_sale"]);
    expect(tooMany.body.error.message).toContain("2 sold");
    expect((await world.live.post(path, { items: [{ line: 0, qty: 1 }] })).status).toBe(201);
    const again = await world.live.post(path, { items: [{ line: 0, qty: 2 }] });
    expect([again.status, again.body.error.code]).toEqual([409, "return_exceeds_sale"]);
    expect((await world.live.post(path, { items: [{ line: 0, qty: 1 }] })).status).toBe(201);
    const noLine = await world.live.post(path, { items: [{ line: 1, qty: 1 }] });
    expect([noLine.status, noLine.body.error.code]).toEqual([400, "parameter_invalid"]);
    const twice = await world.live.post(path, {
      items: [
        { line: 0, qty: 1 },
        { line: 0, qty: 1 },
      ],
    });
    expect([twice.status, twice.body.error.code]).toEqual([400, "parameter_invalid"]);
    expect(await returnCount(sale.body.id)).toBe(2);
    expect(await onHandOf(world.db, cola.id)).toBe(10);
  });

  test("concurrent returns of one sale never return more than was sold", async () => {
    const cola = await createProduct(world.live, { name: "Cola", price_cents: 150, stock_qty: 10 });
    const sale = await world.live.post("/v1/sales", { tender: "cash", items: [{ product_id: cola.id, qty: 5 }] });
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        world.live.post(`/v1/sales/${sale.body.id}/returns`, { items: [{ line: 0, qty: 1 }] }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(5);
    expect(answers.filter((answer) => answer.body.error?.code === "return_exceeds_sale")).toHaveLength(3);
    expect(await onHandOf(world.db, cola.id)).toBe(10);
  });

  test("idempotent: a retry with the same key replays the return and moves nothing twice", async () => {
    const cola = await createProduct(world.live, { name: "Cola", price_cents: 150, stock_qty: 10 });
    const sale = await world.live.post("/v1/sales", { tender: "cash", items: [{ product_id: cola.id, qty: 3 }] });
    const key = randomUUID();
    const body = { items: [{ line: 0, qty: 2 }] };
    const first = await world.live.post(`/v1/sales/${sale.body.id}/returns`, body, key);
    const replay = await world.live.post(`/v1/sales/${sale.body.id}/returns`, body, key);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(replay.body).toEqual(first.body);
    expect(await returnCount(sale.body.id)).toBe(1);
    expect(await onHandOf(world.db, cola.id)).toBe(9);
    expect(await eventsOfType(world.db, world.shop.id, "sale.returned")).toHaveLength(1);
  });

  test("a wallet sale is refunded in cash; a pending one takes no return; a till without a shift is refused", async () => {
    const shoes = await createProduct(world.live, { name: "Shoes", price_cents: 2_000, stock_qty: 6 });
    const pending = await world.testWorld.post("/v1/sales", {
      tender: "wallet",
      items: [{ product_id: shoes.id, qty: 1 }],
    });
    const early = await world.testWorld.post(`/v1/sales/${pending.body.id}/returns`, { items: [{ line: 0, qty: 1 }] });
    expect([early.status, early.body.error.code]).toEqual([409, "sale_not_completed"]);
    await request(world.setup.app).post(`/checkout/${pending.body.payment_id}/mockpay`).send({});
    expect((await world.testWorld.get(`/v1/sales/${pending.body.id}`)).body.status).toBe("completed");
    const noShift = await world.testWorld.post(`/v1/sales/${pending.body.id}/returns`, {
      till_id: "till-1",
      items: [{ line: 0, qty: 1 }],
    });
    expect([noShift.status, noShift.body.error.code]).toEqual([409, "shift_not_open"]);
    const refunded = await world.testWorld.post(`/v1/sales/${pending.body.id}/returns`, {
      items: [{ line: 0, qty: 1 }],
    });
    expect(refunded.status).toBe(201);
    expect(refunded.body.sale_return).toMatchObject({ refund_cents: 2_000, refund_tender: "cash", livemode: false });
    // Test world: journaled, on-hand unchanged.
    expect(await onHandOf(world.db, shoes.id)).toBe(6);
    expect((await movesOf(world.db, shoes.id)).at(-1)).toMatchObject({ kind: "return", livemode: false, qty_delta: 1 });
    // Another world's sale is not found.
    const missing = await world.live.post(`/v1/sales/${pending.body.id}/returns`, { items: [{ line: 0, qty: 1 }] });
    expect(missing.status).toBe(404);
  });
});
