import pg from "pg";
import { z } from "zod";
import { countingDatabase } from "../../../tests/support/counting-database.ts";
import { sampleValue } from "../../../tests/support/metrics.ts";
import { client, createProduct, eventsOfType, movesOf, onHandOf, posSetup } from "../../../tests/support/pos.ts";
import { salesTestWorld } from "../../../tests/support/sales.ts";
import { waitUntil } from "../../../tests/support/time.ts";
import { type GatewaySimulator, startGatewaySimulator } from "../../gateway/simulator/app.ts";
import { sql } from "../../platform/db/pool.ts";
import { createLogger } from "../../platform/telemetry/logger.ts";
import type { PaymentHooks } from "../payments/hooks.ts";
import * as payments from "../payments/service.ts";
import { salePaymentHook } from "./payment-end.ts";
import { SALE_FINISHED_CHANNEL } from "./queries.ts";

/** Wallet sales in the live world, through the gateway simulator. */

const world = salesTestWorld();

describe("wallet sales (live world, through the gateway simulator)", () => {
  let simulator: GatewaySimulator;
  beforeAll(async () => {
    simulator = await startGatewaySimulator({
      port: 0,
      apiKey: "gwsim_live_test",
      logger: createLogger({ level: "silent", service: "test" }),
    });
  });
  afterAll(() => simulator.stop());
  const simulate = (path: string, body: unknown = {}) =>
    fetch(`${simulator.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  test("paid: the sale completes, on-hand is decremented, the live balance is credited net of fee, exactly once under racing refreshes", async () => {
    const liveSetup = posSetup(world.db, {
      GATEWAY_URL: simulator.url,
      GATEWAY_API_KEY: "gwsim_live_test",
      GATEWAY_TIMEOUT_MS: "10000",
      PAYMENT_INQUIRY_MIN_INTERVAL_SECONDS: "0.01",
    });
    const api = client(liveSetup.app, world.shop.liveKey);
    const product = await createProduct(api, { name: "Jacket", price_cents: 2000, stock_qty: 10 });
    const cashProduct = await createProduct(api, { name: "Socks", price_cents: 300, stock_qty: 10 });
    await api.post("/v1/sales", { tender: "cash", items: [{ product_id: cashProduct.id, qty: 1 }] });
    const sale = (await api.post("/v1/sales", { tender: "wallet", items: [{ product_id: product.id, qty: 2 }] })).body;
    expect(sale).toMatchObject({ livemode: true, status: "pending", payment: { livemode: true, amount_cents: 4000 } });
    expect((await api.get(`/v1/sales/${sale.id}`)).body.status).toBe("pending");
    expect(await onHandOf(world.db, product.id)).toBe(10);

    await simulate("/sim/wallets", { msisdn: "263772000009", currency: "USD", amount_cents: 10_000 });
    expect(
      (await simulate(`/sim/payment-codes/${sale.payment.code}/pay`, { payer_msisdn: "263772000009" })).status,
    ).toBe(200);
    // The inquiry throttle (10 ms here) counts from the first GET's inquiry: moved into the past rather
    // than counting on the machine taking longer than that before the racing reads.
    await world.db.database.query(sql.unsafe`
      UPDATE payments SET last_inquiry_at = now() - interval '1 minute' WHERE id = ${sale.payment_id}`);
    await Promise.all([
      ...Array.from({ length: 6 }, () => api.get(`/v1/sales/${sale.id}`)),
      payments.pollPayment(liveSetup.dependencies, { paymentId: sale.payment_id }),
    ]);
    const final = (await api.get(`/v1/sales/${sale.id}`)).body;
    expect(final.status).toBe("completed");
    expect(await onHandOf(world.db, product.id)).toBe(8);
    expect((await movesOf(world.db, product.id)).filter((move) => move.kind === "sale")).toEqual([
      expect.objectContaining({ livemode: true, qty_delta: -2, stock_qty_after: 8, sale_id: sale.id }),
    ]);
    // Only the wallet sale feeds the payable balance (4000 less 1.5%); the cash sale does not.
    expect(await world.balanceOf(api)).toEqual({ USD: 3940, ZWG: 0 });
    expect(
      (await eventsOfType(world.db, world.shop.id, "sale.completed")).filter((event) => event.data.sale_id === sale.id),
    ).toHaveLength(1);
  });

  test("the wallet sales of one moment settle in one statement with the other settlements: each sale completed, moved, announced once, its event after its payment's", async () => {
    const liveSetup = posSetup(world.db, { GATEWAY_URL: simulator.url, GATEWAY_API_KEY: "gwsim_live_test" });
    const live = client(liveSetup.app, world.shop.liveKey);
    const product = await createProduct(live, { name: "Kettle", price_cents: 1000, stock_qty: 10 });
    const walletSale = async (api: typeof live, items: unknown[]) => {
      const created = await api.post("/v1/sales", { tender: "wallet", items });
      expect([created.status, created.body.status]).toEqual([201, "pending"]);
      return created.body as { id: string; payment_id: string; livemode: boolean };
    };
    const sales = [
      await walletSale(live, [{ product_id: product.id, qty: 1 }]),
      await walletSale(live, [{ product_id: product.id, qty: 2 }]),
      await walletSale(live, [
        { product_id: product.id, qty: 3 },
        { name: "Gift wrap", unit_cents: 200, qty: 1 },
      ]),
      await walletSale(world.testWorld, [{ product_id: product.id, qty: 4 }]),
    ];
    const ordinary = await live.post("/v1/payments", { amount_cents: 700 });
    expect(ordinary.status).toBe(201);
    const pending = await Promise.all(
      [...sales.map((sale) => sale.payment_id), ordinary.body.id as string].map((id) =>
        payments.getPaymentById(world.db.database, id),
      ),
    );

    const listener = new pg.Client({ connectionString: world.db.url });
    await listener.connect();
    const announced: string[] = [];
    listener.on("notification", (message) => announced.push(message.payload ?? ""));
    try {
      await listener.query(`LISTEN ${SALE_FINISHED_CHANNEL}`);
      const counted = countingDatabase(world.db.database);
      // One list of hooks for the moment: a process's writer is per database and list of hooks.
      const ending = { database: counted.database, paymentHooks: [salePaymentHook] as PaymentHooks };
      const statementsBefore = await sampleValue("pos_payment_ends_per_statement");
      const observation = { paidAt: new Date(), payerMsisdn: "263772000009" };
      const settled = await Promise.all(pending.map((payment) => payments.settlePayment(ending, payment, observation)));
      expect(settled.map((payment) => payment.status)).toEqual(["paid", "paid", "paid", "paid", "paid"]);
      // The hook's one read of the pending sales, then the settlements' one statement.
      expect(await sampleValue("pos_payment_ends_per_statement")).toBe(statementsBefore + 1);
      expect([counted.statements(), counted.callsOf("any"), counted.callsOf("transaction")]).toEqual([2, 2, 0]);
      await waitUntil("every sale is announced", async () => announced.length >= sales.length);
      // A round trip on the listening connection: anything else sent to it before would have arrived first.
      await listener.query("SELECT 1");
      expect([...announced].sort()).toEqual(sales.map((sale) => sale.id).sort());

      // Observed paid again: nothing more is written.
      const again = await Promise.all(pending.map((payment) => payments.settlePayment(ending, payment, observation)));
      expect(again.map((payment) => payment.status)).toEqual(["paid", "paid", "paid", "paid", "paid"]);
    } finally {
      await listener.end();
    }

    for (const sale of sales) {
      const api = sale.livemode ? live : world.testWorld;
      expect((await api.get(`/v1/sales/${sale.id}`)).body.status).toBe("completed");
      const types = await world.db.database.anyFirst(sql.type(z.object({ type: z.string() }))`
        SELECT type FROM events
        WHERE merchant_id = ${world.shop.id} AND (data->>'payment_id' = ${sale.payment_id} OR data->>'sale_id' = ${sale.id})
        ORDER BY seq`);
      expect(types).toEqual(["payment.paid", "sale.completed"]);
    }
    // The live sales took 6 off the shelf, each move recording the on-hand after it in turn; the test
    // world's sale is journaled with the on-hand unchanged.
    expect(await onHandOf(world.db, product.id)).toBe(4);
    const moves = (await movesOf(world.db, product.id)).filter((move) => move.kind === "sale");
    const liveMoves = moves.filter((move) => move.livemode);
    expect(liveMoves.map((move) => move.qty_delta).sort()).toEqual([-1, -2, -3]);
    liveMoves.reduce((before, move) => {
      expect(move.stock_qty_after).toBe(before + move.qty_delta);
      return move.stock_qty_after;
    }, 10);
    expect(moves.filter((move) => !move.livemode)).toEqual([
      expect.objectContaining({ qty_delta: -4, sale_id: sales[3]?.id }),
    ]);
    // Every payment settled once: the live balance holds the three sales and the payment, less 1.5%.
    const settlements = await world.db.database.oneFirst(sql.type(z.object({ count: z.number() }))`
      SELECT count(*)::int AS count FROM ledger_transactions WHERE merchant_id = ${world.shop.id} AND source_type = 'payment'`);
    expect(settlements).toBe(5);
    expect(await world.balanceOf(live)).toEqual({ USD: 1000 + 2000 + 3200 + 700 - (15 + 30 + 48 + 11), ZWG: 0 });
    expect(await eventsOfType(world.db, world.shop.id, "sale.completed")).toHaveLength(4);
  });
});
