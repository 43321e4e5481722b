import { randomUUID } from "node:crypto";
import { UniqueIntegrityConstraintViolationError } from "slonik";
import { z } from "zod";
import { cashSaleWriterFixtures } from "../../../tests/support/cash-sale-writer.ts";
import { countingDatabase } from "../../../tests/support/counting-database.ts";
import { poolOn } from "../../../tests/support/database.ts";
import { eventually } from "../../../tests/support/money.ts";
import { onHandOf } from "../../../tests/support/pos.ts";
import { salesTestWorld } from "../../../tests/support/sales.ts";
import { type Database, sql } from "../../platform/db/pool.ts";
import type { ResponseToStore } from "../../platform/idempotency/service.ts";
import { createCashSaleWriter, writeCashSales } from "./cash-sale-writer.ts";

/**
 * The cash sale writer when the database refuses: a statement refused is written again sale by sale,
 * so that only the failing sale fails; a statement without the database's answer is not; and every
 * shape of sale shares one prepared statement.
 */

const world = salesTestWorld();
const writer = cashSaleWriterFixtures(world);

test("a client_sale_id recorded first fails only its own sale: the batch is written again sale by sale", async () => {
  const cola = await writer.newProduct({ name: "Cola", price_cents: 150, stock_qty: 50 });
  const clientSaleId = randomUUID();
  const first = writer.cashSale({ lines: [{ product: cola, qty: 1 }], clientSaleId });
  expect(await createCashSaleWriter(world.db.database)(writer.toWrite(first, null))).toEqual({
    recorded: true,
    shiftOpen: true,
  });

  const fresh = writer.cashSale({ lines: [{ product: cola, qty: 2 }], clientSaleId: randomUUID() });
  const colliding = writer.cashSale({ lines: [{ product: cola, qty: 3 }], clientSaleId });
  const [freshResponse, collidingResponse] = (await Promise.all([fresh, colliding].map(writer.claimedResponse))) as [
    ResponseToStore,
    ResponseToStore,
  ];
  const counting = countingDatabase(world.db.database);
  const write = createCashSaleWriter(counting.database);
  const outcomes = await Promise.allSettled([
    write(writer.toWrite(fresh, freshResponse)),
    write(writer.toWrite(colliding, collidingResponse)),
  ]);
  // The batch, then each sale on its own.
  expect(counting.statements()).toBe(3);
  expect(outcomes[0]).toEqual({ status: "fulfilled", value: { recorded: true, shiftOpen: true } });
  const reason = outcomes[1]?.status === "rejected" ? outcomes[1].reason : undefined;
  expect(reason).toBeInstanceOf(UniqueIntegrityConstraintViolationError);
  expect((reason as UniqueIntegrityConstraintViolationError).constraint).toBe("sales_client_sale_id_key");

  // The fresh sale written once, with everything; the colliding one not at all.
  expect(await writer.salesWritten([fresh, colliding])).toEqual([fresh.id]);
  expect((await writer.recordOf(freshResponse)).state).toBe("completed");
  expect((await writer.recordOf(collidingResponse)).state).toBe("in_flight");
  expect((await writer.completedEventsOf([fresh, colliding])).map((event) => event.sale_id)).toEqual([fresh.id]);
  expect(await onHandOf(world.db, cola.id)).toBe(47);
  expect((await writer.saleMovesOf(cola.id)).map((move) => [move.sale_id, move.stock_qty_after])).toEqual([
    [first.id, 49],
    [fresh.id, 47],
  ]);
});

test("two sales of one batch naming the same client_sale_id: one is recorded, the other fails, the rest once", async () => {
  const bread = await writer.newProduct({ name: "Bread", price_cents: 90, stock_qty: 30 });
  const clientSaleId = randomUUID();
  const twins = [0, 1].map(() => writer.cashSale({ lines: [{ product: bread, qty: 3 }], clientSaleId }));
  const other = writer.cashSale({ lines: [{ product: bread, qty: 1 }] });
  const counting = countingDatabase(world.db.database);
  const write = createCashSaleWriter(counting.database);
  const outcomes = await Promise.allSettled([...twins, other].map((sale) => write(writer.toWrite(sale, null))));
  expect(counting.statements()).toBe(4);
  expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(["fulfilled", "fulfilled", "rejected"]);
  expect(outcomes[2]).toEqual({ status: "fulfilled", value: { recorded: true, shiftOpen: true } });
  const written = await writer.salesWritten([...twins, other]);
  expect(written).toHaveLength(2);
  expect(written).toContain(other.id);
  expect(await onHandOf(world.db, bread.id)).toBe(26);
  expect(await writer.saleMovesOf(bread.id)).toHaveLength(2);
  expect(await writer.completedEventsOf([...twins, other])).toHaveLength(2);
});

