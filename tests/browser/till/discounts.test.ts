/// <reference lib="dom" />
import { sql } from "../../../src/platform/db/pool.ts";
import { addProduct, startTillWorld, TillPage, type TillWorld } from "../../support/till.ts";

/** Discounts and tax at the till (issue 47): the cart prices as the API records, the receipt shows the tax. */

let world: TillWorld;

beforeAll(async () => {
  world = await startTillWorld();
  // Prices without tax, 15 % added on top unless a product says otherwise.
  await world.db.database.query(sql.unsafe`
    INSERT INTO shop_profiles (merchant_id, tax_mode, default_tax_rate_bp)
    VALUES (${world.shop.id}, 'exclusive', 1500)`);
  await addProduct(world, { name: "Juice", price_cents: 1_150, barcode: "6001234500011" });
  await addProduct(world, { name: "Bread", price_cents: 500, barcode: "6001234500028", tax_rate_bp: 0 });
});
afterAll(() => world?.close());

test("a discounted line and a cart discount, taxed, paid cash: the cart, the sale and its receipt agree", async () => {
  const till = await TillPage.open(world);
  const { page } = till;
  try {
    await till.signIn(world.shop.email);
    await till.openDrawer();
    await till.scan("6001234500011");
    await till.scan("6001234500011");
    await till.scan("6001234500028");
    await till.waitForCart([
      { name: "Juice", qty: "2" },
      { name: "Bread", qty: "1" },
    ]);

    await till.discount({ line: "Juice", percent: "10", reason: "Loyal customer" });
    await till.discount({ amount: "1.00" });
    // 2300 − 230 − 81 = 1989 at 15 % (298.35 → 298), 481 at 0 %: 2768.
    await page.getByTestId("cart-discount").filter({ hasText: "USD 3.30" }).waitFor();
    expect(await page.getByTestId("cart-tax-1500").textContent()).toBe("USD 2.98");
    expect(await page.getByTestId("cart-total").textContent()).toBe("USD 27.68");
    expect(await till.app.accessibilityViolations()).toEqual([]);

    await till.payCash();
    await page.getByRole("status").filter({ hasText: "Sale complete: USD 27.68" }).waitFor();
    await till.waitForSynced();

    const sales = await world.api("test")<{
      data: { total_cents: number; discount_cents: number; taxes: unknown[]; receipt_url: string }[];
    }>("GET", "/v1/sales");
    const sale = sales.body.data[0];
    expect(sale).toMatchObject({
      total_cents: 2_768,
      discount_cents: 330,
      taxes: [{ rate_bp: 1_500, taxable_cents: 1_989, tax_cents: 298 }],
    });
    const receipt = await page.context().newPage();
    await receipt.goto(sale?.receipt_url.replace(/^https?:\/\/[^/]+/, world.platform.baseUrl) ?? "");
    await receipt.getByText("Tax 15 % on USD 19.89").waitFor();
    expect(await receipt.locator(".tax").textContent()).toBe("Tax 15 % on USD 19.89 USD 2.98");
    await receipt.close();
  } finally {
    await till.close();
  }
});
