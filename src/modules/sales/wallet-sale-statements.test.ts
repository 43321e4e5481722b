import { randomUUID } from "node:crypto";
import request from "supertest";
import { z } from "zod";
import { collidingCodes } from "../../../tests/support/colliding-codes.ts";
import { countingDatabase } from "../../../tests/support/counting-database.ts";
import { poolOn } from "../../../tests/support/database.ts";
import { sampleValue } from "../../../tests/support/metrics.ts";
import {
  client,
  createProduct,
  eventsOfType,
  ledgerTransactionCount,
  movesOf,
  posSetup,
} from "../../../tests/support/pos.ts";
import { salesTestWorld } from "../../../tests/support/sales.ts";
import { createSandboxGateway } from "../../gateway/sandbox.ts";
import type { PaymentGateway } from "../../gateway/wallet-gateway.ts";
import { type Database, sql } from "../../platform/db/pool.ts";
import * as payments from "../payments/service.ts";
import { salePaymentHook } from "./payment-end.ts";

/**
 * Wallet sales' statements: the settlements of a moment (every shape of sale through one connection,
 * ends of both kinds in one statement) and the ring-up's one statement (payment, sale and stored answer).
 */

const world = salesTestWorld();

test("wallet sales of every shape settle through one connection (each shape its own prepared statement)", async () => {
  // One connection: every settlement below reuses its prepared statements, as a busy pool's do.
  const oneConnection = await poolOn(world.db.url, 1);
  try {
    const product = await createProduct(world.live, { name: "Shaped", price_cents: 400, stock_qty: 10 });
    const shapes = [
      { tender: "wallet", items: [{ product_id: product.id, qty: 1 }] },
      { tender: "wallet", items: [{ name: "Ad hoc", unit_cents: 300, qty: 1 }] },
      { tender: "wallet", items: [{ product_id: product.id, qty: 2 }] },
    ];
    const ending = { database: oneConnection, paymentHooks: [salePaymentHook] };
    for (const body of shapes) {
      const sale = (await world.testWorld.post("/v1/sales", body)).body;
      const pending = await payments.getPaymentById(world.db.database, sale.payment_id);
      const paid = await payments.settlePayment(ending, pending, { paidAt: new Date(), payerMsisdn: null });
      expect(paid.status).toBe("paid");
      expect(
        await world.db.database.oneFirst(
          sql.type(z.object({ status: z.string() }))`SELECT status FROM sales WHERE id = ${sale.id}`,
        ),
      ).toBe("completed");
    }
  } finally {
    await oneConnection.end();
  }
});

test("a wallet sale cancelled and another completed in one moment: one statement ends both payments, each sale once", async () => {
  const product = await createProduct(world.live, { name: "Mixed", price_cents: 400, stock_qty: 10 });
  const sold = (
    await world.testWorld.post("/v1/sales", { tender: "wallet", items: [{ product_id: product.id, qty: 1 }] })
  ).body;
  const abandoned = (
    await world.testWorld.post("/v1/sales", { tender: "wallet", items: [{ product_id: product.id, qty: 2 }] })
  ).body;
  const [soldPayment, abandonedPayment] = await Promise.all(
    [sold.payment_id, abandoned.payment_id].map((id) => payments.getPaymentById(world.db.database, id)),
  );
  if (soldPayment === undefined || abandonedPayment === undefined) throw new Error("two payments");
  const counted = countingDatabase(world.db.database);
  // One list of hooks for the moment: a process's writer is per database and list of hooks.
  const ending = { database: counted.database, paymentHooks: [salePaymentHook] };
  const statementsBefore = await sampleValue("pos_payment_ends_per_statement");
  const [paid, expired] = await Promise.all([
    payments.settlePayment(ending, soldPayment, { paidAt: new Date(), payerMsisdn: null }),
    payments.expirePayment(ending, abandonedPayment, { onlyWhenDue: false }),
  ]);
  expect([paid.status, expired.status]).toEqual(["paid", "expired"]);
  // The sales hook's reads (the settled payments' sales, the expired ones'), then the one statement.
  expect(await sampleValue("pos_payment_ends_per_statement")).toBe(statementsBefore + 1);
  expect([counted.statements(), counted.callsOf("any")]).toEqual([3, 3]);
  const statusOf = (saleId: string) =>
    world.db.database.oneFirst(
      sql.type(z.object({ status: z.string() }))`SELECT status FROM sales WHERE id = ${saleId}`,
    );
  expect([await statusOf(sold.id), await statusOf(abandoned.id)]).toEqual(["completed", "cancelled"]);
  expect(
    (await movesOf(world.db, product.id))
      .filter((move) => move.kind === "sale")
      .map((move) => [move.qty_delta, move.sale_id]),
  ).toEqual([[-1, sold.id]]);
  expect((await eventsOfType(world.db, world.shop.id, "sale.completed")).map((event) => event.data.sale_id)).toEqual([
    sold.id,
  ]);
  expect(await ledgerTransactionCount(world.db, world.shop.id)).toBe(1);
});

