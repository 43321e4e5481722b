/// <reference lib="dom" />
import { addProduct, externalRequests, startTillWorld, TillPage, type TillWorld } from "../../support/till.ts";

/** Parked carts: a cart put aside while the next customer is served, resumed later on the same till. */

let world: TillWorld;
let cola: { id: string };
let bread: { id: string };

type Sale = { id: string; total_cents: number; items: { product_id: string; qty: number }[] };

beforeAll(async () => {
  world = await startTillWorld();
  cola = await addProduct(world, { name: "Cola 330ml", price_cents: 150, barcode: "5000112637922", stock_qty: 10 });
  bread = await addProduct(world, { name: "Bread loaf", price_cents: 120, barcode: "6001234567890", stock_qty: 10 });
});
afterAll(() => world?.close());

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
}

test("park a cart, sell to the next customer, resume the parked cart after a reload and sell it: two sales with their own lines", async () => {
  const till = await TillPage.open(world);
  const { page } = till;
  try {
    await till.signIn(world.shop.email);
    await till.openDrawer();
    await till.scan("5000112637922");
    await till.scan("5000112637922");
    await till.waitForCart([{ name: "Cola 330ml", qty: "2" }]);
    await page.getByRole("button", { name: "Park", exact: true }).click();
    await till.waitForCart([]);
    await page.getByRole("button", { name: "Parked (1)" }).waitFor();
    // The scan box has the focus back: the next customer's scan lands in the new cart.
    await page.waitForFunction(() => document.activeElement?.id === "scan-input");
    await till.scan("6001234567890");
    await till.waitForCart([{ name: "Bread loaf", qty: "1" }]);

    // With a cart in use, a parked cart cannot be resumed over it.
    await page.getByRole("button", { name: "Parked (1)" }).click();
    const dialog = page.getByRole("dialog", { name: "Parked carts" });
    await dialog.waitFor();
    expect(await dialog.getByRole("button", { name: /^Resume USD 3\.00, 2 items/ }).isDisabled()).toBe(true);
    expect(await till.app.accessibilityViolations()).toEqual([]);
    await dialog.getByRole("button", { name: "Close" }).click();
    await payCashExact(till, "USD 1.20");

    // The parked cart outlives a reload of the page.
    await page.reload();
    await page.waitForFunction(() => document.activeElement?.id === "scan-input");
    await page.getByRole("button", { name: "Parked (1)" }).click();
    await dialog.getByRole("button", { name: /^Resume USD 3\.00, 2 items/ }).click();
    await till.waitForCart([{ name: "Cola 330ml", qty: "2" }]);
    await page.getByRole("button", { name: "Parked (0)" }).waitFor();
    await payCashExact(till, "USD 3.00");
    await till.waitForSynced();

    const sales = (await world.api("test")<{ data: Sale[] }>("GET", "/v1/sales")).body.data;
    expect(sales.map((sale) => [sale.total_cents, sale.items.map((item) => [item.product_id, item.qty])])).toEqual([
      [300, [[cola.id, 2]]],
      [120, [[bread.id, 1]]],
    ]);
    expect(till.app.consoleErrors).toEqual([]);
    expect(externalRequests(till, world.platform.baseUrl)).toEqual([]);
  } finally {
    await till.close();
  }
});

test("a parked cart belongs to its world: parked in TEST, it is not offered in LIVE, and discarding removes it", async () => {
  const till = await TillPage.open(world);
  const { page } = till;
  try {
    await till.signIn(world.shop.email);
    await till.scan("6001234567890");
    await till.waitForCart([{ name: "Bread loaf", qty: "1" }]);
    await page.getByRole("button", { name: "Park", exact: true }).click();
    await page.getByRole("button", { name: "Parked (1)" }).waitFor();
    await page.getByRole("button", { name: "Live", exact: true }).click();
    await page.getByRole("button", { name: "Parked (0)" }).waitFor();
    await page.getByRole("button", { name: "Test", exact: true }).click();
    await page.getByRole("button", { name: "Parked (1)" }).click();
    const dialog = page.getByRole("dialog", { name: "Parked carts" });
    await dialog.getByRole("button", { name: /^Discard USD 1\.20, 1 item/ }).click();
    await dialog.getByText("No parked carts.").waitFor();
    await dialog.getByRole("button", { name: "Close" }).click();
    await page.getByRole("button", { name: "Parked (0)" }).waitFor();
    expect(till.app.consoleErrors).toEqual([]);
  } finally {
    await till.close();
  }
});
