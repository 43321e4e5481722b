import { randomUUID } from "node:crypto";
import { z } from "zod";
import { createProduct } from "../../../tests/support/pos.ts";
import { salesTestWorld } from "../../../tests/support/sales.ts";
import { sql } from "../../platform/db/pool.ts";

/** What a cash customer handed over (`tendered_cents`): stored on the sale, answered with the change. */

const world = salesTestWorld();

const storedTendered = (saleId: string) =>
  world.db.database.oneFirst(sql.type(z.object({ tendered_cents: z.coerce.number().nullable() }))`
    SELECT tendered_cents FROM sales WHERE id = ${saleId}`);

describe("tendered and change", () => {
  test("a cash sale keeps what was handed over and answers the change, on create, GET and list", async () => {
    const cola = await createProduct(world.live, { name: "Cola", price_cents: 150, stock_qty: 20 });
    const created = await world.live.post("/v1/sales", {
      tender: "cash",
      items: [{ product_id: cola.id, qty: 3 }],
      tendered_cents: 500,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ total_cents: 450, tendered_cents: 500, change_cents: 50 });
    expect(await storedTendered(created.body.id)).toBe(500);
    const read = await world.live.get(`/v1/sales/${created.body.id}`);
    expect(read.body).toMatchObject({ tendered_cents: 500, change_cents: 50 });
    const listed = await world.live.get("/v1/sales?limit=1");
    expect(listed.body.data[0]).toMatchObject({ id: created.body.id, tendered_cents: 500, change_cents: 50 });

    const exact = await world.live.post("/v1/sales", {
      tender: "cash",
      items: [{ product_id: cola.id, qty: 1 }],
      tendered_cents: 150,
    });
    expect(exact.body).toMatchObject({ tendered_cents: 150, change_cents: 0 });
    const untold = await world.live.post("/v1/sales", { tender: "cash", items: [{ product_id: cola.id, qty: 1 }] });
    expect(untold.body).toMatchObject({ tendered_cents: null, change_cents: null });
  });

  test("less than the total is refused, and so is a wallet sale naming it: nothing recorded", async () => {
    const cola = await createProduct(world.live, { name: "Cola", price_cents: 150, stock_qty: 20 });
    const short = await world.live.post("/v1/sales", {
      tender: "cash",
      items: [{ product_id: cola.id, qty: 3 }],
      tendered_cents: 449,
    });
    expect(short.status).toBe(400);
    expect(short.body.error).toMatchObject({ type: "invalid_request", code: "invalid_amount" });
    const wallet = await world.live.post("/v1/sales", {
      tender: "wallet",
      items: [{ product_id: cola.id, qty: 1 }],
      tendered_cents: 200,
    });
    expect(wallet.status).toBe(400);
    expect(wallet.body.error).toMatchObject({ type: "invalid_request", code: "parameter_invalid" });
    const negative = await world.live.post("/v1/sales", {
      tender: "cash",
      items: [{ product_id: cola.id, qty: 1 }],
      tendered_cents: -1,
    });
    expect(negative.status).toBe(400);
    expect(negative.body.error.code).toBe("invalid_amount");
    expect(await world.saleCount(world.shop.id)).toBe(0);
  });

  test("a queued sale replays by its client_sale_id with or without tendered_cents, as it was sent", async () => {
    const cola = await createProduct(world.live, { name: "Cola", price_cents: 150, stock_qty: 20 });
    // A sale queued by a till from before tendered_cents: its body has none, and it replays as before.
    const old = { tender: "cash", items: [{ product_id: cola.id, qty: 1 }], client_sale_id: randomUUID() };
    const oldFirst = await world.live.post("/v1/sales", old, randomUUID());
    const oldReplay = await world.live.post("/v1/sales", old, randomUUID());
    expect(oldReplay.status).toBe(201);
    expect(oldReplay.headers["idempotent-replayed"]).toBe("true");
    expect(oldReplay.body).toEqual(oldFirst.body);
    expect(oldFirst.body.tendered_cents).toBeNull();

    const told = { ...old, client_sale_id: randomUUID(), tendered_cents: 200 };
    const toldFirst = await world.live.post("/v1/sales", told, randomUUID());
    const toldReplay = await world.live.post("/v1/sales", told, randomUUID());
    expect(toldReplay.headers["idempotent-replayed"]).toBe("true");
    expect(toldReplay.body).toEqual(toldFirst.body);
    // The fingerprint covers it: the same id with another amount handed over is another request.
    const other = await world.live.post("/v1/sales", { ...told, tendered_cents: 300 }, randomUUID());
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe("client_sale_id_mismatch");
    expect(await world.saleCount(world.shop.id)).toBe(2);
  });
});