test("a batch waits for another transaction's client_sale_id before it locks any product: no deadlock with it", async () => {
  const cola = await writer.newProduct({ name: "Cola", price_cents: 150, stock_qty: 10 });
  const clientSaleId = randomUUID();
  const first = writer.cashSale({ lines: [{ name: "Bag", qty: 1, unit_cents: 10 }], clientSaleId });
  const colaSale = writer.cashSale({ lines: [{ product: cola, qty: 2 }] });
  const twin = writer.cashSale({ lines: [{ name: "Bag", qty: 1, unit_cents: 10 }], clientSaleId });
  const write = createCashSaleWriter(world.db.database);
  const steps = { inserted: Promise.withResolvers<void>(), batchWaiting: Promise.withResolvers<void>() };
  // Another request's sale of the same client_sale_id, not yet committed; once the batch waits for
  // it, that transaction locks the cola's row, which the waiting batch must not hold.
  const other = world.db.database.transaction(async (transaction) => {
    expect(await writeCashSales(transaction, [writer.toWrite(first, null)])).toEqual([
      { recorded: true, shiftOpen: true },
    ]);
    steps.inserted.resolve();
    await steps.batchWaiting.promise;
    await transaction.query(sql.unsafe`SELECT id FROM products WHERE id = ${cola.id} FOR UPDATE NOWAIT`);
  });
  await steps.inserted.promise;
  const outcomes = Promise.allSettled([write(writer.toWrite(colaSale, null)), write(writer.toWrite(twin, null))]);
  await eventually(async () => (await batchesWaitingForALock()) === 1);
  steps.batchWaiting.resolve();
  await other;
  const [colaOutcome, twinOutcome] = await outcomes;
  expect(colaOutcome).toEqual({ status: "fulfilled", value: { recorded: true, shiftOpen: true } });
  expect(twinOutcome?.status === "rejected" ? twinOutcome.reason : undefined).toBeInstanceOf(
    UniqueIntegrityConstraintViolationError,
  );
  expect(await writer.salesWritten([first, colaSale, twin])).toEqual([first.id, colaSale.id].sort());
  expect(await onHandOf(world.db, cola.id)).toBe(8);
});

/** The cash sale statements of this test's database waiting for another transaction's lock. */
const batchesWaitingForALock = () =>
  world.db.database.oneFirst(sql.type(z.object({ n: z.number() }))`
    SELECT count(*)::int AS n FROM pg_stat_activity
    WHERE datname = ${world.db.name} AND wait_event_type = 'Lock' AND query LIKE '%WITH held_shift AS MATERIALIZED%'`);

test("any other refusal of one sale (a check the database enforces) fails only that sale", async () => {
  const cola = await writer.newProduct({ name: "Cola", price_cents: 150, stock_qty: 10 });
  const till = await writer.openShift("till-C");
  const good = [0, 1].map(() => writer.cashSale({ lines: [{ product: cola, qty: 1 }], shift: till }));
  const refused = writer.cashSale({ lines: [{ product: cola, qty: 1 }], note: "x".repeat(501) });
  const responses = (await Promise.all([...good, refused].map(writer.claimedResponse))) as ResponseToStore[];
  const counting = countingDatabase(world.db.database);
  const write = createCashSaleWriter(counting.database);
  const outcomes = await Promise.allSettled(
    [...good, refused].map((sale, index) => write(writer.toWrite(sale, responses[index] ?? null))),
  );
  expect(counting.statements()).toBe(4);
  expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "fulfilled", "rejected"]);
  expect(String(outcomes[2]?.status === "rejected" ? outcomes[2].reason : "")).toMatch(/check/i);
  expect(await writer.salesWritten([...good, refused])).toEqual(good.map((sale) => sale.id).sort());
  expect(await onHandOf(world.db, cola.id)).toBe(8);
  expect(await writer.cashMovesOf([...good, refused])).toHaveLength(2);
  expect(await writer.completedEventsOf([...good, refused])).toHaveLength(2);
  expect((await writer.recordOf(responses[2] as ResponseToStore)).state).toBe("in_flight");
});

test("a batch without the database's answer (a lost connection) is not written again: each of its sales fails", async () => {
  let calls = 0;
  const disconnected = new Proxy(world.db.database, {
    get: (target, property, receiver) => {
      const value = Reflect.get(target, property, receiver);
      return typeof value === "function"
        ? async () => {
            calls += 1;
            throw new Error("Connection terminated unexpectedly");
          }
        : value;
    },
  }) as Database;
  const write = createCashSaleWriter(disconnected);
  const sales = [0, 1, 2].map(() => writer.cashSale({ lines: [{ name: "Bag", qty: 1, unit_cents: 10 }] }));
  const outcomes = await Promise.allSettled(sales.map((sale) => write(writer.toWrite(sale, null))));
  expect(calls).toBe(1);
  expect(outcomes.map((outcome) => outcome.status)).toEqual(["rejected", "rejected", "rejected"]);
  expect(await writer.salesWritten(sales)).toEqual([]);
});

test("sales of every shape, alone and together, share one prepared statement on one connection", async () => {
  // One connection: every write below reuses the statement prepared by the first, as a busy pool's do.
  const oneConnection = await poolOn(world.db.url, 1);
  try {
    const cola = await writer.newProduct({ name: "Cola", price_cents: 150, stock_qty: 100 });
    const till = await writer.openShift("till-D");
    const shapes = () => [
      writer.cashSale({ lines: [{ name: "Bag", qty: 1, unit_cents: 10 }] }),
      writer.cashSale({ lines: [{ product: cola, qty: 1 }] }),
      writer.cashSale({ livemode: false, lines: [{ product: cola, qty: 1 }] }),
      writer.cashSale({ lines: [{ product: cola, qty: 1 }], shift: till, clientSaleId: randomUUID() }),
    ];
    const write = createCashSaleWriter(oneConnection);
    const alone = shapes();
    for (const sale of alone) {
      expect(await write(writer.toWrite(sale, await writer.claimedResponse(sale)))).toEqual({
        recorded: true,
        shiftOpen: true,
      });
    }
    const together = shapes();
    const responses = await Promise.all(together.map(writer.claimedResponse));
    const outcomes = await Promise.all(
      together.map((sale, index) => write(writer.toWrite(sale, responses[index] ?? null))),
    );
    expect(outcomes.every((outcome) => outcome.recorded)).toBe(true);
    expect(await writer.salesWritten([...alone, ...together])).toHaveLength(8);
    expect(await onHandOf(world.db, cola.id)).toBe(96);
  } finally {
    await oneConnection.end();
  }
});
