/// <reference lib="dom" />
import jsQRModule from "jsqr";
import { PNG } from "pngjs";
import { sql } from "../../../src/platform/db/pool.ts";
import { MM_IN_POINTS, pageSizePoints } from "../../support/pdf.ts";
import { addProduct, externalRequests, startTillWorld, TillPage, type TillWorld } from "../../support/till.ts";
import { readUntil } from "../../support/time.ts";

// jsqr is CommonJS with `exports.default`: depending on the loader, the import is the function or its module.
const jsQR = ((jsQRModule as { default?: unknown }).default ?? jsQRModule) as typeof jsQRModule.default;

let world: TillWorld;

beforeAll(async () => {
  world = await startTillWorld();
  await addProduct(world, { name: "Bread loaf", price_cents: 120, barcode: "6001234567890" });
  await world.db.database.query(sql.unsafe`
    INSERT INTO shop_profiles (merchant_id, display_name, address, tax_number, receipt_footer)
    VALUES (${world.shop.merchant.id}, 'Moyo Bakery', '4 Speke Ave, Harare', 'TIN 2001', 'No refunds on bread')`);
});
afterAll(() => world?.close());

test("after a cash sale with cash given: Print receipt prints the in-page receipt (shop, tendered, change); QR, WhatsApp, SMS and email links; the link opens without a session", async () => {
  const till = await TillPage.open(world);
  const { page } = till;
  try {
    // Headless Chromium has no print dialog: count the calls, and keep what would print.
    await page.addInitScript(() => {
      const printed: { count: number; printing: boolean[] } = { count: 0, printing: [] };
      (window as unknown as { printed: typeof printed }).printed = printed;
      window.print = () => {
        printed.count += 1;
        printed.printing.push(document.documentElement.classList.contains("printing-receipt"));
      };
    });
    await till.signIn(world.shop.email);
    await till.openDrawer();
    await till.scan("6001234567890");
    await till.waitForCart([{ name: "Bread loaf", qty: "1" }]);
    await page.getByRole("button", { name: "Pay cash" }).click();
    const dialog = page.getByRole("dialog", { name: "Pay cash" });
    await dialog.getByLabel("Amount tendered (USD)").fill("2.00");
    await dialog.getByRole("button", { name: "Complete sale" }).click();
    await page.getByRole("status").filter({ hasText: "Sale complete: USD 1.20" }).waitFor();
    // The sale shows complete once the outbox keeps it; the server has it (and its receipt) once sent.
    await till.waitForSynced();

    const sales = await world.api("test")<{
      data: { receipt_url: string; tendered_cents: number; change_cents: number }[];
    }>("GET", "/v1/sales");
    expect(sales.body.data[0]).toMatchObject({ tendered_cents: 200, change_cents: 80 });
    const receiptUrl = sales.body.data[0]?.receipt_url ?? "";
    expect(receiptUrl).toMatch(/\/receipts\/[\w-]{32}$/);

    const panel = page.getByRole("region", { name: "Receipt" });
    const qr = panel.getByRole("img", { name: /QR code of the receipt link/ });
    await page.waitForFunction(
      () => ((document.querySelector(".receipt-qr") as HTMLImageElement | null)?.naturalWidth ?? 0) > 0,
    );
    const shot = PNG.sync.read(await qr.screenshot());
    expect(jsQR(new Uint8ClampedArray(shot.data), shot.width, shot.height)?.data).toBe(receiptUrl);

    // The share links name the shop as its receipt does (the profile's name, read as the panel opens).
    const message = `Your receipt from Moyo Bakery: ${receiptUrl}`;
    const hrefOf = (name: string) => () => panel.getByRole("link", { name }).getAttribute("href");
    const whatsApp = `https://wa.me/?text=${encodeURIComponent(message)}`;
    expect(await readUntil(hrefOf("Share by WhatsApp"), whatsApp)).toBe(whatsApp);
    expect(await hrefOf("Share by SMS")()).toBe(`sms:?&body=${encodeURIComponent(message)}`);
    expect(await hrefOf("Share by email")()).toBe(
      `mailto:?subject=${encodeURIComponent("Your receipt from Moyo Bakery")}&body=${encodeURIComponent(receiptUrl)}`,
    );
    expect(await till.app.accessibilityViolations()).toEqual([]);

    // Print receipt prints this page, in no other tab, while the receipt alone is what prints.
    const pagesBefore = till.app.context.pages().length;
    await panel.getByRole("button", { name: "Print receipt" }).click();
    await page.waitForFunction(() => (window as unknown as { printed: { count: number } }).printed.count === 1);
    expect(
      await page.evaluate(() => (window as unknown as { printed: { printing: boolean[] } }).printed.printing),
    ).toEqual([true]);
    expect(till.app.context.pages()).toHaveLength(pagesBefore);
    const sheet = page.getByRole("article", { name: "Printed receipt", includeHidden: true });
    expect(await sheet.isVisible()).toBe(false);
    await page.evaluate(() => document.documentElement.classList.add("printing-receipt"));
    await page.emulateMedia({ media: "print" });
    expect(await sheet.isVisible()).toBe(true);
    expect(await page.locator("#scan-input").isVisible()).toBe(false);
    // The shop's profile is read when the receipt shows (its own request): its footer, then the sheet.
    await sheet.getByText("No refunds on bread").waitFor();
    const printed = (await sheet.textContent()) ?? "";
    for (const text of ["Moyo Bakery", "4 Speke Ave, Harare", "Tax no. TIN 2001", "Bread loaf", "Total", "USD 1.20"]) {
      expect(printed).toContain(text);
    }
    expect(printed).toContain("Cash tendered USD 2.00");
    expect(printed).toContain("Change USD 0.80");
    expect(printed).toContain("No refunds on bread");
    // On an 80 mm roll by default, A4 when chosen: the receipt's named @page.
    const [rollWidth] = pageSizePoints(await page.pdf({ preferCSSPageSize: true }));
    expect(Math.abs(rollWidth - 80 * MM_IN_POINTS)).toBeLessThan(2);
    await page.emulateMedia({ media: "screen" });
    await panel.getByLabel("Paper").selectOption("a4");
    // page.pdf prints with the emulated media: print again.
    await page.emulateMedia({ media: "print" });
    const [a4Width] = pageSizePoints(await page.pdf({ preferCSSPageSize: true }));
    expect(Math.abs(a4Width - 210 * MM_IN_POINTS)).toBeLessThan(2);
    await page.emulateMedia({ media: "screen" });
    await page.evaluate(() => document.documentElement.classList.remove("printing-receipt"));

    // The link as the customer opens it: another browser, no session, no cookie.
    const customer = await world.browser.newContext();
    try {
      const phone = await customer.newPage();
      const opened = await phone.goto(receiptUrl);
      expect(opened?.status()).toBe(200);
      expect(await phone.locator("h1").textContent()).toBe("Moyo Bakery");
      expect(await phone.locator(".change").textContent()).toBe("Change USD 0.80");
      expect(await phone.locator("body").textContent()).toContain("Bread loaf");
      expect(await customer.cookies()).toEqual([]);
    } finally {
      await customer.close();
    }

    expect(till.app.consoleErrors).toEqual([]);
    // The share links are for the cashier to tap: the page itself asked nothing of wa.me or anyone else.
    expect(externalRequests(till, world.platform.baseUrl)).toEqual([]);
  } finally {
    await till.close();
  }
});
