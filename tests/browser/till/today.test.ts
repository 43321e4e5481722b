/// <reference lib="dom" />
import { type Currency, formatMoney } from "../../../src/kernel/money.ts";
import { addProduct, externalRequests, startTillWorld, TillPage, type TillWorld } from "../../support/till.ts";
import { readUntil } from "../../support/time.ts";

let world: TillWorld;

type Amounts = { currency: Currency; count: number; total_cents: number };
type Report = {
  totals: { by_currency: Amounts[] };
  by_tender: { tender: string; by_currency: Amounts[] }[];
  top_products: { name: string; revenue_cents: number; currency: Currency }[];
};

beforeAll(async () => {
  world = await startTillWorld();
  const cola = await addProduct(world, { name: "Cola 330ml", price_cents: 150 });
  const sugar = await addProduct(world, { name: "Sugar 1kg", price_cents: 2500, currency: "ZWG" });
  const sell = (items: unknown[], currency: string) =>
    world.api("test")("POST", "/v1/sales", { tender: "cash", currency, items });
  await sell([{ product_id: cola.id, qty: 3 }], "USD");
  await sell([{ product_id: cola.id, qty: 1 }], "USD");
  await sell([{ product_id: sugar.id, qty: 2 }], "ZWG");
  // A live sale must not show in TEST's takings.
  await world.api("live")("POST", "/v1/sales", { tender: "cash", items: [{ product_id: cola.id, qty: 9 }] });
});
afterAll(() => world?.close());

test("Today's takings by tender and currency, best sellers and recent sales equal the API's report", async () => {
  const till = await TillPage.open(world);
  const { page } = till;
  try {
    await till.signIn(world.shop.email);
    await page.getByRole("link", { name: "Today" }).click();
    await page.getByRole("heading", { name: "Today" }).waitFor();
    const report = (await world.api("test")<Report>("GET", "/v1/sales/report")).body;
    for (const amounts of report.totals.by_currency) {
      const shown = page.getByTestId(`takings-${amounts.currency}`);
      await shown.filter({ hasText: formatMoney(amounts.currency, amounts.total_cents) }).waitFor();
    }
    expect(report.totals.by_currency.find((amounts) => amounts.currency === "USD")?.total_cents).toBe(600);
    const cashUsd = report.by_tender
      .find((row) => row.tender === "cash")
      ?.by_currency.find((a) => a.currency === "USD");
    const tenderRow = page.getByRole("row", { name: /cash USD 2 USD 6\.00/ });
    await tenderRow.waitFor();
    expect(cashUsd).toMatchObject({ count: 2, total_cents: 600 });
    await page.getByRole("row", { name: /Sugar 1kg 2 ZWG 50\.00/ }).waitFor();

    // The recent sales are a request of their own, beside the report the waits above saw.
    const recent = page.getByRole("button", { name: /^Lines of the sale/ });
    expect(await readUntil(() => recent.count(), 3)).toBe(3);
    await recent.first().click();
    const detail = page.getByRole("dialog", { name: "Sale" });
    await detail.getByRole("row", { name: /Sugar 1kg 2 ZWG 25\.00 ZWG 50\.00/ }).waitFor();
    expect(await till.app.accessibilityViolations()).toEqual([]);
    expect(till.app.consoleErrors).toEqual([]);
    expect(externalRequests(till, world.platform.baseUrl)).toEqual([]);
  } finally {
    await till.close();
  }
});
