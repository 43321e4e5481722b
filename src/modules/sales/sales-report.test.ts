import request from "supertest";
import { z } from "zod";
import { TEST_ADMIN_TOKEN } from "../../../tests/support/app.ts";
import { newMerchant } from "../../../tests/support/factories.ts";
import { type Client, client, createProduct } from "../../../tests/support/pos.ts";
import { salesTestWorld } from "../../../tests/support/sales.ts";
import { sql } from "../../platform/db/pool.ts";

const world = salesTestWorld();

const itemRow = z.object({
  product_id: z.string().nullable(),
  name: z.string(),
  qty: z.number(),
  line_total_cents: z.number(),
});
const saleRow = z.object({
  tender: z.string(),
  currency: z.string(),
  total_cents: z.number(),
  items: z.array(itemRow),
});

/** The completed sales of a world, read straight from the table, to recompute the report independently. */
async function completedSales(merchantId: string, livemode: boolean) {
  return world.db.database.any(sql.type(saleRow)`
    SELECT tender, currency, total_cents, items FROM sales
    WHERE merchant_id = ${merchantId} AND livemode = ${livemode} AND status = 'completed'`);
}

/** Midnight of today in `timeZone`, as an instant, computed with Intl (not the code under test). */
function startOfToday(timeZone: string, offset: string): string {
  const date = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(
    new Date(),
  );
  return new Date(`${date}T00:00:00${offset}`).toISOString();
}

