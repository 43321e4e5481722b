import { randomUUID } from "node:crypto";
import { cashSaleWriterFixtures } from "../../../tests/support/cash-sale-writer.ts";
import { countingDatabase } from "../../../tests/support/counting-database.ts";
import { onHandOf } from "../../../tests/support/pos.ts";
import { salesTestWorld } from "../../../tests/support/sales.ts";
import type { ResponseToStore } from "../../platform/idempotency/service.ts";
import { createCashSaleWriter } from "./cash-sale-writer.ts";
import type { SaleToInsert } from "./ring-up-queries.ts";
import { saleCompletedData } from "./sale-effects.ts";

/**
 * The cash sale writer: the cash sales of one event-loop turn (here: the writes started together) in
 * one statement and one commit, each sale exactly as it would be alone; a statement the database
 * refuses is written again sale by sale, so that only the failing sale fails.
 */

const world = salesTestWorld();
const writer = cashSaleWriterFixtures(world);

test("a turn's cash sales are one statement and one commit: each with its answer, event, stock and cash, only while its key is owned and its shift open", async () => {
  const cola = await writer.newProduct({ name: "Cola", price_cents: 150, stock_qty: 20 });
  const bread = await writer.newProduct({ name: "Bread", price_cents: 90, stock_qty: 5 });
  const haircut = await writer.newProduct({
    name: "Haircut",
    price_cents: 500,
    track_stock: false,
  });
  const tillA = await writer.openShift("till-A");
  const tillB = await writer.openShift("till-B");
  // Till B's shift closes after its sale read it open, before the sale's statement.
  expect((await world.live.post(`/v1/shifts/${tillB.id}/close`, { counted: [] })).status).toBe(200);

  const onTill = writer.cashSale({
    lines: [
      { product: cola, qty: 3 },
      { product: bread, qty: 1 },
      { name: "Bag", qty: 2, unit_cents: 10 },
      { product: cola, qty: 1 },
    ],
    shift: tillA,
    clientSaleId: randomUUID(),
  });
  const testWorld = writer.cashSale({ livemode: false, lines: [{ product: cola, qty: 2 }] });
  const untracked = writer.cashSale({
    lines: [
      { product: haircut, qty: 1 },
      { name: "Tip", qty: 1, unit_cents: 100 },
    ],
  });
  const takenOver = writer.cashSale({ lines: [{ product: cola, qty: 5 }] });
  const shiftClosed = writer.cashSale({ lines: [{ product: bread, qty: 2 }], shift: tillB });
  const [onTillResponse, testWorldResponse, takenOverResponse, shiftClosedResponse] = (await Promise.all(
    [onTill, testWorld, takenOver, shiftClosed].map(writer.claimedResponse),
  )) as [ResponseToStore, ResponseToStore, ResponseToStore, ResponseToStore];
  // A retry took this key over: its owner token is no longer this request's.
  const lost = { ...takenOverResponse, ownerToken: randomUUID() };

  const counting = countingDatabase(world.db.database);
  const write = createCashSaleWriter(counting.database);
  const outcomes = await Promise.all([
    write(writer.toWrite(onTill, onTillResponse)),
    write(writer.toWrite(testWorld, testWorldResponse)),
    write(writer.toWrite(untracked, null)),
    write(writer.toWrite(takenOver, lost)),
    write(writer.toWrite(shiftClosed, shiftClosedResponse)),
  ]);
  expect(counting.statements()).toBe(1);
  expect(outcomes).toEqual([
    { recorded: true, shiftOpen: true },
    { recorded: true, shiftOpen: true },
    { recorded: true, shiftOpen: true },
    { recorded: false, shiftOpen: true },
    { recorded: false, shiftOpen: false },
  ]);
  const recorded = [onTill, testWorld, untracked];
  expect(await writer.salesWritten([...recorded, takenOver, shiftClosed])).toEqual(
    recorded.map((sale) => sale.id).sort(),
  );
  expect(await writer.transactionsOf(recorded)).toBe(1);

  // Answers stored only for the sales written; the lost key and the closed shift's stay in flight.
  expect(await writer.recordOf(onTillResponse)).toEqual({ state: "completed", response_body: onTillResponse.body });
  expect(await writer.recordOf(testWorldResponse)).toEqual({
    state: "completed",
    response_body: testWorldResponse.body,
  });
  expect(await writer.recordOf(lost)).toEqual({ state: "in_flight", response_body: null });
  expect(await writer.recordOf(shiftClosedResponse)).toEqual({ state: "in_flight", response_body: null });

  // One sale.completed per sale written, in the order of the sales, in their one transaction.
  const completed = await writer.completedEventsOf([...recorded, takenOver, shiftClosed]);
  expect(completed.map((event) => event.sale_id)).toEqual(recorded.map((sale) => sale.id));
  expect(new Set(completed.map((event) => event.transaction_xid)).size).toBe(1);
  expect(completed[0]?.data).toEqual(JSON.parse(JSON.stringify(saleCompletedData(onTill))));

  // Stock: the till's sale moved cola by its two lines together and bread; the test world's move
  // records the on-hand as the statement found it; the taken-over and refused sales moved nothing.
  expect(await onHandOf(world.db, cola.id)).toBe(16);
  expect(await onHandOf(world.db, bread.id)).toBe(4);
  expect(
    (await writer.saleMovesOf(cola.id)).map((move) => [
      move.sale_id,
      move.livemode,
      move.qty_delta,
      move.stock_qty_after,
    ]),
  ).toEqual([
    [onTill.id, true, -4, 16],
    [testWorld.id, false, -2, 20],
  ]);
  expect(
    (await writer.saleMovesOf(bread.id)).map((move) => [move.sale_id, move.qty_delta, move.stock_qty_after]),
  ).toEqual([[onTill.id, -1, 4]]);
  expect(await writer.saleMovesOf(haircut.id)).toEqual([]);

  // Cash in the open shift only.
  expect(await writer.cashMovesOf([...recorded, shiftClosed])).toEqual([
    { sale_id: onTill.id, shift_id: tillA.id, amount_cents: onTill.total_cents },
  ]);
});

