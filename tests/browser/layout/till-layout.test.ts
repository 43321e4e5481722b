/// <reference lib="dom" />
import type { Page } from "playwright-core";
import { contentOutsideItsBox, SUPPORTED_SIZES, TILL_SCREENS } from "../../support/layout.ts";
import { addProduct, startTillWorld, TillPage, type TillWorld } from "../../support/till.ts";

let world: TillWorld;
const barcodes = Array.from({ length: 9 }, (_, index) => `600987654${String(3210 + index)}`);

beforeAll(async () => {
  world = await startTillWorld();
  for (const [index, barcode] of barcodes.entries()) {
    // Stock worth thousands per line, so the valuation's widest figures are on the Stock screen.
    await addProduct(world, {
      name: `Mealie meal 10 kg, bag ${index + 1}`,
      price_cents: 1_099 + index,
      barcode,
      stock_qty: 400 + index,
      low_stock_at: 5,
    });
  }
});
afterAll(() => world?.close());

/** "ok" when an element is wholly inside the window and the topmost thing at its centre is itself; else what is wrong. */
function inViewAndUncovered(page: Page, selector: string, name: string): Promise<string> {
  return page.evaluate(
    ({ selector, name }) => {
      const element = [...document.querySelectorAll(selector)].find(
        (candidate) => candidate.textContent?.trim() === name,
      );
      if (element === undefined) return "missing";
      const box = element.getBoundingClientRect();
      if (!(box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight && box.right <= innerWidth)) {
        return `outside the window: ${Math.round(box.left)},${Math.round(box.top)}–${Math.round(box.right)},${Math.round(box.bottom)} of ${innerWidth}×${innerHeight}`;
      }
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return hit !== null && element.contains(hit) ? "ok" : `covered by ${hit?.outerHTML.slice(0, 80)}`;
    },
    { selector, name },
  );
}

test("8+ cart lines: Total and Pay stay in view (the cart scrolls, not the page) at every supported size, a toast covering nothing", async () => {
  const till = await TillPage.open(world, { viewport: { width: 1024, height: 768 } });
  const { page } = till;
  try {
    await till.signIn(world.shop.email);
    for (const barcode of barcodes) await till.scan(barcode);
    await page
      .locator(".cart-line")
      .nth(barcodes.length - 1)
      .waitFor();
    // A toast while the cart is full: it must not sit on Pay.
    await till.scan("0000000000000");
    await page.getByRole("dialog").waitFor();
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "Parked (0)" }).click();
    await page.getByRole("dialog", { name: /Parked/ }).waitFor();
    await till.scan(barcodes[0] ?? "");
    await page.locator(".toast").first().waitFor();
    await page.keyboard.press("Escape");
    for (const size of SUPPORTED_SIZES) {
      await page.setViewportSize(size);
      for (const name of ["Pay cash", "Pay wallet"]) {
        expect([size, name, await inViewAndUncovered(page, "button", name)]).toEqual([size, name, "ok"]);
      }
      expect([
        size,
        await inViewAndUncovered(page, "output", (await page.getByTestId("cart-total").textContent()) ?? ""),
      ]).toEqual([size, "ok"]);
      // The page itself does not scroll: the cart's lines do.
      expect(await page.evaluate(() => document.documentElement.scrollHeight <= innerHeight)).toBe(true);
    }
    expect(till.app.consoleErrors).toEqual([]);
  } finally {
    await till.close();
  }
});

test("every till screen keeps its content inside its box at 1280×800, 1024×768 and 768×1024", async () => {
  const till = await TillPage.open(world);
  const { page } = till;
  try {
    await till.signIn(world.shop.email);
    for (const barcode of barcodes) await till.scan(barcode);
    const found: string[] = [];
    for (const size of SUPPORTED_SIZES) {
      await page.setViewportSize(size);
      for (const screen of TILL_SCREENS) {
        await page.getByRole("link", { name: screen, exact: true }).click();
        await page.waitForFunction(() => !(document.body.textContent ?? "").includes("Loading"), undefined, {
          timeout: 30_000,
        });
        if (screen === "Stock") {
          await page.getByRole("heading", { name: "Stock", exact: true }).waitFor();
          await till.scan(barcodes[8] ?? "");
          await page.getByTestId("stock-product").waitFor();
        }
        for (const problem of await contentOutsideItsBox(page))
          found.push(`${size.width}×${size.height} ${screen}: ${problem}`);
      }
    }
    expect(found).toEqual([]);
    expect(await till.app.accessibilityViolations()).toEqual([]);
  } finally {
    await till.close();
  }
});
