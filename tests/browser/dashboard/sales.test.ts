/// <reference lib="dom" />
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { formatMoney } from "../../../src/kernel/money.ts";
import { sql } from "../../../src/platform/db/pool.ts";
import { servedBrowserWorld } from "../../support/browser-world.ts";
import { expectCleanSession, openDashboardPage, signInToDashboard } from "../../support/dashboard-page.ts";
import { newMerchant } from "../../support/factories.ts";
import { createCashier, ok, SHOP_DAY_CASHIER, SHOP_DAY_TILL, shopDay } from "../../support/shop-http.ts";
import { openAppPage } from "../../support/web-app.ts";

const world = servedBrowserWorld();

test("Sales: who rang each sale up (a cashier by name, an integration's key), what was refunded; a sale's detail shows its returns", async () => {
  const shop = await newMerchant(world.db.database);
  const day = await shopDay(world.platform.baseUrl, shop.email);
  // An integration's sale with its own key, outside any drawer.
  const keySale = await fetch(`${world.platform.baseUrl}/v1/sales`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${shop.testKey}`,
      "idempotency-key": randomUUID(),
      "content-type": "application/json",
    },
    body: JSON.stringify({ tender: "cash", items: [{ name: "Web order", qty: 1, unit_cents: 4_000 }] }),
  });
  expect(keySale.status).toBe(201);
  // A second cashier switches in on the same till and sells outside the (closed) drawer.
  const tariro = await createCashier(day.owner, "Tariro Chikomo", "5150");
  await ok(day.till.call("POST", "/v1/session/cashier", { cashier_id: tariro.id, pin: "5150" }));
  await ok(
    day.till.call("POST", "/v1/sales", { tender: "cash", items: [{ name: "Airtime", qty: 1, unit_cents: 100 }] }),
  );
  const cashierNames = new Map([
    [day.cashierId, SHOP_DAY_CASHIER],
    [tariro.id, "Tariro Chikomo"],
  ]);
  const [returnedSaleId] = day.saleIds;
  const refund = await world.db.database.one(
    sql.type(
      z.object({
        refund_cents: z.number(),
        currency: z.enum(["USD", "ZWG"]),
        items: z.array(z.object({ line: z.number(), qty: z.number() })),
      }),
    )`
      SELECT refund_cents, currency, items FROM sale_returns WHERE sale_id = ${returnedSaleId}`,
  );
  const sales = await world.db.database.any(
    sql.type(
      z.object({
        id: z.string(),
        actor_id: z.string(),
        till_id: z.string().nullable(),
        total_cents: z.number(),
        currency: z.enum(["USD", "ZWG"]),
      }),
    )`
      SELECT id, actor_id, till_id, total_cents, currency FROM sales WHERE merchant_id = ${shop.id} ORDER BY created_at DESC, id DESC`,
  );
  expect(sales.map((sale) => cashierNames.get(sale.actor_id) ?? "API key")).toEqual([
    "Tariro Chikomo",
    "API key",
    SHOP_DAY_CASHIER,
    SHOP_DAY_CASHIER,
    SHOP_DAY_CASHIER,
  ]);
  const rowOf = (sale: (typeof sales)[number]) => [
    formatMoney(sale.currency, sale.total_cents),
    sale.till_id === day.tillId ? SHOP_DAY_TILL : "—",
    cashierNames.get(sale.actor_id) ?? "API key",
  ];

  const app = await openAppPage(world.browser);
  const { page } = app;
  try {
    await signInToDashboard(app, world.platform.baseUrl, shop.email);
    await openDashboardPage(app, "Sales");
    const rows = page.getByRole("table", { name: "Sales, page 1" }).locator("tbody tr");
    const shown = () =>
      rows.evaluateAll((found) => found.map((row) => Array.from(row.children, (cell) => cell.textContent ?? "")));
    await rows.nth(sales.length - 1).waitFor();
    // The cashiers' and the tills' names come with their own requests, beside the sales.
    await page.getByRole("cell", { name: SHOP_DAY_CASHIER }).first().waitFor();
    await page.getByRole("cell", { name: SHOP_DAY_TILL }).first().waitFor();
    const table = await shown();
    // Columns: taken, status, tender, total, refunded, till, cashier; newest first, as the database orders them.
    expect(table.map((cells) => [cells[3], cells[5], cells[6]])).toEqual(sales.map(rowOf));
    expect(table.map((cells) => cells[4])).toEqual(
      sales.map((sale) => (sale.id === returnedSaleId ? formatMoney(refund.currency, refund.refund_cents) : "—")),
    );
    expect(await app.accessibilityViolations()).toEqual([]);

    // By cashier (GET /v1/sales?cashier_id=): only the sales they rang up.
    // The filtered list has replaced the whole one when the table holds that many rows again.
    const tableOf = (count: number) =>
      page.waitForFunction((n) => document.querySelectorAll("main tbody tr").length === n, count);
    await page.getByLabel("Cashier").selectOption({ label: "Tariro Chikomo" });
    await tableOf(1);
    expect((await shown()).map((cells) => [cells[3], cells[5], cells[6]])).toEqual(
      sales.filter((sale) => sale.actor_id === tariro.id).map(rowOf),
    );
    const rudos = sales.filter((sale) => sale.actor_id === day.cashierId);
    await page.getByLabel("Cashier").selectOption({ label: SHOP_DAY_CASHIER });
    await tableOf(rudos.length);
    expect((await shown()).map((cells) => [cells[3], cells[5], cells[6]])).toEqual(rudos.map(rowOf));

    await rows
      .nth(rudos.findIndex((sale) => sale.id === returnedSaleId))
      .getByRole("link")
      .click();
    await page.getByRole("heading", { name: "Sale of USD 12.50", level: 1 }).waitFor();
    await page.getByText(SHOP_DAY_CASHIER, { exact: true }).waitFor();
    const lines = page.getByRole("table", { name: "Lines" }).locator("tbody tr");
    expect(await lines.first().evaluate((row) => Array.from(row.children, (cell) => cell.textContent))).toEqual([
      "Bread",
      "2",
      "USD 6.25",
      "USD 12.50",
      String(refund.items[0]?.qty),
    ]);
    await page
      .getByRole("heading", { name: `Return 1: ${formatMoney(refund.currency, refund.refund_cents)} refunded in cash` })
      .waitFor();
    await page.getByText(`by ${SHOP_DAY_CASHIER} at ${SHOP_DAY_TILL}: Stale`).waitFor();
    const returned = page.getByRole("table", { name: "Lines returned in return 1" }).locator("tbody tr");
    expect(await returned.first().evaluate((row) => Array.from(row.children, (cell) => cell.textContent))).toEqual([
      "Bread",
      "1",
      formatMoney(refund.currency, refund.refund_cents),
    ]);
    expect(await page.getByRole("link", { name: "return receipt" }).getAttribute("href")).toMatch(
      new RegExp(`^${world.platform.baseUrl}/receipts/[A-Za-z0-9_-]{32}$`),
    );
    expect(await app.accessibilityViolations()).toEqual([]);

    // Its shift is one click away.
    await page.getByRole("link", { name: "its shift" }).click();
    await page.getByRole("heading", { name: `Z report: ${SHOP_DAY_TILL}`, level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/dashboard/shifts/${day.shiftId}`);

    expect(app.refusals).toEqual(["401 GET /v1/session"]);
    expectCleanSession(app, world.platform.baseUrl);
  } finally {
    await app.close();
  }
});

