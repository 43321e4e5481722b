import { createProduct, eventsOfType, movesOf, onHandOf } from "../../../tests/support/pos.ts";
import { salesTestWorld } from "../../../tests/support/sales.ts";

/** Concurrent sales of the same products: exact on-hand, no deadlock. */

const world = salesTestWorld();

describe("concurrency", () => {
  test("100 concurrent live sales of one product leave on-hand exactly decremented and the journal complete", async () => {
    const product = await createProduct(world.live, { name: "Hot item", price_cents: 100, stock_qty: 1000 });
    const quantities = Array.from({ length: 100 }, (_, index) => (index % 3) + 1);
    const responses = await Promise.all(
      quantities.map((qty) =>
        world.live.post("/v1/sales", { tender: "cash", items: [{ product_id: product.id, qty }] }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(quantities.map(() => 201));
    const sold = quantities.reduce((sum, qty) => sum + qty, 0);
    expect(await onHandOf(world.db, product.id)).toBe(1000 - sold);
    const moves = (await movesOf(world.db, product.id)).filter((move) => move.kind === "sale");
    expect(moves).toHaveLength(100);
    expect(new Set(moves.map((move) => move.sale_id))).toEqual(new Set(responses.map((response) => response.body.id)));
    let running = 1000;
    for (const move of moves) {
      running += move.qty_delta;
      expect(move.stock_qty_after).toBe(running);
    }
    expect(running).toBe(1000 - sold);
    expect(await eventsOfType(world.db, world.shop.id, "sale.completed")).toHaveLength(100);
  });

  test("concurrent sales naming the same products in opposite orders never deadlock", async () => {
    const first = await createProduct(world.live, { name: "First", price_cents: 10, stock_qty: 100 });
    const second = await createProduct(world.live, { name: "Second", price_cents: 10, stock_qty: 100 });
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        world.live.post("/v1/sales", {
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
    expect(await onHandOf(world.db, first.id)).toBe(60);
    expect(await onHandOf(world.db, second.id)).toBe(60);
  });
});
