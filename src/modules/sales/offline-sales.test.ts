import { randomUUID } from "node:crypto";
import { z } from "zod";
import { createProduct, eventsOfType, movesOf, onHandOf } from "../../../tests/support/pos.ts";
import { salesTestWorld } from "../../../tests/support/sales.ts";
import { sql } from "../../platform/db/pool.ts";
import { purgeExpired } from "../../platform/idempotency/service.ts";

/**
 * Offline-safe sales: a till queues cash sales while offline and replays them, each with its own
 * client_sale_id and the time it was taken. Exactly once must hold after the Idempotency-Key is gone.
 */

const world = salesTestWorld();

const HOUR_MS = 3_600_000;
const RETENTION_MS = 48 * HOUR_MS;

const salesOf = async (merchantId: string) =>
  world.db.database.any(sql.type(
    z.object({ id: z.string(), livemode: z.boolean(), client_sale_id: z.string().nullable() }),
  )`
    SELECT id, livemode, client_sale_id FROM sales WHERE merchant_id = ${merchantId} ORDER BY created_at, id`);

const idempotencyKeyCount = async (merchantId: string) =>
  world.db.database.oneFirst(sql.type(z.object({ count: z.number() }))`
    SELECT count(*)::int AS count FROM idempotency_keys WHERE merchant_id = ${merchantId}`);

/** Ages this merchant's idempotency records past retention, then runs the real purge. */
async function expireIdempotencyKeys(merchantId: string): Promise<void> {
  await world.db.database.query(sql.unsafe`
    UPDATE idempotency_keys SET created_at = now() - interval '49 hours' WHERE merchant_id = ${merchantId}`);
  await purgeExpired(world.db.database, { retentionMs: RETENTION_MS });
  expect(await idempotencyKeyCount(merchantId)).toBe(0);
}

const isoAgo = (ms: number) => new Date(Date.now() - ms).toISOString();

