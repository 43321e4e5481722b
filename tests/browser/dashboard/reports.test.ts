/// <reference lib="dom" />
import { readFile } from "node:fs/promises";
import { formatMoney } from "../../../src/kernel/money.ts";
import type { SalesBreakdown } from "../../../web/lib/api/sales-reports.ts";
import { servedBrowserWorld } from "../../support/browser-world.ts";
import { expectCleanSession, openDashboardPage, signInToDashboard } from "../../support/dashboard-page.ts";
import { newMerchant } from "../../support/factories.ts";
import { ok, SHOP_DAY_CASHIER, SHOP_DAY_TILL, shopDay } from "../../support/shop-http.ts";
import { openAppPage } from "../../support/web-app.ts";

const world = servedBrowserWorld();

type Figures = SalesBreakdown["totals"][number];
type Breakdown = SalesBreakdown;

const shownRow = (row: Figures & { label?: string }) => [
  ...(row.label === undefined ? [] : [row.label]),
  row.currency,
  String(row.count),
  ...[row.gross_cents, row.discount_cents, row.refund_cents, row.net_cents, row.tax_cents].map((cents) =>
    formatMoney(row.currency, cents),
  ),
];

test("Reports: today's sales by cashier and by till as the API reports them, a chart, the CSV the API makes; Home shows today's net", async () => {
  const shop = await newMerchant(world.db.database);
  const day = await shopDay(world.platform.baseUrl, shop.email);
  const app = await openAppPage(world.browser);
  const { page } = app;
  try {
    await signInToDashboard(app, world.platform.baseUrl, shop.email);
    // Home: today's net sales, cash included, refunds taken off, as the sales report gives them.
    const report = await ok<{ net: { by_currency: Figures[] } }>(day.owner.call("GET", "/v1/sales/report"));
    for (const figures of report.net.by_currency) {
      await page
        .locator(`[data-figure="net-net-${figures.currency}"]`)
        .filter({ hasText: formatMoney(figures.currency, figures.net_cents) })
        .waitFor();
    }
    expect(report.net.by_currency.map((figures) => figures.net_cents)).toEqual([1_449 - 625, 3_000]);

    await openDashboardPage(app, "Reports");
    const table = page.getByRole("table", { name: /^Sales by day/ });
    await table.locator("tbody tr").first().waitFor();
    const cellsOf = (name: string | RegExp) =>
      page
        .getByRole("table", { name })
        .locator("tbody tr")
        .evaluateAll((rows) => rows.map((row) => Array.from(row.children, (cell) => cell.textContent ?? "")));
    for (const [tab, dimension, name] of [
      ["By cashier", "cashier", SHOP_DAY_CASHIER],
      ["By till", "till", SHOP_DAY_TILL],
    ] as const) {
      await page.getByRole("button", { name: tab }).click();
      const caption = new RegExp(`^Sales ${tab.toLowerCase()}`);
      await page.getByRole("table", { name: caption }).getByRole("cell", { name }).first().waitFor();
      const api = await ok<Breakdown>(day.owner.call("GET", `/v1/sales/reports/${dimension}`));
      expect(await cellsOf(caption)).toEqual(api.rows.map(shownRow));
      expect(await cellsOf("Totals per currency")).toEqual(api.totals.map(shownRow));
    }
    await page.getByRole("img", { name: /^Net sales in USD/ }).waitFor();
    expect(await app.accessibilityViolations()).toEqual([]);

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^sales-till-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile((await download.path()) as string, "utf8");
    const lines = csv
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(lines[0]).toBe(
      "dimension,key,label,currency,count,gross,discounts,refunds,tax,net,gross_cents,discount_cents,refund_cents,tax_cents,net_cents",
    );
    expect(lines.slice(1, 3)).toEqual([
      `till,${day.tillId},${SHOP_DAY_TILL},USD,2,14.49,0.00,6.25,0.00,8.24,1449,0,625,0,824`,
      `till,${day.tillId},${SHOP_DAY_TILL},ZWG,1,30.00,0.00,0.00,0.00,30.00,3000,0,0,0,3000`,
    ]);
    expectCleanSession(app, world.platform.baseUrl);
  } finally {
    await app.close();
  }
});
