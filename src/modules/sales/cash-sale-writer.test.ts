import { randomBytes, randomUUID } from "node:crypto";
import { UniqueIntegrityConstraintViolationError } from "slonik";
import { z } from "zod";
import { countingDatabase } from "../../../tests/support/counting-database.ts";
import { poolOn } from "../../../tests/support/database.ts";
import { eventually } from "../../../tests/support/money.ts";
import { createProduct, movesOf, onHandOf } from "../../../tests/support/pos.ts";
import { salesTestWorld } from "../../../tests/support/sales.ts";
import { type Database, sql } from "../../platform/db/pool.ts";
import { claimRequestOf, type ResponseToStore } from "../../platform/idempotency/service.ts";
import { newId } from "../../platform/ids.ts";
import * as events from "../events/service.ts";
import { type CashSaleToWrite, createCashSaleWriter, writeCashSales } from "./cash-sale-writer.ts";
import { newReceiptToken } from "./receipt-token.ts";
import type { SaleToInsert } from "./ring-up-queries.ts";
import { saleCompletedData } from "./sale-effects.ts";

/**
 * The cash sale writer: the cash sales of one event-loop turn (here: the writes started together) in
 * one statement and one commit, each sale exactly as it would be alone; a statement the database
 * refuses is written again sale by sale, so that only the failing sale fails.
 */

const world = salesTestWorld();

type Product = { id: string; name: string; price_cents: number };
type Line = { product: Product; qty: number } | { name: string; qty: number; unit_cents: number };

/** A completed cash sale as the API would answer it before writing it. */
function cashSale(options: {
  livemode?: boolean;
  lines: Line[];
  shift?: { id: string; till: string };
  clientSaleId?: string;
  note?: string;
}): SaleToInsert {
  const createdAt = new Date();
  const items = options.lines.map((line) =>
    "product" in line
      ? {
          product_id: line.product.id,
          name: line.product.name,
          qty: line.qty,
          unit_cents: line.product.price_cents,
          line_total_cents: line.qty * line.product.price_cents,
        }
      : {
          product_id: null,
          name: line.name,
          qty: line.qty,
          unit_cents: line.unit_cents,
          line_total_cents: line.qty * line.unit_cents,
        },
  );
  return {
    merchant_id: world.shop.id,
    id: newId("sale"),
    livemode: options.livemode ?? true,
    status: "completed",
    tender: "cash",
    currency: "USD",
    total_cents: items.reduce((sum, item) => sum + item.line_total_cents, 0),
    items,
    cashier: "Tendai",
    note: options.note ?? null,
    payment_id: null,
    actor_type: "api_key",
    actor_id: world.shop.liveKeyId,
    client_sale_id: options.clientSaleId ?? null,
    client_request_fingerprint: options.clientSaleId === undefined ? null : randomBytes(32),
    taken_at: createdAt,
    till_id: options.shift?.till ?? null,
    shift_id: options.shift?.id ?? null,
    receipt_token: newReceiptToken(),
    created_at: createdAt,
    completed_at: createdAt,
    cancelled_at: null,
  };
}

/** Claims an Idempotency-Key as an accepted request would, and the response its owner would store. */
async function claimedResponse(sale: SaleToInsert): Promise<ResponseToStore> {
  const claim = claimRequestOf({ key: randomUUID(), method: "POST", path: "/v1/sales", body: {} }, 30_000);
  await world.db.database.query(sql.unsafe`
    INSERT INTO idempotency_keys (merchant_id, livemode, key, request_method, request_path, request_fingerprint, state,
      owner_token, locked_until)
    VALUES (${sale.merchant_id}, ${sale.livemode}, ${claim.key}, 'POST', '/v1/sales', ${sql.binary(claim.fingerprint)},
      'in_flight', ${claim.ownerToken}, now() + interval '30 seconds')`);
  return {
    merchantId: sale.merchant_id,
    livemode: sale.livemode,
    key: claim.key,
    ownerToken: claim.ownerToken,
    status: 201,
    body: JSON.stringify({ id: sale.id, object: "sale" }),
  };
}

/** What a request hands the writer: its sale, its answer to store and its `sale.completed`. */
const toWrite = (sale: SaleToInsert, response: ResponseToStore | null): CashSaleToWrite => ({
  sale,
  response,
  event: events.prepareEvent({
    merchantId: sale.merchant_id,
    livemode: sale.livemode,
    type: "sale.completed",
    data: saleCompletedData(sale),
  }),
});

const ids = (sales: readonly SaleToInsert[]) =>
  sql.array(
    sales.map((sale) => sale.id),
    "text",
  );