test("many sales of one product from several requests and two processes at once: exact on-hand, one move per sale, the journal's on-hand running", async () => {
  const hot = await writer.newProduct({ name: "Hot item", price_cents: 100, stock_qty: 1000 });
  const side = await writer.newProduct({ name: "Side", price_cents: 50, stock_qty: 100 });
  // Two API processes, each with its writer: two statements at once, locking the same products.
  const processes = [countingDatabase(world.db.database), countingDatabase(world.db.database)];
  const writers = processes.map((process) => createCashSaleWriter(process.database));
  const sales = Array.from({ length: 40 }, (_, index) =>
    writer.cashSale({
      lines:
        index % 4 === 0
          ? [
              { product: side, qty: 1 },
              { product: hot, qty: 2 },
              { product: hot, qty: 1 },
            ]
          : [{ product: hot, qty: (index % 3) + 1 }],
    }),
  );
  const responses = await Promise.all(sales.map(writer.claimedResponse));
  const outcomes = await Promise.all(
    sales.map((sale, index) => (writers[index % 2] ?? writers[0])?.(writer.toWrite(sale, responses[index] ?? null))),
  );
  expect(processes.map((process) => process.statements())).toEqual([1, 1]);
  expect(outcomes.every((outcome) => outcome?.recorded === true)).toBe(true);

  const hotSold = (sale: SaleToInsert) =>
    sale.items.filter((item) => item.product_id === hot.id).reduce((sum, item) => sum + item.qty, 0);
  const sold = sales.reduce((sum, sale) => sum + hotSold(sale), 0);
  expect(await onHandOf(world.db, hot.id)).toBe(1000 - sold);
  expect(await onHandOf(world.db, side.id)).toBe(90);

  const moves = await writer.saleMovesOf(hot.id);
  expect(moves).toHaveLength(40);
  expect(new Map(moves.map((move) => [move.sale_id, -move.qty_delta]))).toEqual(
    new Map(sales.map((sale) => [sale.id, hotSold(sale)])),
  );
  let running = 1000;
  for (const move of moves) {
    running += move.qty_delta;
    expect(move.stock_qty_after).toBe(running);
  }
  expect((await writer.saleMovesOf(side.id)).map((move) => move.stock_qty_after).sort((a, b) => b - a)).toEqual(
    Array.from({ length: 10 }, (_, index) => 99 - index),
  );
  expect(await writer.completedEventsOf(sales)).toHaveLength(40);
});
