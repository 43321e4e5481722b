import { randomUUID } from "node:crypto";
import { z } from "zod";
import { createProduct, eventsOfType, movesOf } from "../../../tests/support/pos.ts";
import { salesTestWorld } from "../../../tests/support/sales.ts";
import { cashTender, SPLIT_TILL, sellSplit, tenderHelpers, walletTender } from "../../../tests/support/tenders.ts";
import { sql } from "../../platform/db/pool.ts";

/**
 * Split and two-currency tender through the API (issue 47 points 5 and 6; docs/shop.md "Split and
 * two-currency tender"): cash in two currencies with change in either, cash and wallet, a wallet
 * tender failing and a cash tender finishing the sale, cancelling, bad input, replays (returns and
 * reports: split-tender-returns.test.ts).
 */

const world = salesTestWorld();
const { openShop, drawerOf, pay } = tenderHelpers(world);
const TILL = SPLIT_TILL;
// USD 1 = ZWG 26.5: one US cent is worth 26.5 ZWG cents.
const RATE_MICROS = 26_500_000;

const tenderCount = (saleId: string) =>
  world.db.database.oneFirst(sql.type(z.object({ count: z.number() }))`
    SELECT count(*)::int AS count FROM sale_tenders WHERE sale_id = ${saleId}`);