describe("GET /v1/sales/report", () => {
  test("totals, takings by tender and best sellers equal the sums computed from the sale rows", async () => {
    const cola = await createProduct(world.live, { name: "Cola", price_cents: 150, stock_qty: 100 });
    const bread = await createProduct(world.live, { name: "Bread", price_cents: 90, stock_qty: 100 });
    const meal = await createProduct(world.live, {
      name: "Maize meal",
      price_cents: 4500,
      currency: "ZWG",
      stock_qty: 100,
    });
    const sell = (api: Client, body: Record<string, unknown>) => api.post("/v1/sales", body);
    await sell(world.testWorld, { tender: "cash", items: [{ product_id: cola.id, qty: 3 }] });
    await sell(world.testWorld, {
      tender: "cash",
      items: [
        { product_id: bread.id, qty: 2 },
        { name: "Bag", qty: 1, unit_cents: 10 },
      ],
    });
    await sell(world.testWorld, { tender: "cash", items: [{ product_id: meal.id, qty: 2 }] });
    const walletPaid = (await sell(world.testWorld, { tender: "wallet", items: [{ product_id: cola.id, qty: 10 }] }))
      .body;
    await request(world.setup.app).post(`/checkout/${walletPaid.payment_id}/mockpay`).send({});
    const walletZwg = (await sell(world.testWorld, { tender: "wallet", items: [{ product_id: meal.id, qty: 1 }] }))
      .body;
    await request(world.setup.app).post(`/checkout/${walletZwg.payment_id}/mockpay`).send({});
    // Not counted: a pending sale, a cancelled one, the live world's and another merchant's sales.
    await sell(world.testWorld, { tender: "wallet", items: [{ product_id: bread.id, qty: 50 }] });
    const cancelled = (await sell(world.testWorld, { tender: "wallet", items: [{ product_id: bread.id, qty: 40 }] }))
      .body;
    await request(world.setup.app).post(`/checkout/${cancelled.payment_id}/mockpay`).send({ outcome: "expired" });
    await sell(world.live, { tender: "cash", items: [{ product_id: bread.id, qty: 30 }] });
    const other = await newMerchant(world.db.database);
    const otherApi = client(world.setup.app, other.testKey);
    const theirs = await createProduct(otherApi, { name: "Theirs", price_cents: 99_999 });
    await sell(otherApi, { tender: "cash", items: [{ product_id: theirs.id, qty: 1 }] });

    const report = (await world.testWorld.get("/v1/sales/report")).body;
    expect(report).toMatchObject({ object: "sales_report", livemode: false, timezone: "Africa/Harare" });

    const rows = await completedSales(world.shop.id, false);
    expect(rows).toHaveLength(5);
    const sum = (selected: typeof rows) => selected.reduce((total, row) => total + row.total_cents, 0);
    const perCurrency = (selected: typeof rows) =>
      ["USD", "ZWG"].map((currency) => {
        const inCurrency = selected.filter((row) => row.currency === currency);
        return { currency, count: inCurrency.length, total_cents: sum(inCurrency) };
      });
    expect(report.totals).toEqual({ count: rows.length, by_currency: perCurrency(rows) });
    expect(report.by_tender).toEqual(
      ["cash", "wallet", "split"].map((tender) => {
        const ofTender = rows.filter((row) => row.tender === tender);
        return { tender, count: ofTender.length, by_currency: perCurrency(ofTender) };
      }),
    );
    expect(report.totals.by_currency).toEqual([
      { currency: "USD", count: 3, total_cents: 450 + 190 + 1500 },
      { currency: "ZWG", count: 2, total_cents: 9000 + 4500 },
    ]);

    const lines = new Map<
      string,
      { product_id: string | null; name: string; currency: string; units: number; revenue_cents: number }
    >();
    for (const row of rows) {
      for (const item of row.items) {
        const key = `${row.currency}:${item.product_id ?? `adhoc:${item.name}`}`;
        const entry = lines.get(key) ?? {
          product_id: item.product_id,
          name: item.name,
          currency: row.currency,
          units: 0,
          revenue_cents: 0,
        };
        entry.units += item.qty;
        entry.revenue_cents += item.line_total_cents;
        lines.set(key, entry);
      }
    }
    const expectedTop = [...lines.values()].sort((left, right) =>
      left.currency === right.currency
        ? right.revenue_cents - left.revenue_cents
        : left.currency < right.currency
          ? -1
          : 1,
    );
    expect(report.top_products).toEqual(expectedTop);
    expect(report.top_products[0]).toEqual({
      product_id: cola.id,
      name: "Cola",
      currency: "USD",
      units: 13,
      revenue_cents: 1950,
    });
    // `top` limits the best sellers per currency.
    const topOne = (await world.testWorld.get("/v1/sales/report", { top: 1 })).body.top_products;
    expect(topOne.map((item: { product_id: string }) => item.product_id)).toEqual([cola.id, meal.id]);

    // The live report holds only the live cash sale.
    expect((await world.live.get("/v1/sales/report")).body.by_tender[0]).toEqual({
      tender: "cash",
      count: 1,
      by_currency: [
        { currency: "USD", count: 1, total_cents: 2700 },
        { currency: "ZWG", count: 0, total_cents: 0 },
      ],
    });
  });

  test("an explicit period counts only sales completed inside it, by completion time; best sellers carry the catalog's name", async () => {
    const product = await createProduct(world.live, { name: "Old name", price_cents: 100 });
    await world.live.post("/v1/sales", { tender: "cash", items: [{ product_id: product.id, qty: 1 }] });
    const between = new Date();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await world.live.patch(`/v1/products/${product.id}`, { name: "New name", price_cents: 200 });
    await world.live.post("/v1/sales", { tender: "cash", items: [{ product_id: product.id, qty: 2 }] });
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    const earlier = (await world.live.get("/v1/sales/report", { from: hourAgo, to: between.toISOString() })).body;
    expect(earlier.totals.count).toBe(1);
    // The line kept its snapshot (Old name, 100); the report names the product as the catalog does now.
    expect(earlier.top_products).toEqual([
      { product_id: product.id, name: "New name", currency: "USD", units: 1, revenue_cents: 100 },
    ]);
    const later = (await world.live.get("/v1/sales/report", { from: between.toISOString() })).body;
    expect(later.totals.by_currency[0]).toEqual({ currency: "USD", count: 1, total_cents: 400 });
    const all = (await world.live.get("/v1/sales/report", { from: "2000-01-01", to: "2100-01-01" })).status;
    expect(all).toBe(400); // longer than 366 days
    const both = (await world.live.get("/v1/sales/report", { from: hourAgo })).body;
    expect(both.top_products).toEqual([
      { product_id: product.id, name: "New name", currency: "USD", units: 3, revenue_cents: 500 },
    ]);
    const backwards = await world.live.get("/v1/sales/report", { from: between.toISOString(), to: hourAgo });
    expect(backwards.status).toBe(400);
    expect(backwards.body.error.code).toBe("parameter_invalid");
    expect((await world.live.get("/v1/sales/report", { from: "yesterday" })).body.error.code).toBe("parameter_invalid");
  });

  test("the default period is today in the merchant's time zone (Africa/Harare by default, settable at creation)", async () => {
    const harare = (await world.live.get("/v1/sales/report")).body;
    expect(harare.from).toBe(startOfToday("Africa/Harare", "+02:00"));
    expect(Date.parse(harare.to) - Date.parse(harare.from)).toBe(86_400_000);
    expect((await world.live.get("/v1/me")).body.timezone).toBe("Africa/Harare");

    const created = await request(world.setup.app)
      .post("/admin/v1/merchants")
      .set("Authorization", `Bearer ${TEST_ADMIN_TOKEN}`)
      .send({
        name: "Island shop",
        email: `island-${Date.now()}@example.com`,
        password: "long enough pw",
        timezone: "Pacific/Kiritimati",
      });
    expect(created.status).toBe(201);
    expect(created.body.timezone).toBe("Pacific/Kiritimati");
    const island = client(world.setup.app, created.body.live_secret_key);
    expect((await island.get("/v1/me")).body.timezone).toBe("Pacific/Kiritimati");
    const product = await createProduct(island, { name: "Coconut", price_cents: 100 });
    await island.post("/v1/sales", { tender: "cash", items: [{ product_id: product.id, qty: 1 }] });
    const report = (await island.get("/v1/sales/report")).body;
    expect(report.timezone).toBe("Pacific/Kiritimati");
    expect(report.from).toBe(startOfToday("Pacific/Kiritimati", "+14:00"));
    expect(report.totals.count).toBe(1);

    const refused = await request(world.setup.app)
      .post("/admin/v1/merchants")
      .set("Authorization", `Bearer ${TEST_ADMIN_TOKEN}`)
      .send({
        name: "Nowhere",
        email: `nowhere-${Date.now()}@example.com`,
        password: "long enough pw",
        timezone: "Mars/Olympus",
      });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe("parameter_invalid");
  });
});
