import { client, createProduct, eventsOfType, movesOf, onHandOf, posSetup } from "../../../tests/support/pos.ts";
import { salesTestWorld } from "../../../tests/support/sales.ts";
import { type GatewaySimulator, startGatewaySimulator } from "../../gateway/simulator/app.ts";
import { sql } from "../../platform/db/pool.ts";
import { createLogger } from "../../platform/telemetry/logger.ts";
import * as payments from "../payments/service.ts";

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
});
