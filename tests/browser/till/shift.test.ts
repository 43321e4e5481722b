/// <reference lib="dom" />
import { z } from "zod";
import { type Currency, formatMoney } from "../../../src/kernel/money.ts";
import { sql } from "../../../src/platform/db/pool.ts";
import { addProduct, externalRequests, startTillWorld, TillPage, type TillWorld } from "../../support/till.ts";

let world: TillWorld;
let cola: { id: string };

beforeAll(async () => {
  world = await startTillWorld();
  cola = await addProduct(world, { name: "Cola 330ml", price_cents: 150, barcode: "5000112637922", stock_qty: 10 });
  await addProduct(world, { name: "Sugar 1kg", price_cents: 2500, currency: "ZWG", barcode: "6009876543210" });
});
afterAll(() => world?.close());

const MM_IN_POINTS = 72 / 25.4;

/** The first page's size in PostScript points, from the PDF's MediaBox. */
function pageSizePoints(pdf: Buffer): [number, number] {
  const match = /\/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]/.exec(pdf.toString("latin1"));
  if (match === null) throw new Error("no MediaBox in the PDF");
  return [Number(match[1]), Number(match[2])];
}

/** What the screen shows for `row` in `currency` (the drawer table's `data-figure` cells). */
const figure = (till: TillPage, scope: string, row: string, currency: Currency) =>
  till.page.locator(`${scope} [data-figure="${row}-${currency}"]`).textContent();

/** Over/short as the figures say it (web/reports/over-short.ts). */
function overShort(currency: Currency, cents: number): string {
  return cents === 0
    ? `${formatMoney(currency, 0)} (even)`
    : `${formatMoney(currency, Math.abs(cents))} ${cents > 0 ? "over" : "short"}`;
}

async function payCashExact(till: TillPage, total: string): Promise<void> {
  const { page } = till;
  await page.getByRole("button", { name: "Pay cash" }).click();
  const dialog = page.getByRole("dialog", { name: "Pay cash" });
  await dialog.getByRole("button", { name: "Exact" }).click();
  await dialog.getByRole("button", { name: "Complete sale" }).click();
  await page
    .getByRole("status")
    .filter({ hasText: `Sale complete: ${total}` })
    .waitFor();
  // Complete once the outbox keeps it; Today and the drawer's figures read the server's, once sent.
  await till.waitForSynced();
}

