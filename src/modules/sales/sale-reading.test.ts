import { newMerchant } from "../../../tests/support/factories.ts";
import { client, createProduct, onHandOf } from "../../../tests/support/pos.ts";
import { salesTestWorld } from "../../../tests/support/sales.ts";

/** Reading and listing sales: tenancy, worlds, filters and pages. */

const world = salesTestWorld();

describe("reading and listing sales", () => {
  test("one merchant never sees or touches another's sales or products; test and live never mix", async () => {
    const product = await createProduct(world.live, { name: "Private", price_cents: 100, stock_qty: 5 });
    const liveSale = (
      await world.live.post("/v1/sales", { tender: "cash", items: [{ product_id: product.id, qty: 1 }] })
    ).body;
    const testSale = (
      await world.testWorld.post("/v1/sales", { tender: "cash", items: [{ product_id: product.id, qty: 1 }] })
    ).body;
    const other = await newMerchant(world.db.database);
    const stranger = client(world.setup.app, other.liveKey);
    for (const response of [
      await stranger.get(`/v1/sales/${liveSale.id}`),
      await world.testWorld.get(`/v1/sales/${liveSale.id}`),
      await world.live.get(`/v1/sales/${testSale.id}`),
    ]) {
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe("resource_missing");
    }
    const foreign = await stranger.post("/v1/sales", { tender: "cash", items: [{ product_id: product.id, qty: 5 }] });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe("product_not_found");
    expect(await onHandOf(world.db, product.id)).toBe(4);
    expect((await stranger.get("/v1/sales")).body.data).toEqual([]);
    expect((await world.live.get("/v1/sales")).body.data.map((sale: { id: string }) => sale.id)).toEqual([liveSale.id]);
    expect((await world.testWorld.get("/v1/sales")).body.data.map((sale: { id: string }) => sale.id)).toEqual([
      testSale.id,
    ]);
    expect((await world.live.get("/v1/sales/report")).body.totals.count).toBe(1);
    expect((await stranger.get("/v1/sales/report")).body.totals.count).toBe(0);
  });

  test("lists newest first with status, from and to filters and keyset pages; limit at most 100", async () => {
    const product = await createProduct(world.live, { name: "Listed", price_cents: 100 });
    const ids: string[] = [];
    for (let index = 0; index < 4; index += 1) {
      ids.push(
        (await world.testWorld.post("/v1/sales", { tender: "cash", items: [{ product_id: product.id, qty: 1 }] })).body
          .id,
      );
    }
    const pending = (
      await world.testWorld.post("/v1/sales", { tender: "wallet", items: [{ product_id: product.id, qty: 1 }] })
    ).body;
    const first = await world.testWorld.get("/v1/sales", { limit: 2 });
    expect(first.body.data.map((sale: { id: string }) => sale.id)).toEqual([pending.id, ids[3]]);
    expect(first.body.data[0].payment).toBeNull();
    const second = await world.testWorld.get("/v1/sales", { limit: 2, cursor: first.body.next_cursor });
    expect(second.body.data.map((sale: { id: string }) => sale.id)).toEqual([ids[2], ids[1]]);
    expect(
      (await world.testWorld.get("/v1/sales", { status: "pending" })).body.data.map((sale: { id: string }) => sale.id),
    ).toEqual([pending.id]);
    expect((await world.testWorld.get("/v1/sales", { status: "completed" })).body.data).toHaveLength(4);
    const fromPending = await world.testWorld.get("/v1/sales", { from: pending.created_at });
    expect(fromPending.body.data.map((sale: { id: string }) => sale.id)).toContain(pending.id);
    expect((await world.testWorld.get("/v1/sales", { to: "2000-01-01" })).body.data).toEqual([]);
    expect((await world.testWorld.get("/v1/sales", { limit: 101 })).body.error.code).toBe("parameter_invalid");
    expect((await world.testWorld.get("/v1/sales", { status: "paid" })).body.error.code).toBe("parameter_invalid");
  });
});
