/// <reference lib="dom" />
import { z } from "zod";
import { sql } from "../../../src/platform/db/pool.ts";
import { addProduct, externalRequests, startTillWorld, TillPage, type TillWorld } from "../../support/till.ts";
import { waitUntil } from "../../support/time.ts";

let world: TillWorld;
let rice: { id: string };

beforeAll(async () => {
  world = await startTillWorld();
  rice = await addProduct(world, {
    name: "Rice 2kg",
    price_cents: 350,
    barcode: "6009876543210",
    stock_qty: 4,
    low_stock_at: 5,
  });
});
afterAll(() => world?.close());

const onHand = async () =>
  (await world.api("live")<{ stock_qty: number }>("GET", `/v1/products/${rice.id}`)).body.stock_qty;
const movesOfKind = (kind: string, livemode: boolean) =>
  world.db.database.any(sql.type(z.object({ qty_delta: z.number() }))`
    SELECT qty_delta FROM stock_moves WHERE product_id = ${rice.id} AND kind = ${kind} AND livemode = ${livemode} ORDER BY seq`);

test("LIVE: scan-to-receive and a stocktake count change on-hand as the API reports; low stock and valuation shown", async () => {
  const till = await TillPage.open(world);
  const { page } = till;
  try {
    await till.signIn(world.shop.email);
    await page.getByRole("button", { name: "Live" }).click();
    await page.locator(".world-live").waitFor();
    await page.getByRole("link", { name: "Stock" }).click();
    await page.getByRole("heading", { name: "Stock", exact: true }).waitFor();
    // Low stock: 4 on hand at a threshold of 5; valuation 4 × 3.50.
    await page.getByRole("cell", { name: "Rice 2kg" }).waitFor();
    await page.getByRole("cell", { name: "USD 14.00" }).waitFor();
    expect(await till.app.accessibilityViolations()).toEqual([]);

    await till.scan("6009876543210");
    const card = page.getByTestId("stock-product");
    await card.getByRole("heading", { name: "Rice 2kg" }).waitFor();
    await card.getByLabel("Units received").fill("12");
    await card.getByRole("button", { name: "Receive" }).click();
    await page.getByTestId("on-hand").filter({ hasText: "16" }).waitFor();
    expect(await onHand()).toBe(16);
    await page.getByRole("cell", { name: "USD 56.00" }).waitFor();

    await card.getByLabel("Counted on hand").fill("15");
    await card.getByRole("button", { name: "Save count" }).click();
    await page.getByTestId("on-hand").filter({ hasText: "15" }).waitFor();
    expect(await onHand()).toBe(15);
    expect((await movesOfKind("receive", true)).map((move) => move.qty_delta)).toEqual([12]);
    expect(await till.app.accessibilityViolations()).toEqual([]);
    expect(till.app.consoleErrors).toEqual([]);
    expect(externalRequests(till, world.platform.baseUrl)).toEqual([]);
  } finally {
    await till.close();
  }
});

test("a receipt whose answer is lost is retried with the same key: one receipt; in TEST a receipt leaves on-hand alone", async () => {
  const till = await TillPage.open(world);
  const { page } = till;
  try {
    await till.signIn(world.shop.email);
    await page.getByRole("button", { name: "Live" }).click();
    await page.getByRole("link", { name: "Stock" }).click();
    // Stock takes scans once its report is shown: the report's request and the screen's scan handler
    // start in the same effects, which run only after its first render (its chunk loaded on demand).
    const valuation = page.getByRole("table", { name: "Valuation at current prices" });
    await valuation.waitFor();
    const before = await onHand();
    const keys: string[] = [];
    let cut = false;
    await page.route("**/v1/stock/receive", async (route) => {
      keys.push(route.request().headers()["idempotency-key"] ?? "");
      if (cut) return route.continue();
      cut = true;
      await route.fetch();
      return route.abort("connectionreset");
    });
    await till.scan("6009876543210");
    const card = page.getByTestId("stock-product");
    await card.getByLabel("Units received").fill("3");
    await card.getByRole("button", { name: "Receive" }).click();
    await page
      .getByTestId("on-hand")
      .filter({ hasText: String(before + 3) })
      .waitFor();
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
    expect(await onHand()).toBe(before + 3);
    expect((await movesOfKind("receive", true)).map((move) => move.qty_delta)).toEqual([12, 3]);

    await page.getByRole("button", { name: "Test" }).click();
    // The screen is made again for TEST: its scans reach it once its own report is in.
    await page.getByText("TEST: receipts and counts are journaled as practice").waitFor();
    await valuation.waitFor();
    await till.scan("6009876543210");
    await card.getByLabel("Units received").fill("50");
    await card.getByRole("button", { name: "Receive" }).click();
    // Its toast says what TEST did: journaled as practice, on-hand as it was (not "now 65 on hand").
    await page
      .getByText(`TEST: receive of 50 for`)
      .filter({ hasText: `on hand stays ${before + 3}.` })
      .waitFor();
    await waitUntil("the test receipt is journaled", async () => (await movesOfKind("receive", false)).length > 0);
    expect((await movesOfKind("receive", false)).map((move) => move.qty_delta)).toEqual([50]);
    expect(await onHand()).toBe(before + 3);
  } finally {
    await till.close();
  }
});
