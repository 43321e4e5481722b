/// <reference lib="dom" />
import { z } from "zod";
import { type Currency, formatMoney } from "../../../src/kernel/money.ts";
import { sql } from "../../../src/platform/db/pool.ts";
import { servedBrowserWorld } from "../../support/browser-world.ts";
import { expectCleanSession, openDashboardPage, signInToDashboard } from "../../support/dashboard-page.ts";
import { newMerchant } from "../../support/factories.ts";
import { ok, ownerSession, SHOP_DAY_CASHIER, SHOP_DAY_TILL, shopDay } from "../../support/shop-http.ts";
import { openAppPage } from "../../support/web-app.ts";

const world = servedBrowserWorld();

/** The first page's size in PostScript points, from the PDF's MediaBox (as tests/browser/receipts.test.ts reads it). */
function pageSizePoints(pdf: Buffer): [number, number] {
  const match = /\/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]/.exec(pdf.toString("latin1"));
  if (match === null) {
    throw new Error("no MediaBox in the PDF");
  }
  return [Number(match[1]), Number(match[2])];
}

const MM_IN_POINTS = 72 / 25.4;
const CURRENCIES: readonly Currency[] = ["USD", "ZWG"];

/** The close's frozen figures per currency, as the database keeps them. */
const countsOf = async (shiftId: string) =>
  new Map(
    (
      await world.db.database.any(
        sql.type(z.object({ currency: z.enum(["USD", "ZWG"]), expected_cents: z.number(), counted_cents: z.number() }))`
          SELECT currency, expected_cents, counted_cents FROM shift_counts WHERE shift_id = ${shiftId}`,
      )
    ).map((row) => [row.currency, row]),
  );

const movesOf = (shiftId: string) =>
  world.db.database.any(
    sql.type(z.object({ kind: z.string(), currency: z.enum(["USD", "ZWG"]), amount_cents: z.number() }))`
      SELECT kind, currency, amount_cents FROM shift_cash_moves WHERE shift_id = ${shiftId} ORDER BY created_at, id`,
  );

const overShort = (currency: Currency, cents: number) =>
  cents === 0
    ? `${formatMoney(currency, 0)} (even)`
    : `${formatMoney(currency, Math.abs(cents))} ${cents > 0 ? "over" : "short"}`;