test("a split sale's detail lists each tender with its currency and rate, the change, and a return's refund per currency", async () => {
  const shop = await newMerchant(world.db.database);
  const call = async (path: string, body: unknown) => {
    const response = await fetch(`${world.platform.baseUrl}${path}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${shop.testKey}`,
        "idempotency-key": randomUUID(),
        "content-type": "application/json",
      },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(201);
    return (await response.json()) as { id: string };
  };
  const rate = await call("/v1/exchange_rates", { base: "USD", other: "ZWG", rate: "26.5" });
  // USD 20.00: USD 5.00, then ZWG 400.00 (counts USD 15.09), change ZWG 2.38; then one of the two back.
  const sale = await call("/v1/sales", {
    items: [{ name: "Rice", qty: 2, unit_cents: 1_000 }],
    tenders: [
      { kind: "cash", currency: "USD", amount_cents: 500 },
      { kind: "cash", currency: "ZWG", amount_cents: 40_000 },
    ],
    change_currency: "ZWG",
    exchange_rate_id: rate.id,
  });
  const back = (await call(`/v1/sales/${sale.id}/returns`, { items: [{ line: 0, qty: 1 }] })) as unknown as {
    sale_return: { refunds: { currency: "USD" | "ZWG"; amount_cents: number }[] };
  };
  const [share] = back.sale_return.refunds;

  const app = await openAppPage(world.browser);
  const { page } = app;
  try {
    await signInToDashboard(app, world.platform.baseUrl, shop.email);
    await openDashboardPage(app, "Sales");
    await page.getByRole("table", { name: "Sales, page 1" }).locator("tbody tr").first().getByRole("link").click();
    await page.getByRole("heading", { name: "Sale of USD 20.00", level: 1 }).waitFor();
    const tenders = page.getByRole("table", { name: "Tenders" }).locator("tbody tr");
    await tenders.first().waitFor();
    expect(
      await tenders.evaluateAll((rows) => rows.map((row) => Array.from(row.children, (cell) => cell.textContent))),
    ).toEqual([
      ["Cash", "USD 5.00"],
      ["Cash", "ZWG 400.00 at 26.5 = USD 15.09"],
    ]);
    await page.getByText("Change: ZWG 2.38. Paid so far USD 20.00, still due USD 0.00.").waitFor();
    await page
      .getByRole("heading", {
        name: `Return 1: ${formatMoney(share?.currency ?? "ZWG", share?.amount_cents ?? 0)} refunded in cash`,
      })
      .waitFor();
    expect(await app.accessibilityViolations()).toEqual([]);
    expectCleanSession(app, world.platform.baseUrl);
  } finally {
    await app.close();
  }
});
