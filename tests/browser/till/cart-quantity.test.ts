/// <reference lib="dom" />
import { addProduct, startTillWorld, TillPage, type TillWorld } from "../../support/till.ts";

let world: TillWorld;

beforeAll(async () => {
  world = await startTillWorld();
  await addProduct(world, { name: "Tomatoes per kg", price_cents: 180, barcode: "2000000001809" });
});
afterAll(() => world?.close());

test("a decimal quantity (1.5 of a per-kg item) is refused with a message, never cut to 1 without a word", async () => {
  const till = await TillPage.open(world, { viewport: { width: 1024, height: 768 } });
  const { page } = till;
  try {
    await till.signIn(world.shop.email);
    await till.scan("2000000001809");
    await till.waitForCart([{ name: "Tomatoes per kg", qty: "1" }]);
    const qty = page.getByLabel("Quantity of Tomatoes per kg");
    await qty.fill("1.5");
    await qty.press("Enter");
    await page.getByRole("alert").filter({ hasText: "1.5 is not a whole number: the quantity stays 1." }).waitFor();
    expect(await qty.getAttribute("aria-invalid")).toBe("true");
    await till.waitForCart([{ name: "Tomatoes per kg", qty: "1" }]);
    expect(await till.app.accessibilityViolations()).toEqual([]);

    // A whole number is taken, and the message goes.
    await qty.fill("3");
    await qty.press("Enter");
    await till.waitForCart([{ name: "Tomatoes per kg", qty: "3" }]);
    await page.getByRole("alert").filter({ hasText: "not a whole number" }).waitFor({ state: "detached" });
    expect(till.app.consoleErrors).toEqual([]);
  } finally {
    await till.close();
  }
});
