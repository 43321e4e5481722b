/// <reference lib="dom" />
import { addProduct, externalRequests, startTillWorld, TillPage, type TillWorld } from "../../support/till.ts";

let world: TillWorld;
let cola: { id: string };

beforeAll(async () => {
  world = await startTillWorld();
  cola = await addProduct(world, { name: "Cola 330ml", price_cents: 150, barcode: "5000112637922", stock_qty: 20 });
});
afterAll(() => world?.close());

type Sales = { data: { id: string; livemode: boolean; total_cents: number }[] };

test("TEST/LIVE: switching with a cart asks first; a LIVE sale is live only and moves stock, a TEST sale neither", async () => {
  const till = await TillPage.open(world);
  const { page } = till;
  const payExact = async () => {
    await page.getByRole("button", { name: "Pay cash" }).click();
    const dialog = page.getByRole("dialog", { name: "Pay cash" });
    await dialog.getByRole("button", { name: "Exact" }).click();
    await dialog.getByRole("button", { name: "Complete sale" }).click();
    await page.getByRole("status").filter({ hasText: "Sale complete" }).waitFor();
    await till.waitForCart([]);
  };
  try {
    await till.signIn(world.shop.email);
    await till.openDrawer();
    await till.scan("5000112637922");
    await till.waitForCart([{ name: "Cola 330ml", qty: "1" }]);

    await page.getByRole("button", { name: "Live" }).click();
    const ask = page.getByRole("dialog", { name: "Switch to LIVE?" });
    await ask.waitFor();
    expect(await till.app.accessibilityViolations()).toEqual([]);
    await ask.getByRole("button", { name: "Keep the cart" }).click();
    expect(await page.locator(".world-badge").textContent()).toBe("TEST");
    await till.waitForCart([{ name: "Cola 330ml", qty: "1" }]);
    await payExact();

    await page.getByRole("button", { name: "Live" }).click();
    await page.locator(".world-live").waitFor();
    expect(await page.locator(".test-banner").count()).toBe(0);
    // Each world has its own drawer.
    await till.openDrawer();
    await till.scan("5000112637922");
    await till.scan("5000112637922");
    await page.getByRole("button", { name: "Test" }).click();
    await page.getByRole("dialog", { name: "Switch to TEST?" }).getByRole("button", { name: "Keep the cart" }).click();
    await payExact();
    expect(await till.app.accessibilityViolations()).toEqual([]);
    await till.waitForSynced();

    const live = (await world.api("live")<Sales>("GET", "/v1/sales")).body.data;
    const test = (await world.api("test")<Sales>("GET", "/v1/sales")).body.data;
    expect(live.map((sale) => [sale.livemode, sale.total_cents])).toEqual([[true, 300]]);
    expect(test.map((sale) => [sale.livemode, sale.total_cents])).toEqual([[false, 150]]);
    // Only the live sale moved on-hand.
    const product = await world.api("live")<{ stock_qty: number }>("GET", `/v1/products/${cola.id}`);
    expect(product.body.stock_qty).toBe(18);

    // Switching with items, confirmed: the cart is emptied and the world changes.
    await till.scan("5000112637922");
    await page.getByRole("button", { name: "Test" }).click();
    await page
      .getByRole("dialog", { name: "Switch to TEST?" })
      .getByRole("button", { name: "Empty cart and switch" })
      .click();
    await page.locator(".test-banner").waitFor();
    await till.waitForCart([]);
    expect(till.app.consoleErrors).toEqual([]);
    expect(externalRequests(till, world.platform.baseUrl)).toEqual([]);
  } finally {
    await till.close();
  }
});

test.each([
  ["a 1024×768 counter screen", { width: 1024, height: 768 }],
  ["a phone", { width: 390, height: 844 }],
])("usable on %s: the cart and pay buttons are reachable, nothing overflows sideways", async (_name, viewport) => {
  const till = await TillPage.open(world, { viewport });
  const { page } = till;
  try {
    await till.signIn(world.shop.email);
    await till.scan("5000112637922");
    await till.waitForCart([{ name: "Cola 330ml", qty: "1" }]);
    await page.getByRole("button", { name: "Pay cash" }).scrollIntoViewIfNeeded();
    expect(await page.getByRole("button", { name: "Pay cash" }).isVisible()).toBe(true);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await till.app.accessibilityViolations()).toEqual([]);
  } finally {
    await till.close();
  }
});
