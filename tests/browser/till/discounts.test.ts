/// <reference lib="dom" />
import { sql } from "../../../src/platform/db/pool.ts";
import { addProduct, startTillWorld, TillPage, type TillWorld } from "../../support/till.ts";

/**
 * Discounts and tax at the till (issue 47): the cart prices as the API records; the till's printed
 * receipt shows each line's discount with its reason, the subtotal, the cart's discount with its
 * reason, one line per tax rate and the shop's VAT number, as the server's receipt page does.
 */

let world: TillWorld;

beforeAll(async () => {
  world = await startTillWorld();
  // Prices without tax, 15 % added on top unless a product says otherwise.
  await world.db.database.query(sql.unsafe`
    INSERT INTO shop_profiles (merchant_id, display_name, tax_number, tax_mode, default_tax_rate_bp)
    VALUES (${world.shop.id}, 'Moyo Grocer', '10023456', 'exclusive', 1500)`);
  await addProduct(world, { name: "Juice", price_cents: 1_150, barcode: "6001234500011" });
  await addProduct(world, { name: "Bread", price_cents: 500, barcode: "6001234500028", tax_rate_bp: 0 });
});
afterAll(() => world?.close());

test("a discounted line and a cart discount, taxed, paid cash: the cart, the sale, its printed receipt and its receipt page agree", async () => {
  const till = await TillPage.open(world);
  const { page } = till;
  try {
    await page.addInitScript(() => {
      window.print = () => {};
    });
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
    await till.discount({ amount: "1.00", reason: "Staff" });
    // 2300 − 230 − 81 = 1989 at 15 % (298.35 → 298), 481 at 0 %: 2768.
    await page.getByTestId("cart-discount").filter({ hasText: "USD 3.30" }).waitFor();
    expect(await page.getByTestId("cart-tax-1500").textContent()).toBe("USD 2.98");
    expect(await page.getByTestId("cart-total").textContent()).toBe("USD 27.68");
    expect(await till.app.accessibilityViolations()).toEqual([]);

    await till.payCash("30.00");
    await page.getByRole("status").filter({ hasText: "Sale complete: USD 27.68" }).waitFor();
    // Printed as the cashier prints it, before or after the outbox has sent the sale.
    const printed = await till.printedReceipt("VAT no. 10023456");
    // Juice: 2300 − 10 % (230) − its share of the cart's 1.00 (81) = 1989; Bread 500 − 19 = 481, rate 0.
    for (const text of [
      "Moyo Grocer",
      "VAT no. 10023456",
      "Juice @ USD 11.50 Discount −USD 3.11 (Loyal customer)",
      "Bread @ USD 5.00 Discount −USD 0.19",
      "Subtotal USD 28.00",
      "Discounts (Staff) −USD 3.30",
      "Tax 15 % on USD 19.89 USD 2.98",
      "Total USD 27.68",
      "Cash tendered USD 30.00",
      "Change USD 2.32",
    ]) {
      expect(printed).toContain(text);
    }
    expect(printed).not.toContain("Tax 0 %");
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
    // Every discount, tax and total line of the receipt page is on the printed receipt, as it reads there.
    const served = await receipt
      .locator(".tax-number, small.discount, .subtotal, .discounts, .tax, .total")
      .evaluateAll((elements) => elements.map((element) => (element.textContent ?? "").replace(/\s+/g, " ").trim()));
    await receipt.close();
    expect(served).toHaveLength(7);
    for (const text of served) {
      expect(printed).toContain(text);
    }
    expect(till.app.consoleErrors).toEqual([]);
  } finally {
    await till.close();
  }
});