test("a day at the drawer in USD and ZWG: float, cash sales, pay-in, pay-out, a partial return, close over in one currency and short in the other; the Z report prints on 80 mm and A4", async () => {
  const till = await TillPage.open(world);
  const { page } = till;
  try {
    await till.signIn(world.shop.email);
    await page.getByRole("button", { name: "Live", exact: true }).click();
    await page.locator(".world-live").waitFor();
    // Sell is made again for LIVE: it takes scans once the scan box has the focus back (the same effects).
    await page.waitForFunction(() => document.activeElement?.id === "scan-input", undefined, { timeout: 30_000 });

    // Cash with no open drawer: the till says to open it first, and leads there; the cart is kept.
    await till.scan("5000112637922");
    await till.waitForCart([{ name: "Cola 330ml", qty: "1" }]);
    await page.getByRole("button", { name: "Pay cash" }).click();
    const prompt = page.getByRole("dialog", { name: "Open the drawer first" });
    await prompt.waitFor();
    expect(await till.app.accessibilityViolations()).toEqual([]);
    await prompt.getByRole("button", { name: "Open the drawer" }).click();
    const float = page.getByRole("group", { name: "Opening float" });
    await float.getByLabel("USD").fill("20");
    await float.getByLabel("ZWG").fill("500");
    expect(await till.app.accessibilityViolations()).toEqual([]);
    await page.getByRole("button", { name: "Open drawer" }).click();
    await page.getByRole("heading", { name: "Close the drawer" }).waitFor();

    await page.getByRole("link", { name: "Sell" }).click();
    await page.waitForFunction(() => document.activeElement?.id === "scan-input", undefined, { timeout: 30_000 });
    await till.scan("5000112637922");
    await till.waitForCart([{ name: "Cola 330ml", qty: "2" }]);
    await payCashExact(till, "USD 3.00");
    await till.scan("6009876543210");
    await till.waitForCart([{ name: "Sugar 1kg", qty: "1" }]);
    await payCashExact(till, "ZWG 25.00");

    // Pay-in and pay-out, each with its reason.
    await page.getByRole("link", { name: "Drawer" }).click();
    const move = async (kind: string, currency: Currency, amount: string, reason: string, done: string) => {
      await page.getByLabel("Move").selectOption(kind);
      await page.getByLabel("Currency").selectOption(currency);
      await page.getByLabel("Amount").fill(amount);
      await page.getByLabel("Reason").fill(reason);
      await page.getByRole("button", { name: "Record" }).click();
      await page.getByText(done).waitFor();
    };
    await move("pay_in", "USD", "10", "change from the bank", "Pay-in recorded.");
    await move("pay_out", "ZWG", "50", "paid the cleaner", "Pay-out recorded.");

    // A partial return from Today: one of the two colas.
    await page.getByRole("link", { name: "Today" }).click();
    await page
      .getByRole("row", { name: /USD 3\.00/ })
      .getByRole("button", { name: /^Lines of the sale/ })
      .click();
    await page.getByRole("dialog", { name: "Sale" }).getByRole("button", { name: "Return items" }).click();
    const returning = page.getByRole("dialog", { name: "Return items" });
    await returning.getByRole("row", { name: /Cola 330ml 2 0/ }).waitFor();
    await returning.getByLabel("Units of Cola 330ml to return (at most 2)").fill("1");
    await returning.getByLabel("Reason (optional)").fill("dented can");
    await returning.getByText("Refund in cash USD 1.50").waitFor();
    expect(await till.app.accessibilityViolations()).toEqual([]);
    await returning.getByRole("button", { name: "Return and refund" }).click();
    await returning.getByRole("status").filter({ hasText: "Refund due in cash: USD 1.50" }).waitFor();
    await returning.getByRole("img", { name: /QR code of the receipt link/ }).waitFor();
    await returning.getByRole("button", { name: "Done" }).click();
    // The sale now shows what came back.
    const sale = page.getByRole("dialog", { name: "Sale" });
    await sale
      .getByRole("table", { name: "Returned" })
      .getByRole("row", { name: /Cola 330ml 1 USD 1\.50/ })
      .waitFor();
    await sale.getByRole("button", { name: "Close" }).click();
    const stock = await world.api("live")<{ stock_qty: number }>("GET", `/v1/products/${cola.id}`);
    expect(stock.body.stock_qty).toBe(9);

    // The drawer's live figures: float + sales + pay-ins − refunds − pay-outs.
    await page.getByRole("link", { name: "Drawer" }).click();
    await page.locator('[data-figure="expected-USD"]').filter({ hasText: "USD 31.50" }).waitFor();
    expect(await figure(till, ".drawer", "expected", "ZWG")).toBe("ZWG 475.00");
    expect(await figure(till, ".drawer", "refunds", "USD")).toBe("USD -1.50");
    expect(await till.app.accessibilityViolations()).toEqual([]);

    // Close: one dollar over, two ZWG short.
    const counted = page.getByRole("group", { name: "Counted" });
    await counted.getByLabel("USD").fill("32.50");
    await counted.getByLabel("ZWG").fill("473");
    await page.getByRole("button", { name: "Close drawer" }).click();
    await page.getByRole("status").filter({ hasText: "Drawer closed" }).waitFor();

    const rows = await world.db.database.any(sql.type(
      z.object({
        shift_id: z.string(),
        currency: z.enum(["USD", "ZWG"]),
        expected_cents: z.number(),
        counted_cents: z.number(),
      }),
    )`SELECT c.shift_id, c.currency, c.expected_cents, c.counted_cents FROM shift_counts c
      JOIN shifts s ON s.merchant_id = c.merchant_id AND s.id = c.shift_id
      WHERE c.merchant_id = ${world.shop.id} AND s.livemode AND s.status = 'closed' ORDER BY c.currency`);
    expect(
      rows.map(({ currency, expected_cents, counted_cents }) => [currency, expected_cents, counted_cents]),
    ).toEqual([
      ["USD", 3150, 3250],
      ["ZWG", 47_500, 47_300],
    ]);
    for (const row of rows) {
      expect(await figure(till, ".closed-shift", "expected", row.currency)).toBe(
        formatMoney(row.currency, row.expected_cents),
      );
      expect(await figure(till, ".closed-shift", "counted", row.currency)).toBe(
        formatMoney(row.currency, row.counted_cents),
      );
      expect(await figure(till, ".closed-shift", "over-short", row.currency)).toBe(
        overShort(row.currency, row.counted_cents - row.expected_cents),
      );
    }
    expect(await figure(till, ".closed-shift", "over-short", "USD")).toBe("USD 1.00 over");
    expect(await figure(till, ".closed-shift", "over-short", "ZWG")).toBe("ZWG 2.00 short");
    // The shift and the refund name this till, and the drawer is open for the next shift.
    const tills = await world.db.database.any(sql.type(z.object({ till_id: z.string().nullable() }))`
      SELECT till_id FROM sales WHERE merchant_id = ${world.shop.id} AND livemode
      UNION ALL SELECT till_id FROM sale_returns WHERE merchant_id = ${world.shop.id}
      UNION ALL SELECT till_id FROM shifts WHERE merchant_id = ${world.shop.id}`);
    expect(new Set(tills.map((row) => row.till_id)).size).toBe(1);
    await page.getByRole("heading", { name: "Open the drawer" }).waitFor();
    expect(await till.app.accessibilityViolations()).toEqual([]);

    // The Z report, printed on an 80 mm roll and on A4.
    await page.getByRole("button", { name: "Print Z report" }).click();
    await page.getByRole("heading", { name: "Z report" }).waitFor();
    expect(await figure(till, ".z-report", "over-short", "ZWG")).toBe("ZWG 2.00 short");
    expect(await figure(till, ".z-report", "refunds", "USD")).toBe("USD -1.50");
    expect(await till.app.accessibilityViolations()).toEqual([]);
    await page.emulateMedia({ media: "print" });
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
    await page.emulateMedia({ media: "screen" });

    // Past shifts list it, with its Z report.
    await page.getByRole("link", { name: "Back to the drawer" }).click();
    const past = page.getByRole("table", { name: "Shifts of this till, newest first" });
    await past.getByRole("link", { name: /^Z report of the shift closed/ }).waitFor();
    expect(till.app.consoleErrors).toEqual([]);
    expect(externalRequests(till, world.platform.baseUrl)).toEqual([]);
  } finally {
    await till.close();
  }
});