test("Shifts: a closed shift made at a till is listed and filtered; its detail and Z report show the database's figures and print at 80 mm and A4", async () => {
  const shop = await newMerchant(world.db.database);
  const day = await shopDay(world.platform.baseUrl, shop.email);
  // Another till's shift, still open, opened by the owner at the dashboard's session.
  await ok(
    day.owner.call("POST", "/v1/shifts", { till_id: "till-2", float: [{ currency: "USD", amount_cents: 1_000 }] }),
  );
  const counts = await countsOf(day.shiftId);
  const moves = await movesOf(day.shiftId);
  const figure = (currency: Currency, pick: "expected_cents" | "counted_cents") => {
    const row = counts.get(currency);
    if (row === undefined) throw new Error(`no count for ${currency}`);
    return row[pick];
  };
  // The day as its arithmetic says (a guard on the scene itself): 58.24 expected, 0.50 short; 225.00, 1.00 over.
  expect(CURRENCIES.map((currency) => figure(currency, "expected_cents"))).toEqual([5_824, 22_500]);

  const app = await openAppPage(world.browser);
  const { page } = app;
  try {
    await signInToDashboard(app, world.platform.baseUrl, shop.email);
    await openDashboardPage(app, "Shifts");
    // The row once the till's and the cashier's names (loaded beside the shifts) are in it.
    const closedRow = page
      .getByRole("row")
      .filter({ hasText: SHOP_DAY_TILL })
      .filter({ hasText: `by ${SHOP_DAY_CASHIER}` });
    const openRow = page.getByRole("row").filter({ hasText: "till-2" });
    await closedRow.waitFor();
    await openRow.getByRole("cell", { name: "open", exact: true }).waitFor();
    const cells = closedRow.getByRole("cell");
    expect(await cells.nth(0).textContent()).toContain(`by ${SHOP_DAY_CASHIER}`);
    expect(await cells.nth(2).textContent()).toBe("closed");
    expect(await cells.nth(3).textContent()).toContain(`by ${SHOP_DAY_CASHIER}`);
    const lines = (pick: (currency: Currency) => string) => CURRENCIES.map(pick).join("");
    expect(await cells.nth(4).textContent()).toBe(
      lines((currency) => formatMoney(currency, figure(currency, "expected_cents"))),
    );
    expect(await cells.nth(5).textContent()).toBe(
      lines((currency) => formatMoney(currency, figure(currency, "counted_cents"))),
    );
    expect(await cells.nth(6).textContent()).toBe(
      lines((currency) => overShort(currency, figure(currency, "counted_cents") - figure(currency, "expected_cents"))),
    );
    expect(await cells.nth(6).textContent()).toBe("USD 0.50 shortZWG 1.00 over");
    expect(await openRow.getByRole("cell").nth(0).textContent()).toContain("by Owner");
    expect(await app.accessibilityViolations()).toEqual([]);

    // Filters: by status, by till (paired tills by name).
    await page.getByLabel("Status").selectOption("open");
    await closedRow.waitFor({ state: "detached" });
    await openRow.waitFor();
    await page.getByLabel("Status").selectOption("closed");
    await closedRow.waitFor();
    await openRow.waitFor({ state: "detached" });
    await page.getByLabel("Status").selectOption("");
    await openRow.waitFor();
    await page.getByLabel("Till").selectOption({ label: SHOP_DAY_TILL });
    await openRow.waitFor({ state: "detached" });
    await closedRow.waitFor();
    await page.getByLabel("Status").selectOption("open");
    await page.getByRole("cell", { name: "No shifts match." }).waitFor();
    await page.getByLabel("Status").selectOption("");
    await closedRow.waitFor();
    expect(await page.getByRole("row").count()).toBe(2);

    // The detail of the closed shift: figures and every cash move, as the database has them.
    await closedRow.getByRole("link").click();
    await page.getByRole("heading", { name: `Z report: ${SHOP_DAY_TILL}`, level: 1 }).waitFor();
    await page.getByText(day.tillId, { exact: true }).waitFor();
    const figures = page.getByRole("table", { name: "Cash per currency" });
    const figureRow = async (label: string) =>
      await figures
        .getByRole("row")
        .filter({ has: page.getByRole("rowheader", { name: label, exact: true }) })
        .getByRole("cell")
        .allTextContents();
    const sumOf = (currency: Currency, kind: string) =>
      moves
        .filter((move) => move.currency === currency && move.kind === kind)
        .reduce((sum, move) => sum + move.amount_cents, 0);
    const countOf = (currency: Currency, kind: string) =>
      moves.filter((move) => move.currency === currency && move.kind === kind).length;
    await figures.waitFor();
    expect(await figureRow("Opening float")).toEqual(CURRENCIES.map((c) => formatMoney(c, sumOf(c, "float"))));
    expect(await figureRow("Cash sales")).toEqual(CURRENCIES.map((c) => formatMoney(c, sumOf(c, "sale"))));
    expect(await figureRow("Number of cash sales")).toEqual(CURRENCIES.map((c) => String(countOf(c, "sale"))));
    expect(await figureRow("Refunds")).toEqual(CURRENCIES.map((c) => formatMoney(c, sumOf(c, "return"))));
    expect(await figureRow("Pay-outs")).toEqual(CURRENCIES.map((c) => formatMoney(c, sumOf(c, "pay_out"))));
    expect(await figureRow("Expected in drawer")).toEqual(
      CURRENCIES.map((c) => formatMoney(c, figure(c, "expected_cents"))),
    );
    expect(await figureRow("Counted")).toEqual(CURRENCIES.map((c) => formatMoney(c, figure(c, "counted_cents"))));
    expect(await figureRow("Over/short")).toEqual(["USD 0.50 short", "ZWG 1.00 over"]);
    const moveRows = page.getByRole("table", { name: "Cash moves, oldest first" }).locator("tbody tr");
    await moveRows.first().waitFor();
    expect(await moveRows.count()).toBe(moves.length);
    const amounts = await moveRows.evaluateAll((rows) => rows.map((row) => row.children[2]?.textContent ?? ""));
    expect(amounts).toEqual(moves.map((move) => formatMoney(move.currency, move.amount_cents)));
    await page
      .getByRole("table", { name: "Cash moves, oldest first" })
      .getByRole("cell", { name: "Paid the cleaner" })
      .waitFor();
    await page.getByText(`by ${SHOP_DAY_CASHIER}`).first().waitFor();
    expect(await page.getByText(`by ${SHOP_DAY_CASHIER}`).count()).toBe(2);
    await page.getByText("Coins short").waitFor();
    expect(await app.accessibilityViolations()).toEqual([]);

    // The Z report printed: the dashboard's chrome is gone, the paper is the one chosen.
    await page.emulateMedia({ media: "print" });
    expect(await page.getByRole("navigation").isVisible()).toBe(false);
    expect(await page.getByRole("button", { name: "Print Z report" }).isVisible()).toBe(false);
    expect(await figures.isVisible()).toBe(true);
    const roll = await page.pdf({ preferCSSPageSize: true });
    const [rollWidth] = pageSizePoints(roll);
    expect(Math.abs(rollWidth - 80 * MM_IN_POINTS)).toBeLessThan(2);
    await page.emulateMedia({ media: "screen" });
    await page.getByLabel("Paper").selectOption("a4");
    await page.emulateMedia({ media: "print" });
    const a4 = await page.pdf({ preferCSSPageSize: true });
    const [a4Width, a4Height] = pageSizePoints(a4);
    expect(Math.abs(a4Width - 210 * MM_IN_POINTS)).toBeLessThan(2);
    expect(Math.abs(a4Height - 297 * MM_IN_POINTS)).toBeLessThan(2);
    expect(a4.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    await page.emulateMedia({ media: "screen" });

    expect(app.refusals).toEqual(["401 GET /v1/session"]);
    expectCleanSession(app, world.platform.baseUrl);
  } finally {
    await app.close();
  }
});

test("Shifts: a shift with more cash moves than a page shows them all after 'More cash moves'", async () => {
  const shop = await newMerchant(world.db.database);
  const owner = await ownerSession(world.platform.baseUrl, shop.email);
  const shift = await ok<{ id: string }>(
    owner.call("POST", "/v1/shifts", { till_id: "till-busy", float: [{ currency: "USD", amount_cents: 1_000 }] }),
  );
  // 1 float + 100 pay-ins: one more than the API's page of 100.
  for (let batch = 0; batch < 10; batch++) {
    await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        ok(
          owner.call("POST", `/v1/shifts/${shift.id}/cash_moves`, {
            kind: "pay_in",
            currency: "USD",
            amount_cents: 1 + batch * 10 + index,
            reason: `Change ${batch * 10 + index + 1}`,
          }),
        ),
      ),
    );
  }
  const stored = await world.db.database.anyFirst(sql.type(z.object({ id: z.string() }))`
    SELECT id FROM shift_cash_moves WHERE shift_id = ${shift.id} ORDER BY created_at, id`);
  expect(stored).toHaveLength(101);

  const app = await openAppPage(world.browser);
  const { page } = app;
  try {
    await signInToDashboard(app, world.platform.baseUrl, shop.email);
    await page.goto(`${world.platform.baseUrl}/dashboard/shifts/${shift.id}`);
    const moveRows = page.getByRole("table", { name: "Cash moves, oldest first" }).locator("tbody tr");
    await moveRows.nth(99).waitFor();
    expect(await moveRows.count()).toBe(100);
    await page.getByRole("button", { name: "More cash moves" }).click();
    await moveRows.nth(100).waitFor();
    await page.getByRole("button", { name: "More cash moves" }).waitFor({ state: "detached" });
    // Every move once, in the journal's order (the reasons are unique).
    const reasons = await moveRows.evaluateAll((rows) => rows.map((row) => row.children[3]?.textContent ?? ""));
    const storedReasons = await world.db.database.anyFirst(sql.type(z.object({ reason: z.string().nullable() }))`
      SELECT reason FROM shift_cash_moves WHERE shift_id = ${shift.id} ORDER BY created_at, id`);
    expect(reasons).toEqual(storedReasons.map((reason) => reason ?? "—"));
    expect(await page.getByRole("heading", { name: "Z report: till-busy", level: 1 }).count()).toBe(1);
    expect(app.refusals).toEqual(["401 GET /v1/session"]);
    expectCleanSession(app, world.platform.baseUrl);
  } finally {
    await app.close();
  }
});
