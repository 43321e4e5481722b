/// <reference lib="dom" />
import jsQRModule from "jsqr";
import { PNG } from "pngjs";
import { addProduct, externalRequests, startTillWorld, TillPage, type TillWorld } from "../../support/till.ts";

// jsqr is CommonJS with `exports.default`: depending on the loader, the import is the function or its module.
const jsQR = ((jsQRModule as { default?: unknown }).default ?? jsQRModule) as typeof jsQRModule.default;

let world: TillWorld;

beforeAll(async () => {
  world = await startTillWorld();
  await addProduct(world, { name: "Bread loaf", price_cents: 120, barcode: "6001234567890" });
});
afterAll(() => world?.close());

test("after a cash sale: the receipt link as a QR that decodes to it, Print receipt, WhatsApp and SMS share links; the link opens without a session", async () => {
  const till = await TillPage.open(world);
  const { page } = till;
  try {
    await till.signIn(world.shop.email);
    await till.openDrawer();
    await till.scan("6001234567890");
    await till.waitForCart([{ name: "Bread loaf", qty: "1" }]);
    await page.getByRole("button", { name: "Pay cash" }).click();
    const dialog = page.getByRole("dialog", { name: "Pay cash" });
    await dialog.getByRole("button", { name: "Exact" }).click();
    await dialog.getByRole("button", { name: "Complete sale" }).click();
    await page.getByRole("status").filter({ hasText: "Sale complete: USD 1.20" }).waitFor();
    // The sale shows complete once the outbox keeps it; the server has it (and its receipt) once sent.
    await till.waitForSynced();

    const sales = await world.api("test")<{ data: { receipt_url: string }[] }>("GET", "/v1/sales");
    const receiptUrl = sales.body.data[0]?.receipt_url ?? "";
    expect(receiptUrl).toMatch(/\/receipts\/[\w-]{32}$/);
    const receiptPath = new URL(receiptUrl).pathname;

    const panel = page.getByRole("region", { name: "Receipt" });
    const qr = panel.getByRole("img", { name: /QR code of the receipt link/ });
    await page.waitForFunction(
      () => ((document.querySelector(".receipt-qr") as HTMLImageElement | null)?.naturalWidth ?? 0) > 0,
    );
    const shot = PNG.sync.read(await qr.screenshot());
    expect(jsQR(new Uint8ClampedArray(shot.data), shot.width, shot.height)?.data).toBe(receiptUrl);

    const message = `Your receipt from ${world.shop.merchant.name}: ${receiptUrl}`;
    expect(await panel.getByRole("link", { name: "Print receipt" }).getAttribute("href")).toBe(receiptPath);
    expect(await panel.getByRole("link", { name: "Share by WhatsApp" }).getAttribute("href")).toBe(
      `https://wa.me/?text=${encodeURIComponent(message)}`,
    );
    expect(await panel.getByRole("link", { name: "Share by SMS" }).getAttribute("href")).toBe(
      `sms:?&body=${encodeURIComponent(message)}`,
    );
    expect(await till.app.accessibilityViolations()).toEqual([]);

    // Print receipt opens the receipt page beside the till.
    const [printed] = await Promise.all([
      till.app.context.waitForEvent("page"),
      panel.getByRole("link", { name: "Print receipt" }).click(),
    ]);
    await printed.waitForLoadState();
    expect(new URL(printed.url()).pathname).toBe(receiptPath);
    expect(await printed.locator("h1").textContent()).toBe(world.shop.merchant.name);
    await printed.close();

    // The link as the customer opens it: another browser, no session, no cookie.
    const customer = await world.browser.newContext();
    try {
      const phone = await customer.newPage();
      const opened = await phone.goto(receiptUrl);
      expect(opened?.status()).toBe(200);
      expect(await phone.locator("h1").textContent()).toBe(world.shop.merchant.name);
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
