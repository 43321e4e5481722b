/// <reference lib="dom" />
import { z } from "zod";
import { sql } from "../../../src/platform/db/pool.ts";
import { addProduct, externalRequests, startTillWorld, TillPage, type TillWorld } from "../../support/till.ts";
import { waitUntil } from "../../support/time.ts";

/**
 * Issue 46's double charge, replayed at the till: two items → Pay wallet → Close → add an item → Pay
 * wallet gave a second code while the first stayed payable, and both were paid. Now the first code
 * holds the cart until it is paid, expires or is cancelled, and the basket gives exactly one charge.
 */

let world: TillWorld;

beforeAll(async () => {
  world = await startTillWorld();
  await addProduct(world, { name: "Bread", price_cents: 2000, currency: "ZWG", barcode: "6001000000011" });
  await addProduct(world, { name: "Milk", price_cents: 2000, currency: "ZWG", barcode: "6001000000028" });
});
afterAll(() => world?.close());

const mockpay = (paymentId: string) =>
  fetch(`${world.platform.baseUrl}/checkout/${paymentId}/mockpay`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}",
  });

test("one basket, one wallet charge: the pending code locks the cart; Cancel payment frees it; the first code can no longer be paid", async () => {
  const till = await TillPage.open(world);
  const { page } = till;
  try {
    await till.signIn(world.shop.email);
    await till.scan("6001000000011");
    await till.scan("6001000000028");
    await till.waitForCart([
      { name: "Bread", qty: "1" },
      { name: "Milk", qty: "1" },
    ]);
    await page.getByRole("button", { name: "Pay wallet" }).click();
    const dialog = page.getByRole("dialog", { name: "Pay by wallet" });
    const firstCode = (await page.getByTestId("payment-code").textContent()) ?? "";
    // Grouped in threes as the checkout shows it (006 572 813).
    expect(firstCode).toMatch(/^\d{3} \d{3} \d{3}$/);
    await dialog.getByRole("button", { name: "Close" }).click();

    // The cart is held by the waiting payment: it says so, and an added item is refused.
    const held = page.getByTestId("cart-held");
    await held.filter({ hasText: `code ${firstCode}` }).waitFor();
    expect(await till.app.accessibilityViolations()).toEqual([]);
    await till.scan("6001000000011");
    await page.getByText("A wallet payment is waiting for this basket").first().waitFor();
    await till.waitForCart([
      { name: "Bread", qty: "1" },
      { name: "Milk", qty: "1" },
    ]);
    // Pay wallet again shows the same code, not a second one.
    await page.getByRole("button", { name: "Pay wallet" }).click();
    await page.getByTestId("payment-code").filter({ hasText: firstCode }).waitFor();
    await dialog.getByRole("button", { name: "Cancel payment" }).click();
    await held.waitFor({ state: "detached" });

    const first = await world.api("test")<{ data: { id: string; status: string; payment_id: string }[] }>(
      "GET",
      "/v1/sales",
    );
    expect(first.body.data.map((sale) => sale.status)).toEqual(["cancelled"]);
    const firstPaymentId = first.body.data[0]?.payment_id ?? "";
    // The first code can no longer be paid (the sandbox honours the void; mockpay is refused).
    expect((await mockpay(firstPaymentId)).status).toBe(409);

    // Now the basket can change: a third item, and a new code for the whole of it.
    await till.scan("6001000000011");
    await till.waitForCart([
      { name: "Bread", qty: "2" },
      { name: "Milk", qty: "1" },
    ]);
    await page.getByRole("button", { name: "Pay wallet" }).click();
    const secondCode = page.getByTestId("payment-code");
    await secondCode.waitFor();
    expect(await secondCode.textContent()).not.toBe(firstCode);
    await dialog.getByRole("button", { name: "Simulate customer paid (TEST)" }).click();
    await page.getByRole("status").filter({ hasText: "Sale complete: ZWG 60.00 by wallet" }).waitFor();
    await till.waitForCart([]);

    // Exactly one charge for the basket: one paid payment, one credit, one completed sale.
    const counts = await world.db.database.one(sql.type(
      z.object({ paid: z.number(), cancelled: z.number(), credits: z.number(), completed: z.number() }),
    )`
      SELECT
        (SELECT count(*)::int FROM payments WHERE merchant_id = ${world.shop.id} AND status = 'paid') AS paid,
        (SELECT count(*)::int FROM payments WHERE merchant_id = ${world.shop.id} AND status = 'cancelled') AS cancelled,
        (SELECT count(*)::int FROM ledger_transactions WHERE merchant_id = ${world.shop.id}) AS credits,
        (SELECT count(*)::int FROM sales WHERE merchant_id = ${world.shop.id} AND status = 'completed') AS completed`);
    expect(counts).toEqual({ paid: 1, cancelled: 1, credits: 1, completed: 1 });
    expect(till.app.consoleErrors).toEqual([]);
    expect(externalRequests(till, world.platform.baseUrl)).toEqual([]);
  } finally {
    await till.close();
  }
});

test("the held payment survives a reload; emptying the cart by switching worlds cancels it", async () => {
  const till = await TillPage.open(world);
  const { page } = till;
  try {
    await till.signIn(world.shop.email);
    await till.scan("6001000000028");
    await till.waitForCart([{ name: "Milk", qty: "1" }]);
    await page.getByRole("button", { name: "Pay wallet" }).click();
    const code = (await page.getByTestId("payment-code").textContent()) ?? "";
    await page.getByRole("dialog", { name: "Pay by wallet" }).getByRole("button", { name: "Close" }).click();
    await page.reload();
    await page
      .getByTestId("cart-held")
      .filter({ hasText: `code ${code}` })
      .waitFor();
    await till.waitForCart([{ name: "Milk", qty: "1" }]);

    await page.getByRole("button", { name: "Live" }).click();
    await page
      .getByRole("dialog", { name: "Switch to LIVE?" })
      .getByRole("button", { name: "Empty cart and switch" })
      .click();
    await page.locator(".world-live").waitFor();
    await page.getByTestId("cart-held").waitFor({ state: "detached" });
    // The cancel is sent as the cart empties; the screen may have changed before its answer.
    await waitUntil("the held sale is cancelled", async () => {
      const latest = await world.api("test")<{ data: { status: string }[] }>("GET", "/v1/sales?limit=1");
      return latest.body.data[0]?.status === "cancelled";
    });
    expect(till.app.consoleErrors).toEqual([]);
  } finally {
    await till.close();
  }
});