const salesWritten = (sales: readonly SaleToInsert[]) =>
  world.db.database.anyFirst(sql.type(z.object({ id: z.string() }))`
    SELECT id FROM sales WHERE id = ANY(${ids(sales)}) ORDER BY id`);

/** The transactions that wrote these sales (their rows' xmin). */
const transactionsOf = (sales: readonly SaleToInsert[]) =>
  world.db.database.oneFirst(sql.type(z.object({ count: z.number() }))`
    SELECT count(DISTINCT xmin::text)::int AS count FROM sales WHERE id = ANY(${ids(sales)})`);

/** The `sale.completed` events of these sales, in the feed's order. */
const completedEventsOf = (sales: readonly SaleToInsert[]) =>
  world.db.database.any(sql.type(
    z.object({ sale_id: z.string(), data: z.record(z.string(), z.unknown()), transaction_xid: z.string() }),
  )`
    SELECT data->>'sale_id' AS sale_id, data, transaction_xid::text AS transaction_xid FROM events
    WHERE type = 'sale.completed' AND data->>'sale_id' = ANY(${ids(sales)})
    ORDER BY transaction_xid, seq`);

const cashMovesOf = (sales: readonly SaleToInsert[]) =>
  world.db.database.any(sql.type(z.object({ sale_id: z.string(), shift_id: z.string(), amount_cents: z.number() }))`
    SELECT sale_id, shift_id, amount_cents FROM shift_cash_moves WHERE sale_id = ANY(${ids(sales)}) ORDER BY sale_id`);

const recordOf = (response: ResponseToStore) =>
  world.db.database.one(sql.type(z.object({ state: z.string(), response_body: z.string().nullable() }))`
    SELECT state, response_body FROM idempotency_keys
    WHERE merchant_id = ${response.merchantId} AND livemode = ${response.livemode} AND key = ${response.key}`);

const saleMovesOf = async (productId: string) =>
  (await movesOf(world.db, productId)).filter((move) => move.kind === "sale");

async function newProduct(body: Record<string, unknown>): Promise<Product> {
  const product = await createProduct(world.live, body);
  return { id: product.id, name: String(product.name), price_cents: Number(product.price_cents) };
}

async function openShift(till: string): Promise<{ id: string; till: string }> {
  const opened = await world.live.post("/v1/shifts", { till_id: till });
  expect(opened.status).toBe(201);
  return { id: opened.body.id, till };
}

