import request from "supertest";
import { createProduct } from "../../../tests/support/pos.ts";
import { salesTestWorld } from "../../../tests/support/sales.ts";
import type { BreakdownRow as Row } from "./breakdown-schemas.ts";

/** Issue 47 point 2: the sales breakdowns by day, item, category and tender, across a day boundary, as JSON and CSV. */
const world = salesTestWorld();

const figures = (count: number, gross: number, refund = 0) => ({
  count,
  gross_cents: gross,
  discount_cents: 0,
  refund_cents: refund,
  tax_cents: 0,
  net_cents: gross - refund,
});

/** A Harare date (UTC+2, no daylight saving) `daysAgo` days before today, as YYYY-MM-DD. */
function harareDate(daysAgo: number): string {
  const harareNow = new Date(Date.now() + 2 * 3_600_000 - daysAgo * 86_400_000);
  return harareNow.toISOString().slice(0, 10);
}

/**
 * Three days ago at 23:30 and the next day at 00:30 and 01:00 in Harare (cash, two currencies, taken
 * offline), a wallet sale paid now, and a return now of one unit of the first sale.
 */
async function aWeekOfSales() {
  const cola = await createProduct(world.testWorld, {
    name: "Cola",
    price_cents: 150,
    category: "Drinks",
    stock_qty: 100,
  });
  const bread = await createProduct(world.testWorld, { name: "Bread", price_cents: 90, stock_qty: 100 });
  const meal = await createProduct(world.testWorld, {
    name: "Maize meal",
    price_cents: 4500,
    currency: "ZWG",
    category: "Food",
  });
  const day = harareDate(3);
  const nextDay = harareDate(2);
  const sell = async (body: Record<string, unknown>) => (await world.testWorld.post("/v1/sales", body)).body;
  const late = await sell({
    tender: "cash",
    taken_at: `${day}T23:30:00+02:00`,
    items: [{ product_id: cola.id, qty: 2 }],
  });
  await sell({ tender: "cash", taken_at: `${nextDay}T00:30:00+02:00`, items: [{ product_id: bread.id, qty: 1 }] });
  await sell({ tender: "cash", taken_at: `${nextDay}T01:00:00+02:00`, items: [{ product_id: meal.id, qty: 1 }] });
  const wallet = await sell({ tender: "wallet", items: [{ product_id: cola.id, qty: 1 }] });
  await request(world.setup.app).post(`/checkout/${wallet.payment_id}/mockpay`).send({});
  const returned = await world.testWorld.post(`/v1/sales/${late.id}/returns`, { items: [{ line: 0, qty: 1 }] });
  expect(returned.status).toBe(201);
  return { cola, bread, meal, day, nextDay };
}

