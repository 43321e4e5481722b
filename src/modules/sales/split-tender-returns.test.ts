import { salesTestWorld } from "../../../tests/support/sales.ts";
import { cashTender, SPLIT_TILL, sellSplit, tenderHelpers, walletTender } from "../../../tests/support/tenders.ts";

/**
 * Split sales' returns and reports (docs/shop.md, "Split and two-currency tender"): refunds spread over
 * the tenders, each in its currency, exact for a full return however it is split; the tender report
 * per kind and currency; the wallet's money in the balance once.
 */

const world = salesTestWorld();
const { openShop, drawerOf, pay } = tenderHelpers(world);
const TILL = SPLIT_TILL;

describe("returns of split sales", () => {
  test("a full return gives back exactly what each tender paid, in its currency, from the drawer", async () => {
    const api = world.testWorld;
    const { rateId, shiftId, product } = await openShop(api);
    const sale = await sellSplit(api, product, 3, [cashTender("USD", 1_000), cashTender("ZWG", 55_000)], {
      exchange_rate_id: rateId,
    });
    // ZWG 550.00 counts for 2075 cents: 75 cents of change in USD; it contributed 2000.
    expect(sale.body).toMatchObject({ status: "completed", change: { currency: "USD", amount_cents: 75 } });
    const returned = await api.post(`/v1/sales/${sale.body.id}/returns`, {
      till_id: TILL,
      items: [{ line: 0, qty: 3 }],
    });
    expect(returned.status).toBe(201);
    // The ZWG tender's net: 2000 / 2075 of ZWG 550.00, rounded half up = 53012 ZWG cents.
    expect(returned.body.sale_return.refunds).toEqual([
      { currency: "ZWG", amount_cents: 53_012, tender_index: 1 },
      { currency: "USD", amount_cents: 1_000, tender_index: 0 },
    ]);
    expect(await drawerOf(api, shiftId)).toEqual({ USD: 1_000 - 75 - 1_000, ZWG: 55_000 - 53_012 });
  });

  test("partial returns that add up to the whole sale give back exactly what a full return would", async () => {
    const api = world.testWorld;
    const { rateId, product } = await openShop(api);
    const sale = await sellSplit(api, product, 3, [cashTender("USD", 1_000), cashTender("ZWG", 55_000)], {
      exchange_rate_id: rateId,
    });
    const refunds: { currency: string; amount_cents: number; tender_index: number }[] = [];
    for (let unit = 0; unit < 3; unit += 1) {
      const returned = await api.post(`/v1/sales/${sale.body.id}/returns`, {
        till_id: TILL,
        items: [{ line: 0, qty: 1 }],
      });
      expect(returned.status).toBe(201);
      refunds.push(...returned.body.sale_return.refunds);
    }
    const total = (currency: string) =>
      refunds.filter((refund) => refund.currency === currency).reduce((sum, refund) => sum + refund.amount_cents, 0);
    expect({ USD: total("USD"), ZWG: total("ZWG") }).toEqual({ USD: 1_000, ZWG: 53_012 });
  });

  test("a split sale with a wallet tender: the wallet's share is paid back in cash in its currency", async () => {
    const api = world.testWorld;
    const { shiftId, product } = await openShop(api);
    const sale = await sellSplit(api, product, 1, [cashTender("USD", 300), walletTender("USD", 700)]);
    await pay(sale.body.tenders[1].payment_id);
    expect((await api.get(`/v1/sales/${sale.body.id}`)).body.status).toBe("completed");
    const returned = await api.post(`/v1/sales/${sale.body.id}/returns`, {
      till_id: TILL,
      items: [{ line: 0, qty: 1 }],
    });
    expect(returned.body.sale_return.refunds).toEqual([
      { currency: "USD", amount_cents: 700, tender_index: 1 },
      { currency: "USD", amount_cents: 300, tender_index: 0 },
    ]);
    expect(await drawerOf(api, shiftId)).toEqual({ USD: 300 - 1_000, ZWG: 0 });
  });
});

describe("reports of split sales", () => {
  test("by tender: each kind and currency in its own money, cash net of change; the sales report in the basket's currency", async () => {
    const api = world.testWorld;
    const { rateId, product } = await openShop(api);
    const cashAndCash = await sellSplit(api, product, 1, [cashTender("USD", 500), cashTender("ZWG", 15_000)], {
      exchange_rate_id: rateId,
      change_currency: "USD",
    });
    expect(cashAndCash.body.change).toEqual({ currency: "USD", amount_cents: 66 });
    const split = await sellSplit(api, product, 2, [cashTender("ZWG", 26_500), walletTender("USD", 1_000)], {
      exchange_rate_id: rateId,
    });
    await pay(split.body.tenders[1].payment_id);
    await api.post("/v1/sales", { items: [{ product_id: product.id, qty: 1 }], tender: "cash" });
    const returned = await api.post(`/v1/sales/${split.body.id}/returns`, {
      till_id: TILL,
      items: [{ line: 0, qty: 1 }],
    });
    // Half of USD 20.00 back: the wallet tender (last) first, in cash, in USD.
    expect(returned.body.sale_return.refunds).toEqual([{ currency: "USD", amount_cents: 1_000, tender_index: 1 }]);

    const byTender = (await api.get("/v1/sales/reports/tender")).body;
    const rowOf = (key: string, currency: string) =>
      byTender.rows.find((row: { key: string; currency: string }) => row.key === key && row.currency === currency);
    expect(rowOf("cash", "USD")).toMatchObject({ count: 2, gross_cents: 500 - 66 + 1_000, refund_cents: 1_000 });
    expect(rowOf("cash", "ZWG")).toMatchObject({ count: 2, gross_cents: 15_000 + 26_500, refund_cents: 0 });
    expect(rowOf("wallet", "USD")).toMatchObject({ count: 1, gross_cents: 1_000, refund_cents: 0, net_cents: 1_000 });
    // The wallet row is what reached the balance (before the fee, which the ledger shows beside it).
    expect(await world.balanceOf(api)).toEqual({ USD: 1_000 - 15, ZWG: 0 });

    const report = (await api.get("/v1/sales/report")).body;
    expect(report.totals.by_currency).toEqual([
      { currency: "USD", count: 3, total_cents: 1_000 + 2_000 + 1_000 },
      { currency: "ZWG", count: 0, total_cents: 0 },
    ]);
    expect(report.by_tender.map((tender: { tender: string; count: number }) => [tender.tender, tender.count])).toEqual([
      ["cash", 1],
      ["wallet", 0],
      ["split", 2],
    ]);
    expect(report.net.by_currency[0]).toMatchObject({ currency: "USD", gross_cents: 4_000, refund_cents: 1_000 });
  });
});
