/// <reference lib="dom" />
import jsQRModule from "jsqr";
import { PNG } from "pngjs";
import { z } from "zod";
import { sql } from "../../../src/platform/db/pool.ts";
import { addProduct, externalRequests, startTillWorld, TillPage, type TillWorld } from "../../support/till.ts";

// jsqr is CommonJS with `exports.default`: depending on the loader, the import is the function or its module.
const jsQR = ((jsQRModule as { default?: unknown }).default ?? jsQRModule) as typeof jsQRModule.default;

let world: TillWorld;

beforeAll(async () => {
  world = await startTillWorld();
  await addProduct(world, { name: "Cola 330ml", price_cents: 150, barcode: "5000112637922", stock_qty: 10 });
});
afterAll(() => world?.close());

test("wallet: code, a QR that reads back, deep link, countdown; mockpay flips it to paid through one waiting request; sale.completed", async () => {
  const till = await TillPage.open(world);
  const { page } = till;
  try {
    await till.signIn(world.shop.email);
    await till.scan("5000112637922");
    await till.scan("5000112637922");
    await till.waitForCart([{ name: "Cola 330ml", qty: "2" }]);
    await page.getByRole("button", { name: "Pay wallet" }).click();
    const dialog = page.getByRole("dialog", { name: "Pay by wallet" });
    const code = page.getByTestId("payment-code");
    await code.waitFor();
    // Grouped in threes as the checkout page shows it (`006 572 813`); the digits are the code.
    const grouped = (await code.textContent()) ?? "";
    expect(grouped).toMatch(/^\d{3} \d{3} \d{3}$/);
    const shownCode = grouped.replaceAll(" ", "");
    await dialog.getByText(/Code valid for \d+:\d\d/).waitFor();
    expect(await till.app.accessibilityViolations()).toEqual([]);

    // The QR as the screen shows it decodes to what the API put in it.
    const qr = dialog.getByRole("img", { name: `QR code of payment code ${shownCode}` });
    const shot = PNG.sync.read(await qr.screenshot());
    const decoded = jsQR(new Uint8ClampedArray(shot.data), shot.width, shot.height)?.data ?? "";
    const sales = await world.api("test")<{ data: { id: string; status: string }[] }>("GET", "/v1/sales");
    const pending = sales.body.data[0];
    expect(pending?.status).toBe("pending");
    const sale = await world.api("test")<{ payment: { code: string; deep_link: string } }>(
      "GET",
      `/v1/sales/${pending?.id}`,
    );
    expect(sale.body.payment.code).toBe(shownCode);
    expect(decoded).toContain(shownCode);
    expect(await dialog.getByRole("link", { name: "Open in the wallet app" }).getAttribute("href")).toBe(
      sale.body.payment.deep_link,
    );

    await dialog.getByRole("button", { name: "Simulate customer paid (TEST)" }).click();
    await page.getByRole("status").filter({ hasText: "Sale complete: USD 3.00 by wallet" }).waitFor();
    await till.waitForCart([]);

    const completed = await world.api("test")<{ status: string }>("GET", `/v1/sales/${pending?.id}`);
    expect(completed.body.status).toBe("completed");
    const events = await world.db.database.any(sql.type(z.object({ data: z.record(z.string(), z.unknown()) }))`
      SELECT data FROM events WHERE merchant_id = ${world.shop.id} AND type = 'sale.completed' AND NOT livemode`);
    expect(events.map((event) => event.data.sale_id)).toEqual([pending?.id]);
    // The screen followed the sale with waiting requests, not a poll every few seconds.
    const follows = till.app.requests.filter((url) => url.includes(`/v1/sales/${pending?.id}`));
    expect(follows.length).toBeGreaterThanOrEqual(1);
    expect(follows.length).toBeLessThanOrEqual(2);
    expect(follows.every((url) => url.includes("wait_seconds=20"))).toBe(true);
    expect(till.app.consoleErrors).toEqual([]);
    expect(externalRequests(till, world.platform.baseUrl)).toEqual([]);
  } finally {
    await till.close();
  }
});

test("wallet: an expired code offers a new code or cash", async () => {
  const till = await TillPage.open(world);
  const { page } = till;
  try {
    await till.signIn(world.shop.email);
    await till.scan("5000112637922");
    await page.getByRole("button", { name: "Pay wallet" }).click();
    const dialog = page.getByRole("dialog", { name: "Pay by wallet" });
    await page.getByTestId("payment-code").waitFor();
    const sales = await world.api("test")<{ data: { payment_id: string }[] }>("GET", "/v1/sales?status=pending");
    const paymentId = sales.body.data[0]?.payment_id;
    const expired = await fetch(`${world.platform.baseUrl}/checkout/${paymentId}/mockpay`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ outcome: "expired" }),
    });
    expect(expired.status).toBe(200);
    await dialog.getByRole("alert").filter({ hasText: "expired unpaid" }).waitFor();
    await dialog.getByRole("button", { name: "Try again" }).click();
    const second = (await page.getByTestId("payment-code").textContent()) ?? "";
    await dialog.getByRole("button", { name: "Close" }).click();
    await till.waitForCart([{ name: "Cola 330ml", qty: "1" }]);
    // Reopened for the same cart: the same code, not a second one the customer could also pay.
    await page.getByRole("button", { name: "Pay wallet" }).click();
    await page.getByTestId("payment-code").filter({ hasText: second }).waitFor();
    const pendingNow = await world.api("test")<{ data: unknown[] }>("GET", "/v1/sales?status=pending");
    expect(pendingNow.body.data).toHaveLength(1);
    await dialog.getByRole("button", { name: "Close" }).click();
    expect(till.app.consoleErrors).toEqual([]);
  } finally {
    await till.close();
  }
});