test("a turn's cash sales are one statement and one commit: each with its answer, event, stock and cash, only while its key is owned and its shift open", async () => {
  const cola = await newProduct({ name: "Cola", price_cents: 150, stock_qty: 20 });
  const bread = await newProduct({ name: "Bread", price_cents: 90, stock_qty: 5 });
  const haircut = await newProduct({
    name: "Haircut",
    price_cents: 500,
    track_stock: false,
  });
  const tillA = await openShift("till-A");
  const tillB = await openShift("till-B");
  // Till B's shift closes after its sale read it open, before the sale's statement.
  expect((await world.live.post(`/v1/shifts/${tillB.id}/close`, { counted: [] })).status).toBe(200);

  const onTill = cashSale({
    lines: [
      { product: cola, qty: 3 },
      { product: bread, qty: 1 },
      { name: "Bag", qty: 2, unit_cents: 10 },
      { product: cola, qty: 1 },
    ],
    shift: tillA,
    clientSaleId: randomUUID(),
  });
  const testWorld = cashSale({ livemode: false, lines: [{ product: cola, qty: 2 }] });
  const untracked = cashSale({
    lines: [
      { product: haircut, qty: 1 },
      { name: "Tip", qty: 1, unit_cents: 100 },
    ],
  });
  const takenOver = cashSale({ lines: [{ product: cola, qty: 5 }] });
  const shiftClosed = cashSale({ lines: [{ product: bread, qty: 2 }], shift: tillB });
  const [onTillResponse, testWorldResponse, takenOverResponse, shiftClosedResponse] = (await Promise.all(
    [onTill, testWorld, takenOver, shiftClosed].map(claimedResponse),
  )) as [ResponseToStore, ResponseToStore, ResponseToStore, ResponseToStore];
  // A retry took this key over: its owner token is no longer this request's.
  const lost = { ...takenOverResponse, ownerToken: randomUUID() };

  const counting = countingDatabase(world.db.database);
  const write = createCashSaleWriter(counting.database);
  const outcomes = await Promise.all([
    write(toWrite(onTill, onTillResponse)),
    write(toWrite(testWorld, testWorldResponse)),
    write(toWrite(untracked, null)),
    write(toWrite(takenOver, lost)),
    write(toWrite(shiftClosed, shiftClosedResponse)),
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
  expect(await salesWritten([...recorded, takenOver, shiftClosed])).toEqual(recorded.map((sale) => sale.id).sort());
  expect(await transactionsOf(recorded)).toBe(1);

  // Answers stored only for the sales written; the lost key and the closed shift's stay in flight.
  expect(await recordOf(onTillResponse)).toEqual({ state: "completed", response_body: onTillResponse.body });
  expect(await recordOf(testWorldResponse)).toEqual({ state: "completed", response_body: testWorldResponse.body });
  expect(await recordOf(lost)).toEqual({ state: "in_flight", response_body: null });
  expect(await recordOf(shiftClosedResponse)).toEqual({ state: "in_flight", response_body: null });

  // One sale.completed per sale written, in the order of the sales, in their one transaction.
  const completed = await completedEventsOf([...recorded, takenOver, shiftClosed]);
  expect(completed.map((event) => event.sale_id)).toEqual(recorded.map((sale) => sale.id));
  expect(new Set(completed.map((event) => event.transaction_xid)).size).toBe(1);
  expect(completed[0]?.data).toEqual(JSON.parse(JSON.stringify(saleCompletedData(onTill))));

  // Stock: the till's sale moved cola by its two lines together and bread; the test world's move
  // records the on-hand as the statement found it; the taken-over and refused sales moved nothing.
  expect(await onHandOf(world.db, cola.id)).toBe(16);
  expect(await onHandOf(world.db, bread.id)).toBe(4);
  expect(
    (await saleMovesOf(cola.id)).map((move) => [move.sale_id, move.livemode, move.qty_delta, move.stock_qty_after]),
  ).toEqual([
    [onTill.id, true, -4, 16],
    [testWorld.id, false, -2, 20],
  ]);
  expect((await saleMovesOf(bread.id)).map((move) => [move.sale_id, move.qty_delta, move.stock_qty_after])).toEqual([
    [onTill.id, -1, 4],
  ]);
  expect(await saleMovesOf(haircut.id)).toEqual([]);

  // Cash in the open shift only.
  expect(await cashMovesOf([...recorded, shiftClosed])).toEqual([
    { sale_id: onTill.id, shift_id: tillA.id, amount_cents: onTill.total_cents },
  ]);
});

test("many sales of one product from several requests and two processes at once: exact on-hand, one move per sale, the journal's on-hand running", async () => {
  const hot = await newProduct({ name: "Hot item", price_cents: 100, stock_qty: 1000 });
  const side = await newProduct({ name: "Side", price_cents: 50, stock_qty: 100 });
  // Two API processes, each with its writer: two statements at once, locking the same products.
  const processes = [countingDatabase(world.db.database), countingDatabase(world.db.database)];
  const writers = processes.map((process) => createCashSaleWriter(process.database));
  const sales = Array.from({ length: 40 }, (_, index) =>
    cashSale({
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
  const responses = await Promise.all(sales.map(claimedResponse));
  const outcomes = await Promise.all(
    sales.map((sale, index) => (writers[index % 2] ?? writers[0])?.(toWrite(sale, responses[index] ?? null))),
  );
  expect(processes.map((process) => process.statements())).toEqual([1, 1]);
  expect(outcomes.every((outcome) => outcome?.recorded === true)).toBe(true);

  const hotSold = (sale: SaleToInsert) =>
    sale.items.filter((item) => item.product_id === hot.id).reduce((sum, item) => sum + item.qty, 0);
  const sold = sales.reduce((sum, sale) => sum + hotSold(sale), 0);
  expect(await onHandOf(world.db, hot.id)).toBe(1000 - sold);
  expect(await onHandOf(world.db, side.id)).toBe(90);

  const moves = await saleMovesOf(hot.id);
  expect(moves).toHaveLength(40);
  expect(new Map(moves.map((move) => [move.sale_id, -move.qty_delta]))).toEqual(
    new Map(sales.map((sale) => [sale.id, hotSold(sale)])),
  );
  let running = 1000;
  for (const move of moves) {
    running += move.qty_delta;
    expect(move.stock_qty_after).toBe(running);
  }
  expect((await saleMovesOf(side.id)).map((move) => move.stock_qty_after).sort((a, b) => b - a)).toEqual(
    Array.from({ length: 10 }, (_, index) => 99 - index),
  );
  expect(await completedEventsOf(sales)).toHaveLength(40);
});

test("a client_sale_id recorded first fails only its own sale: the batch is written again sale by sale", async () => {
  const cola = await newProduct({ name: "Cola", price_cents: 150, stock_qty: 50 });
  const clientSaleId = randomUUID();
  const first = cashSale({ lines: [{ product: cola, qty: 1 }], clientSaleId });
  expect(await createCashSaleWriter(world.db.database)(toWrite(first, null))).toEqual({
    recorded: true,
    shiftOpen: true,
  });

  const fresh = cashSale({ lines: [{ product: cola, qty: 2 }], clientSaleId: randomUUID() });
  const colliding = cashSale({ lines: [{ product: cola, qty: 3 }], clientSaleId });
  const [freshResponse, collidingResponse] = (await Promise.all([fresh, colliding].map(claimedResponse))) as [
    ResponseToStore,
    ResponseToStore,
  ];
  const counting = countingDatabase(world.db.database);
  const write = createCashSaleWriter(counting.database);
  const outcomes = await Promise.allSettled([
    write(toWrite(fresh, freshResponse)),
    write(toWrite(colliding, collidingResponse)),
  ]);
  // The batch, then each sale on its own.
  expect(counting.statements()).toBe(3);
  expect(outcomes[0]).toEqual({ status: "fulfilled", value: { recorded: true, shiftOpen: true } });
  const reason = outcomes[1]?.status === "rejected" ? outcomes[1].reason : undefined;
  expect(reason).toBeInstanceOf(UniqueIntegrityConstraintViolationError);
  expect((reason as UniqueIntegrityConstraintViolationError).constraint).toBe("sales_client_sale_id_key");

  // The fresh sale written once, with everything; the colliding one not at all.
  expect(await salesWritten([fresh, colliding])).toEqual([fresh.id]);
  expect((await recordOf(freshResponse)).state).toBe("completed");
  expect((await recordOf(collidingResponse)).state).toBe("in_flight");
  expect((await completedEventsOf([fresh, colliding])).map((event) => event.sale_id)).toEqual([fresh.id]);
  expect(await onHandOf(world.db, cola.id)).toBe(47);
  expect((await saleMovesOf(cola.id)).map((move) => [move.sale_id, move.stock_qty_after])).toEqual([
    [first.id, 49],
    [fresh.id, 47],
  ]);
});

test("two sales of one batch naming the same client_sale_id: one is recorded, the other fails, the rest once", async () => {
  const bread = await newProduct({ name: "Bread", price_cents: 90, stock_qty: 30 });
  const clientSaleId = randomUUID();
  const twins = [0, 1].map(() => cashSale({ lines: [{ product: bread, qty: 3 }], clientSaleId }));
  const other = cashSale({ lines: [{ product: bread, qty: 1 }] });
  const counting = countingDatabase(world.db.database);
  const write = createCashSaleWriter(counting.database);
  const outcomes = await Promise.allSettled([...twins, other].map((sale) => write(toWrite(sale, null))));
  expect(counting.statements()).toBe(4);
  expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(["fulfilled", "fulfilled", "rejected"]);
  expect(outcomes[2]).toEqual({ status: "fulfilled", value: { recorded: true, shiftOpen: true } });
  const written = await salesWritten([...twins, other]);
  expect(written).toHaveLength(2);
  expect(written).toContain(other.id);
  expect(await onHandOf(world.db, bread.id)).toBe(26);
  expect(await saleMovesOf(bread.id)).toHaveLength(2);
  expect(await completedEventsOf([...twins, other])).toHaveLength(2);
});

test("a batch waits for another transaction's client_sale_id before it locks any product: no deadlock with it", async () => {
  const cola = await newProduct({ name: "Cola", price_cents: 150, stock_qty: 10 });
  const clientSaleId = randomUUID();
  const first = cashSale({ lines: [{ name: "Bag", qty: 1, unit_cents: 10 }], clientSaleId });
  const colaSale = cashSale({ lines: [{ product: cola, qty: 2 }] });
  const twin = cashSale({ lines: [{ name: "Bag", qty: 1, unit_cents: 10 }], clientSaleId });
  const write = createCashSaleWriter(world.db.database);
  const steps = { inserted: Promise.withResolvers<void>(), batchWaiting: Promise.withResolvers<void>() };
  // Another request's sale of the same client_sale_id, not yet committed; once the batch waits for
  // it, that transaction locks the cola's row, which the waiting batch must not hold.
  const other = world.db.database.transaction(async (transaction) => {
    expect(await writeCashSales(transaction, [toWrite(first, null)])).toEqual([{ recorded: true, shiftOpen: true }]);
    steps.inserted.resolve();
    await steps.batchWaiting.promise;
    await transaction.query(sql.unsafe`SELECT id FROM products WHERE id = ${cola.id} FOR UPDATE NOWAIT`);
  });
  await steps.inserted.promise;
  const outcomes = Promise.allSettled([write(toWrite(colaSale, null)), write(toWrite(twin, null))]);
  await eventually(async () => (await batchesWaitingForALock()) === 1);
  steps.batchWaiting.resolve();
  await other;
  const [colaOutcome, twinOutcome] = await outcomes;
  expect(colaOutcome).toEqual({ status: "fulfilled", value: { recorded: true, shiftOpen: true } });
  expect(twinOutcome?.status === "rejected" ? twinOutcome.reason : undefined).toBeInstanceOf(
    UniqueIntegrityConstraintViolationError,
  );
  expect(await salesWritten([first, colaSale, twin])).toEqual([first.id, colaSale.id].sort());
  expect(await onHandOf(world.db, cola.id)).toBe(8);
});

/** The cash sale statements of this test's database waiting for another transaction's lock. */
const batchesWaitingForALock = () =>
  world.db.database.oneFirst(sql.type(z.object({ n: z.number() }))`
    SELECT count(*)::int AS n FROM pg_stat_activity
    WHERE datname = ${world.db.name} AND wait_event_type = 'Lock' AND query LIKE '%WITH held_shift AS MATERIALIZED%'`);

test("any other refusal of one sale (a check the database enforces) fails only that sale", async () => {
  const cola = await newProduct({ name: "Cola", price_cents: 150, stock_qty: 10 });
  const till = await openShift("till-C");
  const good = [0, 1].map(() => cashSale({ lines: [{ product: cola, qty: 1 }], shift: till }));
  const refused = cashSale({ lines: [{ product: cola, qty: 1 }], note: "x".repeat(501) });
  const responses = (await Promise.all([...good, refused].map(claimedResponse))) as ResponseToStore[];
  const counting = countingDatabase(world.db.database);
  const write = createCashSaleWriter(counting.database);
  const outcomes = await Promise.allSettled(
    [...good, refused].map((sale, index) => write(toWrite(sale, responses[index] ?? null))),
  );
  expect(counting.statements()).toBe(4);
  expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "fulfilled", "rejected"]);
  expect(String(outcomes[2]?.status === "rejected" ? outcomes[2].reason : "")).toMatch(/check/i);
  expect(await salesWritten([...good, refused])).toEqual(good.map((sale) => sale.id).sort());
  expect(await onHandOf(world.db, cola.id)).toBe(8);
  expect(await cashMovesOf([...good, refused])).toHaveLength(2);
  expect(await completedEventsOf([...good, refused])).toHaveLength(2);
  expect((await recordOf(responses[2] as ResponseToStore)).state).toBe("in_flight");
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
  const sales = [0, 1, 2].map(() => cashSale({ lines: [{ name: "Bag", qty: 1, unit_cents: 10 }] }));
  const outcomes = await Promise.allSettled(sales.map((sale) => write(toWrite(sale, null))));
  expect(calls).toBe(1);
  expect(outcomes.map((outcome) => outcome.status)).toEqual(["rejected", "rejected", "rejected"]);
  expect(await salesWritten(sales)).toEqual([]);
});

test("sales of every shape, alone and together, share one prepared statement on one connection", async () => {
  // One connection: every write below reuses the statement prepared by the first, as a busy pool's do.
  const oneConnection = await poolOn(world.db.url, 1);
  try {
    const cola = await newProduct({ name: "Cola", price_cents: 150, stock_qty: 100 });
    const till = await openShift("till-D");
    const shapes = () => [
      cashSale({ lines: [{ name: "Bag", qty: 1, unit_cents: 10 }] }),
      cashSale({ lines: [{ product: cola, qty: 1 }] }),
      cashSale({ livemode: false, lines: [{ product: cola, qty: 1 }] }),
      cashSale({ lines: [{ product: cola, qty: 1 }], shift: till, clientSaleId: randomUUID() }),
    ];
    const write = createCashSaleWriter(oneConnection);
    const alone = shapes();
    for (const sale of alone) {
      expect(await write(toWrite(sale, await claimedResponse(sale)))).toEqual({ recorded: true, shiftOpen: true });
    }
    const together = shapes();
    const responses = await Promise.all(together.map(claimedResponse));
    const outcomes = await Promise.all(together.map((sale, index) => write(toWrite(sale, responses[index] ?? null))));
    expect(outcomes.every((outcome) => outcome.recorded)).toBe(true);
    expect(await salesWritten([...alone, ...together])).toHaveLength(8);
    expect(await onHandOf(world.db, cola.id)).toBe(96);
  } finally {
    await oneConnection.end();
  }
});