describe("split and two-currency tender", () => {
  test("USD and ZWG cash with change in ZWG, then in USD: completed at once, each drawer exact", async () => {
    const api = world.testWorld;
    const { rateId, shiftId, product } = await openShop(api);
    const sale = await sellSplit(api, product, 1, [cashTender("USD", 500), cashTender("ZWG", 15_000)], {
      exchange_rate_id: rateId,
      change_currency: "ZWG",
    });
    expect(sale.status).toBe(201);
    // ZWG 150.00 counts for floor(15000 / 26.5) = 566 US cents; 66 over, given as floor(66 × 26.5) ZWG cents.
    expect(sale.body).toMatchObject({
      status: "completed",
      tender: "split",
      total_cents: 1_000,
      paid_cents: 1_000,
      due_cents: 0,
      change: { currency: "ZWG", amount_cents: 1_749 },
      payment: null,
      tenders: [
        {
          kind: "cash",
          currency: "USD",
          amount_cents: 500,
          credit_cents: 500,
          contributed_cents: 500,
          exchange_rate_id: null,
          other_per_base_micros: null,
          status: "paid",
          payment_id: null,
        },
        {
          kind: "cash",
          currency: "ZWG",
          amount_cents: 15_000,
          credit_cents: 566,
          contributed_cents: 500,
          exchange_rate_id: rateId,
          other_per_base_micros: RATE_MICROS,
          status: "paid",
          payment_id: null,
        },
      ],
    });
    expect(await drawerOf(api, shiftId)).toEqual({ USD: 500, ZWG: 15_000 - 1_749 });
    const [event] = await eventsOfType(world.db, world.shop.id, "sale.completed");
    expect(event?.data).toMatchObject({
      sale_id: sale.body.id,
      tender: "split",
      total_cents: 1_000,
      tenders: sale.body.tenders,
      paid_cents: 1_000,
      change: sale.body.change,
    });
    expect((await api.get(`/v1/sales/${sale.body.id}`)).body).toMatchObject({
      status: "completed",
      change: sale.body.change,
      tenders: sale.body.tenders,
    });

    const usdChange = await sellSplit(api, product, 1, [cashTender("USD", 500), cashTender("ZWG", 15_000)], {
      exchange_rate_id: rateId,
    });
    expect(usdChange.body).toMatchObject({ status: "completed", change: { currency: "USD", amount_cents: 66 } });
    expect(await drawerOf(api, shiftId)).toEqual({ USD: 500 + 500 - 66, ZWG: 2 * 15_000 - 1_749 });
    // The drawer's cash sales per currency: net of change, each sale counted once.
    const cash = (await api.get(`/v1/shifts/${shiftId}`)).body.cash;
    expect(cash).toEqual([
      expect.objectContaining({ currency: "USD", cash_sales_cents: 934, cash_sales_count: 2 }),
      expect.objectContaining({ currency: "ZWG", cash_sales_cents: 28_251, cash_sales_count: 2 }),
    ]);
  });

  test("cash and wallet: pending with the cash in the drawer; the wallet's payment completes it, its money in the balance once", async () => {
    const api = world.testWorld;
    const { shiftId, product } = await openShop(api);
    const sale = await sellSplit(api, product, 2, [cashTender("USD", 800), walletTender("USD", 1_200)]);
    expect(sale.status).toBe(201);
    expect(sale.body).toMatchObject({ status: "pending", paid_cents: 800, due_cents: 1_200, change: null });
    const paymentId = sale.body.tenders[1].payment_id;
    expect(sale.body.payment).toMatchObject({
      id: paymentId,
      status: "pending",
      amount_cents: 1_200,
      metadata: { sale_id: sale.body.id, tender_index: 1 },
    });
    expect(sale.body.payment.qr_png_data_url).toMatch(/^data:image\/png;base64,/);
    expect(await drawerOf(api, shiftId)).toEqual({ USD: 800, ZWG: 0 });
    expect((await movesOf(world.db, product.id)).filter((move) => move.sale_id === sale.body.id)).toEqual([]);

    expect((await pay(paymentId)).body.status).toBe("paid");
    const done = (await api.get(`/v1/sales/${sale.body.id}`)).body;
    expect(done).toMatchObject({ status: "completed", paid_cents: 2_000, due_cents: 0 });
    expect(done.tenders.map((tender: { status: string }) => tender.status)).toEqual(["paid", "paid"]);
    expect((await movesOf(world.db, product.id)).filter((move) => move.sale_id === sale.body.id)).toHaveLength(1);
    const events = await eventsOfType(world.db, world.shop.id, "sale.completed");
    expect(events.map((event) => event.data.tenders)).toEqual([done.tenders]);
    // 1.5 % fee on the wallet tender only; the cash never reaches the balance.
    expect(await world.balanceOf(api)).toEqual({ USD: 1_200 - 18, ZWG: 0 });
    expect(await drawerOf(api, shiftId)).toEqual({ USD: 800, ZWG: 0 });
  });

  test("a wallet tender that expires leaves the sale pending with the cash kept; a ZWG cash tender then completes it", async () => {
    const api = world.testWorld;
    const { rateId, shiftId, product } = await openShop(api);
    const sale = await sellSplit(api, product, 1, [cashTender("USD", 400), walletTender("USD", 600)]);
    const paymentId = sale.body.tenders[1].payment_id;
    expect((await pay(paymentId, "expired")).body.status).toBe("expired");
    const waiting = (await api.get(`/v1/sales/${sale.body.id}`)).body;
    expect(waiting).toMatchObject({ status: "pending", paid_cents: 400, due_cents: 600 });
    expect(waiting.tenders[1]).toMatchObject({ status: "failed", payment_id: paymentId });

    // USD 6.00 is asked as ZWG 159.00; ZWG 160.00 is given, change in USD.
    const added = await api.post(`/v1/sales/${sale.body.id}/tenders`, {
      kind: "cash",
      currency: "ZWG",
      amount_cents: 16_000,
      exchange_rate_id: rateId,
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({
      status: "completed",
      paid_cents: 1_000,
      due_cents: 0,
      change: { currency: "USD", amount_cents: 3 },
    });
    expect(added.body.tenders[2]).toMatchObject({
      kind: "cash",
      currency: "ZWG",
      credit_cents: 603,
      contributed_cents: 600,
    });
    expect(await drawerOf(api, shiftId)).toEqual({ USD: 400 - 3, ZWG: 16_000 });
    expect(await world.balanceOf(api)).toEqual({ USD: 0, ZWG: 0 });
    // Nothing more is taken.
    const more = await api.post(`/v1/sales/${sale.body.id}/tenders`, {
      kind: "cash",
      currency: "USD",
      amount_cents: 1,
    });
    expect([more.status, more.body.error.code]).toEqual([409, "sale_not_pending"]);
  });

  test("cancelling gives back what was paid, each tender in its currency, and cancels the pending wallet payment", async () => {
    const api = world.testWorld;
    const { rateId, shiftId, product } = await openShop(api);
    const sale = await sellSplit(
      api,
      product,
      2,
      [cashTender("ZWG", 5_300), walletTender("USD", 300), walletTender("USD", 500)],
      { exchange_rate_id: rateId },
    );
    expect(sale.body).toMatchObject({ status: "pending", paid_cents: 200, due_cents: 1_800 });
    await pay(sale.body.tenders[1].payment_id);
    expect((await api.get(`/v1/sales/${sale.body.id}`)).body).toMatchObject({ status: "pending", paid_cents: 500 });

    const cancelled = await api.post(`/v1/sales/${sale.body.id}/cancel`, {});
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: "cancelled", cancelled_at: expect.any(String) });
    expect(cancelled.body.tenders.map((tender: { status: string }) => tender.status)).toEqual([
      "paid",
      "paid",
      "failed",
    ]);
    const pending = (await api.get(`/v1/payments/${sale.body.tenders[2].payment_id}`)).body;
    expect(pending.status).toBe("cancelled");
    // The ZWG cash back in ZWG, the paid wallet tender back in USD cash; nothing moved from stock.
    expect(await drawerOf(api, shiftId)).toEqual({ USD: -300, ZWG: 0 });
    expect((await movesOf(world.db, product.id)).filter((move) => move.sale_id === sale.body.id)).toEqual([]);
    expect(await world.balanceOf(api)).toEqual({ USD: 300 - 5, ZWG: 0 });
    // Again: idempotent.
    const again = await api.post(`/v1/sales/${sale.body.id}/cancel`, {});
    expect([again.status, again.body.status]).toEqual([200, "cancelled"]);
    expect(await drawerOf(api, shiftId)).toEqual({ USD: -300, ZWG: 0 });
  });

  test("bad tenders are 400s and 409s with their codes, never a 500, writing nothing", async () => {
    const api = world.testWorld;
    const { product } = await openShop(api);
    const items = [{ product_id: product.id, qty: 1 }];
    const usd = (amount: number, kind = "cash") => ({ kind, currency: "USD", amount_cents: amount });
    const zwg = (amount: number, kind = "cash") => ({ kind, currency: "ZWG", amount_cents: amount });
    const cases: [object, number, string][] = [
      [{ items, tender: "cash", tenders: [usd(1_000)] }, 400, "parameter_invalid"],
      [{ items, tendered_cents: 1_000, tenders: [usd(1_000)] }, 400, "parameter_invalid"],
      [{ items }, 400, "parameter_missing"],
      [{ items, tenders: [usd(500), usd(600, "wallet")] }, 400, "parameter_invalid"],
      [{ items, tenders: [usd(400)] }, 400, "tender_short"],
      [{ items, tenders: [usd(1_000), usd(5)] }, 400, "parameter_invalid"],
      [{ items, tenders: [zwg(30_000)] }, 400, "parameter_missing"],
      [{ items, tenders: [zwg(30_000)], exchange_rate_id: "xr_nope" }, 400, "parameter_invalid"],
      [{ items, tenders: [usd(1_000)], change_currency: "ZWG" }, 400, "parameter_missing"],
      [{ items, tenders: [usd(0)] }, 400, "invalid_amount"],
      [{ items, tenders: [] }, 400, "parameter_invalid"],
      [{ items, tenders: [usd(1), usd(1), usd(1), usd(1), usd(1_000)] }, 400, "parameter_invalid"],
      [{ items, tenders: [{ kind: "cheque", currency: "USD", amount_cents: 1_000 }] }, 400, "parameter_invalid"],
      [{ items, tenders: [zwg(30_000)], till_id: "till-closed" }, 409, "shift_not_open"],
    ];
    for (const [body, status, code] of cases) {
      const response = await api.post("/v1/sales", body);
      expect([JSON.stringify(body), response.status, response.body.error?.code]).toEqual([
        JSON.stringify(body),
        status,
        code,
      ]);
    }
    const short = await api.post("/v1/sales", { items, tenders: [usd(400)] });
    expect(short.body.error.message).toContain("USD 6.00 (ZWG 159.00) is still due");
    expect(await world.saleCount(world.shop.id)).toBe(0);
    const cash = await api.post("/v1/sales", { items, tender: "cash" });
    const onCash = await api.post(`/v1/sales/${cash.body.id}/tenders`, usd(10));
    expect([onCash.status, onCash.body.error.code]).toEqual([409, "sale_not_pending"]);
    const missing = await api.post("/v1/sales/sale_nope/tenders", usd(10));
    expect(missing.status).toBe(404);
  });

  test("no rate for the pair at all is 409 exchange_rate_missing", async () => {
    const product = await createProduct(world.live, { name: "Salt", price_cents: 100 });
    const response = await world.testWorld.post("/v1/sales", {
      items: [{ product_id: product.id, qty: 1 }],
      tenders: [{ kind: "cash", currency: "ZWG", amount_cents: 5_000 }],
      exchange_rate_id: "xr_any",
    });
    expect([response.status, response.body.error.code]).toEqual([409, "exchange_rate_missing"]);
  });

  test("a replayed request answers the same sale, written once; so does a till's client_sale_id", async () => {
    const api = world.testWorld;
    const { rateId, shiftId, product } = await openShop(api);
    const body = {
      items: [{ product_id: product.id, qty: 1 }],
      till_id: TILL,
      client_sale_id: randomUUID(),
      taken_at: new Date(Date.now() - 60_000).toISOString(),
      tenders: [{ kind: "cash", currency: "ZWG", amount_cents: 27_000 }],
      exchange_rate_id: rateId,
    };
    const key = randomUUID();
    const first = await api.post("/v1/sales", body, key);
    const replay = await api.post("/v1/sales", body, key);
    const byClientId = await api.post("/v1/sales", body);
    expect(first.status).toBe(201);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(byClientId.body.id).toBe(first.body.id);
    expect(byClientId.headers["idempotent-replayed"]).toBe("true");
    expect(first.body.completed_at).toBe(body.taken_at);
    expect(await world.saleCount(world.shop.id)).toBe(1);
    expect(await tenderCount(first.body.id)).toBe(1);
    // ZWG 270.00 for USD 10.00 (ZWG 265.00): ZWG 5.00 change in USD is floor(500 / 26.5) = 18 cents.
    expect(await drawerOf(api, shiftId)).toEqual({ USD: -18, ZWG: 27_000 });
  });
});
