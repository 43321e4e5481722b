/// <reference lib="dom" />
import {
  addProduct,
  type OwnerCaller,
  ownerSession,
  startTillWorld,
  TillPage,
  type TillWorld,
} from "../../support/till.ts";

/**
 * Editing a product at the till (issue 47, point 1): a manager switched in changes a price and the till
 * sells at it at once; a cashier has no edit control, and the API refuses their PATCH (docs/security.md).
 */

let world: TillWorld;
let owner: OwnerCaller;

beforeAll(async () => {
  world = await startTillWorld();
  owner = await ownerSession(world);
  await addProduct(world, { name: "Cola 330ml", price_cents: 150, barcode: "5000112637922", category: "Drinks" });
});
afterAll(() => world?.close());

test("a manager edits a price at the till and sells at it; a cashier sees no edit control and is refused 403", async () => {
  await owner("POST", "/v1/cashiers", { name: "Tendai", pin: "4821" });
  await owner("POST", "/v1/cashiers", { name: "Rudo", pin: "190734", role: "manager" });
  const till = await TillPage.open(world);
  const { page } = till;
  try {
    await till.pairAndSwitchIn(world.shop.email, { name: "Rudo", pin: "190734" });
    await till.openDrawer({ USD: "50" });
    const tile = page.locator(".tile").filter({ hasText: "Cola 330ml" });
    await tile.getByText("USD 1.50").waitFor();

    await page.getByRole("button", { name: "Edit products" }).click();
    const picker = page.getByRole("dialog", { name: "Edit a product" });
    await picker.getByLabel("Find the product").fill("cola");
    await picker.getByRole("button", { name: "Edit Cola 330ml" }).click();
    const form = page.getByRole("dialog", { name: "Edit Cola 330ml" });
    expect(await form.getByLabel("Category").inputValue()).toBe("Drinks");
    await form.getByLabel("Price").fill("2.00");
    await form.getByLabel("Tax rate (%)").fill("15");
    expect(await till.app.accessibilityViolations()).toEqual([]);
    await form.getByRole("button", { name: "Save changes" }).click();
    // The tile shows the new price at once (the PATCH's answer goes into the till's catalog).
    await tile.getByText("USD 2.00").waitFor();
    expect(await form.count()).toBe(0);

    // A scan reaches the cart wherever the focus is (the editor gave scans back to Sell when it closed).
    await till.scan("5000112637922");
    await till.waitForCart([{ name: "Cola 330ml", qty: "1" }]);
    await till.payCash();
    await page.getByRole("status").filter({ hasText: "Sale complete: USD 2.00" }).waitFor();
    await till.waitForSynced();
    const sales = await world.api("test")<{ data: { total_cents: number; items: { unit_cents: number }[] }[] }>(
      "GET",
      "/v1/sales",
    );
    expect(sales.body.data[0]).toMatchObject({ total_cents: 200, items: [{ unit_cents: 200 }] });
    const products = await world.api("live")<{ data: { id: string; price_cents: number; tax_rate_bp: number }[] }>(
      "GET",
      "/v1/products",
    );
    const cola = products.body.data[0];
    expect(cola).toMatchObject({ price_cents: 200, tax_rate_bp: 1_500 });

    // Tendai, a cashier: no edit control, and the API refuses the change all the same.
    await page.getByRole("button", { name: "Switch cashier" }).click();
    await page.getByRole("button", { name: "Tendai" }).click();
    await page.getByLabel("PIN for Tendai").fill("4821");
    await page.getByLabel("PIN for Tendai").press("Enter");
    await page.getByText("Cashier: Tendai").waitFor();
    await tile.waitFor();
    expect(await page.getByRole("button", { name: "Edit products" }).count()).toBe(0);
    const refused = await page.evaluate(async (productId) => {
      const { csrf_token: csrf } = (await (await fetch("/v1/session")).json()) as { csrf_token: string };
      const response = await fetch(`/v1/products/${productId}`, {
        method: "PATCH",
        headers: { "content-type": "application/json", "pos-csrf-token": csrf, "pos-world": "test" },
        body: JSON.stringify({ price_cents: 1 }),
      });
      return { status: response.status, code: ((await response.json()) as { error: { code: string } }).error.code };
    }, cola?.id ?? "");
    expect(refused).toEqual({ status: 403, code: "manager_required" });
    const after = await world.api("live")<{ price_cents: number }>("GET", `/v1/products/${cola?.id}`);
    expect(after.body.price_cents).toBe(200);
    expect(till.app.consoleErrors).toEqual([]);
  } finally {
    await till.close();
  }
});