describe("a sale named by the till (client_sale_id) and dated (taken_at)", () => {
  test("recorded once with its original time; a replay after the Idempotency-Key expired returns the recorded sale", async () => {
    const cola = await createProduct(world.live, { name: "Cola", price_cents: 150, stock_qty: 10 });
    const takenAt = isoAgo(3 * HOUR_MS);
    const body = {
      tender: "cash",
      items: [{ product_id: cola.id, qty: 2 }],
      client_sale_id: randomUUID(),
      taken_at: takenAt,
    };
    const key = randomUUID();
    const first = await world.live.post("/v1/sales", body, key);
    expect(first.status).toBe(201);
    expect(first.headers["idempotent-replayed"]).toBeUndefined();
    expect(first.body).toMatchObject({
      status: "completed",
      client_sale_id: body.client_sale_id,
      taken_at: takenAt,
      completed_at: takenAt,
      total_cents: 300,
    });
    expect(Date.parse(first.body.created_at)).toBeGreaterThan(Date.parse(takenAt));

    await expireIdempotencyKeys(world.shop.id);
    // The same key, now unknown to the idempotency store, and a fresh key: both answer the recorded sale.
    for (const replayKey of [key, randomUUID()]) {
      const replay = await world.live.post("/v1/sales", body, replayKey);
      expect(replay.status).toBe(201);
      expect(replay.headers["idempotent-replayed"]).toBe("true");
      expect(replay.body).toEqual(first.body);
    }
    // And the replay's own key replays too.
    const replayKey = randomUUID();
    await world.live.post("/v1/sales", body, replayKey);
    const keyReplay = await world.live.post("/v1/sales", body, replayKey);
    expect(keyReplay.body).toEqual(first.body);

    expect(await salesOf(world.shop.id)).toEqual([
      { id: first.body.id, livemode: true, client_sale_id: body.client_sale_id },
    ]);
    expect(await onHandOf(world.db, cola.id)).toBe(8);
    expect((await movesOf(world.db, cola.id)).filter((move) => move.sale_id !== null)).toHaveLength(1);
    const completed = await eventsOfType(world.db, world.shop.id, "sale.completed");
    expect(completed).toHaveLength(1);
    expect(completed[0]?.data.completed_at).toBe(takenAt);
  });

  test("the same client_sale_id with another body is refused with 409 client_sale_id_mismatch, nothing recorded", async () => {
    const clientSaleId = randomUUID();
    const body = { tender: "cash", items: [{ name: "Bag", qty: 1, unit_cents: 10 }], client_sale_id: clientSaleId };
    expect((await world.live.post("/v1/sales", body)).status).toBe(201);
    await expireIdempotencyKeys(world.shop.id);
    const changed = await world.live.post("/v1/sales", { ...body, items: [{ name: "Bag", qty: 2, unit_cents: 10 }] });
    expect(changed.status).toBe(409);
    expect(changed.body).toEqual({
      error: expect.objectContaining({ type: "invalid_request", code: "client_sale_id_mismatch" }),
    });
    expect(changed.body.error.message).toContain(clientSaleId);
    expect(await salesOf(world.shop.id)).toHaveLength(1);
  });

  test("ten concurrent replays of one queued sale under different keys record it exactly once", async () => {
    const bread = await createProduct(world.live, { name: "Bread", price_cents: 90, stock_qty: 50 });
    const body = {
      tender: "cash",
      items: [{ product_id: bread.id, qty: 3 }],
      client_sale_id: randomUUID(),
      taken_at: isoAgo(60_000),
    };
    const answers = await Promise.all(Array.from({ length: 10 }, () => world.live.post("/v1/sales", body)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(201));
    const ids = new Set(answers.map((answer) => answer.body.id));
    expect(ids.size).toBe(1);
    expect(answers.filter((answer) => answer.headers["idempotent-replayed"] === undefined)).toHaveLength(1);
    expect(await salesOf(world.shop.id)).toHaveLength(1);
    expect(await onHandOf(world.db, bread.id)).toBe(47);
    expect(await eventsOfType(world.db, world.shop.id, "sale.completed")).toHaveLength(1);
  });

  test("client_sale_id is per world: the test world's sale of the same id is its own", async () => {
    const body = { tender: "cash", items: [{ name: "Bag", qty: 1, unit_cents: 10 }], client_sale_id: randomUUID() };
    const liveSale = await world.live.post("/v1/sales", body);
    const testSale = await world.testWorld.post("/v1/sales", body);
    expect(testSale.status).toBe(201);
    expect(testSale.headers["idempotent-replayed"]).toBeUndefined();
    expect(testSale.body.livemode).toBe(false);
    expect(testSale.body.id).not.toBe(liveSale.body.id);
  });

  test("taken_at: up to 30 days back and 300 s ahead; only cash; counted in the report on the day it was taken", async () => {
    const item = [{ name: "Bag", qty: 1, unit_cents: 10 }];
    const refused = [
      [{ tender: "cash", items: item, taken_at: isoAgo(-10 * 60_000) }, "taken_at_out_of_range"],
      [{ tender: "cash", items: item, taken_at: isoAgo(31 * 24 * HOUR_MS) }, "taken_at_out_of_range"],
      [{ tender: "wallet", items: item, taken_at: isoAgo(60_000) }, "parameter_invalid"],
      [{ tender: "cash", items: item, taken_at: "yesterday" }, "parameter_invalid"],
      [{ tender: "cash", items: item, client_sale_id: "short" }, "parameter_invalid"],
    ] as const;
    for (const [body, code] of refused) {
      const answer = await world.live.post("/v1/sales", body);
      expect([answer.status, answer.body.error?.code]).toEqual([400, code]);
    }
    expect(await salesOf(world.shop.id)).toHaveLength(0);

    const ahead = await world.live.post("/v1/sales", { tender: "cash", items: item, taken_at: isoAgo(-60_000) });
    expect(ahead.status).toBe(201);
    const takenAt = isoAgo(29 * 24 * HOUR_MS);
    const old = await world.live.post("/v1/sales", { tender: "cash", items: item, taken_at: takenAt });
    expect(old.status).toBe(201);
    expect(old.body.completed_at).toBe(takenAt);
    const report = await world.live.get("/v1/sales/report", {
      from: new Date(Date.parse(takenAt) - HOUR_MS).toISOString(),
      to: new Date(Date.parse(takenAt) + HOUR_MS).toISOString(),
    });
    expect(report.body.totals.count).toBe(1);
  });

  test("the database refuses to change a sale's client_sale_id or taken_at", async () => {
    const sale = await world.live.post("/v1/sales", {
      tender: "cash",
      items: [{ name: "Bag", qty: 1, unit_cents: 10 }],
      client_sale_id: randomUUID(),
    });
    await expect(
      world.db.database.query(sql.unsafe`UPDATE sales SET client_sale_id = 'other-id-1' WHERE id = ${sale.body.id}`),
    ).rejects.toThrow(/only a pending sale changes/);
    await expect(
      world.db.database.query(
        sql.unsafe`UPDATE sales SET taken_at = now() - interval '1 day' WHERE id = ${sale.body.id}`,
      ),
    ).rejects.toThrow(/only a pending sale changes/);
  });
});
