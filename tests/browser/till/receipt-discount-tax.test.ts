/// <reference lib="dom" />
import { sql } from "../../../src/platform/db/pool.ts";
import { addProduct, startTillWorld, TillPage, type TillWorld } from "../../support/till.ts";

/**
 * The till's printed receipt of a discounted, taxed sale (issue 47, point 7): each line's discount with
 * its reason, the subtotal, the cart's discount with its reason, one line per tax rate and the shop's
 * VAT number, as the server's receipt page of the same sale shows them.
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

test("a discounted, taxed cash sale: the printed receipt shows the discounts with their reasons, the tax per rate and the VAT number, as the receipt page does", async () => {
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
    await page.getByTestId("cart-total").filter({ hasText: "USD 27.68" }).waitFor();
    await till.payCash("30.00");
    await page.getByRole("status").filter({ hasText: "Sale complete: USD 27.68" }).waitFor();

    // Printed as the cashier prints it, before or after the outbox has sent the sale.
    const sheet = page.getByRole("article", { name: "Printed receipt", includeHidden: true });
    await page.evaluate(() => document.documentElement.classList.add("printing-receipt"));
    await page.emulateMedia({ media: "print" });
    // The shop profile is read when the receipt shows.
    await sheet.getByText("VAT no. 10023456").waitFor();
    const printed = ((await sheet.textContent()) ?? "").replace(/\s+/g, " ");
    // Juice: 2300 − 10 % (230) − its share of the cart's 1.00 (81) = 1989; Bread 500 − 19 = 481, rate 0.
    for (const text of [
      "Moyo Grocer",
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
    await page.emulateMedia({ media: "screen" });
    await page.evaluate(() => document.documentElement.classList.remove("printing-receipt"));

    // The server's receipt page of the same sale says the same.
    await till.waitForSynced();
    const sales = await world.api("test")<{ data: { receipt_url: string }[] }>("GET", "/v1/sales");
    const receipt = await page.context().newPage();
    await receipt.goto(sales.body.data[0]?.receipt_url.replace(/^https?:\/\/[^/]+/, world.platform.baseUrl) ?? "");
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