describe("GET /v1/sales/reports/:dimension", () => {
  test("by day: each sale on its day in the merchant's time zone, a refund on the day it was paid, dates as that zone's midnights", async () => {
    const { day, nextDay } = await aWeekOfSales();
    const past = (await world.testWorld.get("/v1/sales/reports/day", { from: day, to: harareDate(1) })).body;
    expect(past).toMatchObject({
      object: "sales_breakdown",
      dimension: "day",
      timezone: "Africa/Harare",
      from: new Date(`${day}T00:00:00+02:00`).toISOString(),
      to: new Date(`${harareDate(1)}T00:00:00+02:00`).toISOString(),
    });
    expect(past.rows).toEqual([
      { key: day, label: day, currency: "USD", ...figures(1, 300) },
      { key: nextDay, label: nextDay, currency: "USD", ...figures(1, 90) },
      { key: nextDay, label: nextDay, currency: "ZWG", ...figures(1, 4500) },
    ]);
    expect(past.totals).toEqual([
      { currency: "USD", ...figures(2, 390) },
      { currency: "ZWG", ...figures(1, 4500) },
    ]);
    // Today (the default): the wallet sale, and the refund of the late sale paid today.
    const today = (await world.testWorld.get("/v1/sales/reports/day")).body;
    expect(today.rows).toEqual([
      { key: harareDate(0), label: harareDate(0), currency: "USD", ...figures(1, 150, 150) },
    ]);
    // Today at the till and Home in the dashboard read the same figures from the sales report.
    expect((await world.testWorld.get("/v1/sales/report")).body.net.by_currency).toEqual(today.totals);
    const usdOnly = (
      await world.testWorld.get("/v1/sales/reports/day", { from: day, to: harareDate(1), currency: "ZWG" })
    ).body;
    expect(usdOnly.rows.map((row: Row) => row.currency)).toEqual(["ZWG"]);
    expect(usdOnly.totals).toEqual([{ currency: "ZWG", ...figures(1, 4500) }]);
  });

  test("by item and by category: units and line totals, returned lines as refunds, named as the catalog names them now", async () => {
    const { cola, bread, meal, day } = await aWeekOfSales();
    await world.testWorld.patch(`/v1/products/${cola.id}`, { name: "Cola 500 ml" });
    const query = { from: day, to: harareDate(-1) };
    const items = (await world.testWorld.get("/v1/sales/reports/item", query)).body;
    expect(items.rows).toEqual([
      { key: bread.id, label: "Bread", currency: "USD", ...figures(1, 90) },
      { key: cola.id, label: "Cola 500 ml", currency: "USD", ...figures(3, 450, 150) },
      { key: meal.id, label: "Maize meal", currency: "ZWG", ...figures(1, 4500) },
    ]);
    const categories = (await world.testWorld.get("/v1/sales/reports/category", query)).body;
    expect(categories.rows).toEqual([
      { key: "Drinks", label: "Drinks", currency: "USD", ...figures(3, 450, 150) },
      { key: "Food", label: "Food", currency: "ZWG", ...figures(1, 4500) },
      { key: null, label: "No category", currency: "USD", ...figures(1, 90) },
    ]);
  });

  test("by tender: a wallet sale's refund is paid in cash, so the wallet row is what reached the balance", async () => {
    const { day } = await aWeekOfSales();
    const tenders = (await world.testWorld.get("/v1/sales/reports/tender", { from: day, to: harareDate(-1) })).body;
    expect(tenders.rows).toEqual([
      { key: "cash", label: "cash", currency: "USD", ...figures(2, 390, 150) },
      { key: "cash", label: "cash", currency: "ZWG", ...figures(1, 4500) },
      { key: "wallet", label: "wallet", currency: "USD", ...figures(1, 150) },
    ]);
  });

  test("as CSV: the same rows and a total per currency, in major units and cents", async () => {
    const { day } = await aWeekOfSales();
    const answer = await request(world.setup.app)
      .get(`/v1/sales/reports/tender.csv?from=${day}&to=${harareDate(-1)}`)
      .set("Authorization", `Bearer ${world.shop.testKey}`)
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => done(null, Buffer.concat(chunks)));
      });
    expect(answer.status).toBe(200);
    expect(answer.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(answer.headers["content-disposition"]).toMatch(/^attachment; filename="sales-tender-.*\.csv"$/);
    expect((answer.body as Buffer).toString("utf8")).toBe(
      [
        "\uFEFFdimension,key,label,currency,count,gross,discounts,refunds,tax,net,gross_cents,discount_cents,refund_cents,tax_cents,net_cents",
        "tender,cash,cash,USD,2,3.90,0.00,1.50,0.00,2.40,390,0,150,0,240",
        "tender,cash,cash,ZWG,1,45.00,0.00,0.00,0.00,45.00,4500,0,0,0,4500",
        "tender,wallet,wallet,USD,1,1.50,0.00,0.00,0.00,1.50,150,0,0,0,150",
        "tender,,Total,USD,3,5.40,0.00,1.50,0.00,3.90,540,0,150,0,390",
        "tender,,Total,ZWG,1,45.00,0.00,0.00,0.00,45.00,4500,0,0,0,4500",
        "",
      ].join("\r\n"),
    );
  });

  test("refused: an unknown dimension, a backwards or too long period, a bad date", async () => {
    const refused = async (path: string, query: Record<string, string> = {}) => {
      const answer = await world.testWorld.get(path, query);
      expect(answer.status).toBe(400);
      return answer.body.error.code;
    };
    expect(await refused("/v1/sales/reports/week")).toBe("parameter_invalid");
    expect(await refused("/v1/sales/reports/day", { from: "2026-02-01", to: "2026-01-01" })).toBe("parameter_invalid");
    expect(await refused("/v1/sales/reports/day", { from: "2020-01-01", to: "2026-01-01" })).toBe("parameter_invalid");
    expect(await refused("/v1/sales/reports/item", { from: "yesterday" })).toBe("parameter_invalid");
  });
});