describe("a wallet sale in one statement", () => {
  const paymentRowsOf = (merchantId: string) =>
    world.db.database.any(sql.type(
      z.object({
        id: z.string(),
        status: z.string(),
        code: z.string(),
        amount_cents: z.number(),
        metadata: z.record(z.string(), z.unknown()),
        next_poll_at: z.date().nullable(),
        created_at: z.date(),
      }),
    )`
      SELECT id, status, code, amount_cents, metadata, next_poll_at, created_at
      FROM payments WHERE merchant_id = ${merchantId} ORDER BY created_at, id`);

  const eventTypesOf = (merchantId: string) =>
    world.db.database.anyFirst(sql.type(z.object({ type: z.string() }))`
      SELECT type FROM events WHERE merchant_id = ${merchantId} ORDER BY seq`);

  test("payment, pending sale and stored answer (without the QR image) in one statement, no transaction block; replayed byte for byte; settles as before", async () => {
    const product = await createProduct(world.live, { name: "Kettle", price_cents: 1250, stock_qty: 5 });
    const { counting, setup, api } = world.countedClient(world.shop.testKey);
    const key = randomUUID();
    const body = {
      tender: "wallet",
      cashier: "Rudo",
      client_sale_id: randomUUID(),
      items: [{ product_id: product.id, qty: 2 }],
    };
    const created = await api.post("/v1/sales", body, key);
    expect(created.status).toBe(201);
    const sale = created.body;
    expect(sale).toMatchObject({ status: "pending", tender: "wallet", total_cents: 2500, cashier: "Rudo" });
    // Authentication with the key's claim (and the shop's tax settings), the client_sale_id lookup, the
    // products, the sale.
    expect(counting.statements()).toBe(4);
    expect(counting.callsOf("transaction")).toBe(0);

    const [payment, ...others] = await paymentRowsOf(world.shop.id);
    expect(others).toEqual([]);
    expect(payment).toMatchObject({
      id: sale.payment_id,
      status: "pending",
      code: sale.payment.code,
      amount_cents: 2500,
      metadata: { sale_id: sale.id },
    });
    // Polled in batches from its first poll time, as every payment.
    expect(payment?.next_poll_at?.getTime()).toBe(
      (payment?.created_at.getTime() ?? 0) + (setup.config.payment.pollScheduleMs[0] ?? 0),
    );
    expect(await world.saleCount(world.shop.id)).toBe(1);
    // Nothing is emitted while the sale is pending.
    expect(await eventTypesOf(world.shop.id)).toEqual([]);
    // The stored answer is the one sent, less its payment's QR image (drawn again on replay), and
    // reading the sale answers the same.
    expect(sale.payment.qr_png_data_url).toMatch(/^data:image\/png;base64,/);
    const stored = await world.db.database.oneFirst(sql.type(z.object({ response_body: z.string() }))`
      SELECT response_body FROM idempotency_keys WHERE merchant_id = ${world.shop.id} AND key = ${key}`);
    expect(stored).toBe(JSON.stringify({ ...sale, payment: { ...sale.payment, qr_png_data_url: "" } }));
    const replay = await api.post("/v1/sales", body, key);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(replay.text).toBe(created.text);
    const { returns: _returns, ...read } = (await world.testWorld.get(`/v1/sales/${sale.id}`)).body;
    const { returns: _sent, ...sent } = sale;
    expect(read).toEqual(sent);

    const paid = await request(setup.app).post(`/checkout/${sale.payment_id}/mockpay`).send({});
    expect(paid.body.status).toBe("paid");
    expect((await world.testWorld.get(`/v1/sales/${sale.id}`)).body.status).toBe("completed");
    expect(await eventTypesOf(world.shop.id)).toEqual(["payment.paid", "sale.completed"]);
    expect((await movesOf(world.db, product.id)).filter((move) => move.sale_id === sale.id)).toHaveLength(1);
    expect(await world.balanceOf(world.testWorld)).toEqual({ USD: 2500 - 38, ZWG: 0 });
  });

  test("a code still live for another payment fails the statement, which wrote nothing; the sale is prepared again", async () => {
    const sandbox = createSandboxGateway({ autoSettleMs: 3_600_000 });
    const codes = collidingCodes(sandbox.issuePaymentCode);
    const colliding: PaymentGateway = { ...sandbox, issuePaymentCode: codes.issue };
    const { counting, api: till } = world.countedClient(world.shop.testKey, { test: colliding, live: colliding });
    const walletSale = { tender: "wallet", items: [{ name: "Mug", qty: 1, unit_cents: 300 }] };
    const first = await till.post("/v1/sales", walletSale);
    expect(first.status).toBe(201);
    const liveCode: string = first.body.payment.code;
    const statementsBefore = counting.statements();

    codes.repeat(liveCode, 1);
    const second = await till.post("/v1/sales", walletSale);
    expect(second.status).toBe(201);
    expect(codes.issuedCodes.slice(1)).toEqual([liveCode, second.body.payment.code]);
    // Authentication (with the shop's tax settings), the failed statement, the statement with the fresh
    // code: no transaction block.
    expect(counting.statements() - statementsBefore).toBe(3);
    expect(counting.callsOf("transaction")).toBe(0);
    const rows = await paymentRowsOf(world.shop.id);
    expect(rows.map((row) => [row.id, row.code])).toEqual([
      [first.body.payment_id, liveCode],
      [second.body.payment_id, second.body.payment.code],
    ]);
    expect(await world.saleCount(world.shop.id)).toBe(2);
  });

  test("concurrent first requests naming one client_sale_id: one sale and one payment written, every answer the winner's sale", async () => {
    const racers = 6;
    // Every request has found the client_sale_id unrecorded before any goes on: all of them then race on the index.
    let lookups = 0;
    let releaseLookups: () => void = () => {};
    const allLookedUp = new Promise<void>((resolve) => {
      releaseLookups = resolve;
    });
    const racing = new Proxy(world.db.database, {
      get: (target, property, receiver) => {
        const value = Reflect.get(target, property, receiver);
        if (property !== "maybeOne" || typeof value !== "function") {
          return value;
        }
        return async (query: { sql: string }, ...rest: unknown[]) => {
          const found = await value.apply(target, [query, ...rest]);
          if (query.sql.includes("client_request_fingerprint FROM sales") && lookups < racers) {
            lookups += 1;
            if (lookups === racers) {
              releaseLookups();
            }
            await allLookedUp;
          }
          return found;
        };
      },
    }) as Database;
    const api = client(posSetup({ ...world.db, database: racing }).app, world.shop.testKey);
    const body = { tender: "wallet", client_sale_id: randomUUID(), items: [{ name: "Tea", qty: 3, unit_cents: 120 }] };
    const answers = await Promise.all(Array.from({ length: racers }, () => api.post("/v1/sales", body)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(racers).fill(201));
    expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(1);
    expect(new Set(answers.map((answer) => answer.body.payment_id)).size).toBe(1);
    expect(answers.filter((answer) => answer.headers["idempotent-replayed"] === undefined)).toHaveLength(1);
    expect(answers.filter((answer) => answer.headers["idempotent-replayed"] === "true")).toHaveLength(racers - 1);
    expect(await world.saleCount(world.shop.id)).toBe(1);
    expect((await paymentRowsOf(world.shop.id)).map((row) => row.id)).toEqual([answers[0]?.body.payment_id]);
    expect(await eventTypesOf(world.shop.id)).toEqual([]);
  });
});
