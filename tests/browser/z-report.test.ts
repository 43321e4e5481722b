/// <reference lib="dom" />
import { z } from "zod";
import { type Currency, formatMoney } from "../../src/kernel/money.ts";
import { sql } from "../../src/platform/db/pool.ts";
import { signInToDashboard } from "../support/dashboard-page.ts";
import { SHOP_DAY_CASHIER, SHOP_DAY_TILL, shopDay } from "../support/shop-http.ts";
import { startTillWorld, TillPage, type TillWorld } from "../support/till.ts";
import { type AppPage, openAppPage } from "../support/web-app.ts";

/**
 * One Z report (issue 46: "the till's Z report names the till by its id and leaves out cashier names,
 * counts and cash moves that the dashboard's Z report has"): the till and the dashboard show the same
 * shift's report alike, and its figures are the database's.
 */
let world: TillWorld;

beforeAll(async () => {
  world = await startTillWorld();
});
afterAll(() => world?.close());

/** What a person reads on the report: its sheet's text, and each figure by `<row>-<currency>`. */
async function readReport(app: AppPage) {
  const sheet = app.page.locator(".z-sheet");
  await sheet.getByRole("table", { name: "Cashiers" }).waitFor();
  return {
    text: await sheet.textContent(),
    figures: Object.fromEntries(
      await sheet
        .locator("[data-figure]")
        .evaluateAll((cells) => cells.map((cell) => [cell.getAttribute("data-figure"), cell.textContent])),
    ) as Record<string, string>,
  };
}

test("a shift's Z report is the same on the till and the dashboard: the till by name, the cashier, the counts, the drawer's moves and the database's figures", async () => {
  const day = await shopDay(world.platform.baseUrl, world.shop.email);
  const counts = await world.db.database.any(
    sql.type(
      z.object({ currency: z.enum(["USD", "ZWG"]), expected_cents: z.number(), counted_cents: z.number() }),
    )`SELECT currency, expected_cents, counted_cents FROM shift_counts WHERE shift_id = ${day.shiftId} ORDER BY currency`,
  );
  expect(counts).toHaveLength(2);

  const dashboard = await openAppPage(world.browser);
  const till = await TillPage.open(world, { viewport: { width: 1024, height: 768 } });
  try {
    await signInToDashboard(dashboard, world.platform.baseUrl, world.shop.email);
    await dashboard.page.goto(`${world.platform.baseUrl}/dashboard/shifts/${day.shiftId}`);
    const onDashboard = await readReport(dashboard);
    expect(await dashboard.accessibilityViolations()).toEqual([]);

    // A second till of the shop, paired in the browser, with the day's cashier switched in by PIN.
    const { page } = till;
    await page.goto(`${world.platform.baseUrl}/till`);
    await page.getByLabel("Till name").fill("Back counter");
    await page.getByLabel("Email").fill(world.shop.email);
    await page.getByLabel("Password").fill("correct horse battery");
    await page.getByRole("button", { name: "Pair this till", exact: true }).click();
    await page.getByRole("button", { name: SHOP_DAY_CASHIER }).click();
    const keypad = page.getByRole("group", { name: "Keypad" });
    for (const digit of "190734") await keypad.getByRole("button", { name: digit, exact: true }).click();
    await keypad.getByRole("button", { name: "OK" }).click();
    await page.waitForFunction(() => document.activeElement?.id === "scan-input", undefined, { timeout: 30_000 });
    // "This till" names the till by the name it was paired under.
    await page.getByRole("link", { name: "This till", exact: true }).click();
    await page.getByRole("heading", { name: "This till: Back counter", level: 1 }).waitFor();
    await page.evaluate((path) => {
      history.pushState(null, "", path);
      dispatchEvent(new PopStateEvent("popstate"));
    }, `/till/z/${day.shiftId}`);
    const onTill = await readReport(till.app);
    expect(await till.app.accessibilityViolations()).toEqual([]);

    expect(onTill).toEqual(onDashboard);
    expect(onTill.text).toContain(`Z report: ${SHOP_DAY_TILL}`);
    expect(onTill.text).not.toContain(`Z report: ${day.tillId}`);
    expect(onTill.text).toContain(`by ${SHOP_DAY_CASHIER}`);
    expect(await page.getByTestId("z-till").textContent()).toBe(SHOP_DAY_TILL);
    const cashiers = page.getByRole("table", { name: "Cashiers" }).locator("tbody tr");
    expect(await cashiers.allInnerTexts()).toEqual([`${SHOP_DAY_CASHIER}\t3\t1`]);
    const moves = page.getByRole("table", { name: /^Drawer moves/ }).locator("tbody tr");
    expect(
      await moves.evaluateAll((rows) => rows.map((row) => [...row.children].slice(1).map((cell) => cell.textContent))),
    ).toEqual([
      ["Opening float", "USD 50.00", "—", SHOP_DAY_CASHIER],
      ["Opening float", "ZWG 200.00", "—", SHOP_DAY_CASHIER],
      ["Refund", "USD -6.25", "—", SHOP_DAY_CASHIER],
      ["Pay-out", "ZWG -5.00", "Paid the cleaner", SHOP_DAY_CASHIER],
    ]);
    for (const count of counts) {
      const currency: Currency = count.currency;
      expect(onTill.figures[`expected-${currency}`]).toBe(formatMoney(currency, count.expected_cents));
      expect(onTill.figures[`counted-${currency}`]).toBe(formatMoney(currency, count.counted_cents));
    }
    expect([onTill.figures["sales-count-USD"], onTill.figures["sales-count-ZWG"]]).toEqual(["2", "1"]);
    expect([onTill.figures["refunds-count-USD"], onTill.figures["over-short-USD"]]).toEqual(["1", "USD 0.50 short"]);
    expect(onTill.figures["over-short-ZWG"]).toBe("ZWG 1.00 over");
    expect(till.app.consoleErrors).toEqual([]);
    expect(dashboard.consoleErrors).toEqual([]);
  } finally {
    await till.close();
    await dashboard.close();
  }
});
