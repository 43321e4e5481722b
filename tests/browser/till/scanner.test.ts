/// <reference lib="dom" />
import { addProduct, externalRequests, startTillWorld, TillPage, type TillWorld } from "../../support/till.ts";

let world: TillWorld;
let till: TillPage;

beforeAll(async () => {
  world = await startTillWorld();
  await addProduct(world, { name: "Cola 330ml", price_cents: 150, barcode: "5000112637922", category: "Drinks" });
  await addProduct(world, { name: "Bread loaf", price_cents: 120, barcode: "6001234567890", category: "Bakery" });
  await addProduct(world, { name: "Tomatoes (kg)", price_cents: null, barcode: "2000000000015", category: "Produce" });
  till = await TillPage.open(world);
  await till.signIn(world.shop.email);
  await till.page.getByRole("button", { name: /Cola 330ml/ }).waitFor();
});
afterAll(async () => {
  await till?.close();
  await world?.close();
});
beforeEach(async () => {
  // Each test starts from an empty cart, the focus in the scan box. Lines are removed by keyboard: a
  // tap also gives the focus back to the scan box a moment later (a timer), which on a loaded machine
  // fired after a test had put the focus on a tile.
  const removes = till.page.getByRole("button", { name: /^Remove / });
  while ((await removes.count()) > 0) {
    await removes.first().press("Enter");
  }
  await till.waitForCart([]);
  await till.page.locator("#scan-input").focus();
});

test("a scan adds the right product; the same product again adds to its line; Tab ends a scan too", async () => {
  await till.scan("5000112637922");
  await till.waitForCart([{ name: "Cola 330ml", qty: "1" }]);
  await till.scan("6001234567890", { end: "Tab" });
  await till.scan("5000112637922");
  await till.waitForCart([
    { name: "Cola 330ml", qty: "2" },
    { name: "Bread loaf", qty: "1" },
  ]);
  expect(await till.page.getByTestId("cart-total").textContent()).toBe("USD 4.20");
  // The scan box was the focus and is empty again: the code went to the cart, not the box.
  expect(await till.page.locator("#scan-input").inputValue()).toBe("");
  expect(await till.page.evaluate(() => document.activeElement?.id)).toBe("scan-input");
});

test("a scan lands in the cart while the focus is in the search box, which keeps what was typed", async () => {
  const search = till.page.getByLabel("Search products");
  await search.click();
  await till.typeSlowly("Br");
  await till.scan("5000112637922");
  await till.waitForCart([{ name: "Cola 330ml", qty: "1" }]);
  expect(await search.inputValue()).toBe("Br");
  expect(await till.page.evaluate(() => document.activeElement?.id)).toBe("product-search");
  await search.fill("");
});

test("a scan never types into a quantity field: the field keeps its value and the product is added", async () => {
  await till.scan("6001234567890");
  await till.waitForCart([{ name: "Bread loaf", qty: "1" }]);
  const quantity = till.page.getByLabel("Quantity of Bread loaf");
  await quantity.click();
  await quantity.fill("3");
  await till.scan("5000112637922");
  await till.waitForCart([
    { name: "Bread loaf", qty: "3" },
    { name: "Cola 330ml", qty: "1" },
  ]);
  expect(await quantity.inputValue()).toBe("3");
  // Enter in the field commits it and the scan box takes the focus back.
  await quantity.press("Enter");
  await till.page.waitForFunction(() => document.activeElement?.id === "scan-input");
  expect(await till.page.getByTestId("cart-total").textContent()).toBe("USD 5.10");
  // A line removed by keyboard takes its buttons with it: the focus goes back to the scan box.
  await till.page.getByRole("button", { name: "Remove Bread loaf" }).press("Enter");
  await till.waitForCart([{ name: "Cola 330ml", qty: "1" }]);
  expect(await till.page.evaluate(() => document.activeElement?.id)).toBe("scan-input");
});

test("with the focus on a product tile, a scan's Enter does not press the tile", async () => {
  await till.page.getByRole("button", { name: /Bread loaf/ }).focus();
  await till.scan("5000112637922");
  await till.waitForCart([{ name: "Cola 330ml", qty: "1" }]);
  expect(await till.page.evaluate(() => document.activeElement?.textContent)).toContain("Bread loaf");
  // A pressed tile would have added its line by the time a second scan is in.
  await till.scan("5000112637922");
  await till.waitForCart([{ name: "Cola 330ml", qty: "2" }]);
});

test("slow human typing is not a scan: typing a barcode in the search box finds the product and adds nothing", async () => {
  const search = till.page.getByLabel("Search products");
  await search.click();
  await till.typeSlowly("6001234567890", { enter: true });
  await till.page.getByRole("button", { name: /Bread loaf/ }).waitFor();
  expect(await till.page.getByRole("button", { name: /Cola 330ml/ }).count()).toBe(0);
  expect(await search.inputValue()).toBe("6001234567890");
  expect(await till.cartLines()).toEqual([]);
  await search.fill("");
  // Tiles and the category filter add by touch.
  await till.page.getByLabel("Category").selectOption("Drinks");
  expect(await till.page.getByRole("button", { name: /Bread loaf/ }).count()).toBe(0);
  await till.page.getByRole("button", { name: /Cola 330ml/ }).click();
  await till.waitForCart([{ name: "Cola 330ml", qty: "1" }]);
  await till.page.getByLabel("Category").selectOption("");
});

test("a product priced at sale time asks for its price; an unknown barcode opens the new-product form and keeps the cart", async () => {
  await till.scan("2000000000015");
  const price = till.page.getByRole("dialog", { name: "Price of Tomatoes (kg)" });
  await price.waitFor();
  await price.getByLabel(/Unit price/).fill("2.35");
  await price.getByRole("button", { name: "Add to cart" }).click();
  await till.waitForCart([{ name: "Tomatoes (kg)", qty: "1" }]);

  await till.scan("7001234500017");
  const form = till.page.getByRole("dialog", { name: "New product" });
  await form.waitFor();
  expect(await form.getByLabel("Barcode").inputValue()).toBe("7001234500017");
  expect(await till.app.accessibilityViolations()).toEqual([]);
  await form.getByLabel("Name").fill("Peanut butter");
  await form.getByLabel("Price").fill("3.10");
  await form.getByRole("button", { name: "Save product" }).click();
  await till.waitForCart([
    { name: "Tomatoes (kg)", qty: "1" },
    { name: "Peanut butter", qty: "1" },
  ]);
  expect(await till.page.getByTestId("cart-total").textContent()).toBe("USD 5.45");
  const listed = await world.api("live")<{ data: { name: string; barcode: string }[] }>(
    "GET",
    "/v1/products?barcode=7001234500017",
  );
  expect(listed.body.data.map((product) => product.name)).toEqual(["Peanut butter"]);
  // The next scan of it is answered from the browser's catalog.
  await till.scan("7001234500017");
  await till.waitForCart([
    { name: "Tomatoes (kg)", qty: "1" },
    { name: "Peanut butter", qty: "2" },
  ]);
  expect(till.app.consoleErrors).toEqual([]);
  expect(externalRequests(till, world.platform.baseUrl)).toEqual([]);
  expect(await till.app.accessibilityViolations()).toEqual([]);
});
