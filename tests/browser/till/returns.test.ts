/// <reference lib="dom" />
import { z } from "zod";
import { sql } from "../../../src/platform/db/pool.ts";
import { addProduct, externalRequests, startTillWorld, TillPage, type TillWorld } from "../../support/till.ts";

let world: TillWorld;

beforeAll(async () => {
  world = await startTillWorld();
  await addProduct(world, { name: "Cola 330ml", price_cents: 150, barcode: "5000112637922" });
  await addProduct(world, { name: "Bread loaf", price_cents: 120, barcode: "6001234567890" });
});
afterAll(() => world?.close());

test("returns from Today: sold and returned shown per line, never more than remains; a return whose answer is lost is retried with its key and recorded once", async () => {
  const till = await TillPage.open(world);
  const { page } = till;
  const keys: string[] = [];
  try {
    await till.signIn(world.shop.email);
    await till.openDrawer({ USD: "50" });
    await till.scan("5000112637922");
    await till.scan("5000112637922");
    await till.scan("5000112637922");
    await till.scan("6001234567890");
    await till.waitForCart([
      { name: "Cola 330ml", qty: "3" },
      { name: "Bread loaf", qty: "1" },
    ]);
    await page.getByRole("button", { name: "Pay cash" }).click();
    const pay = page.getByRole("dialog", { name: "Pay cash" });
    await pay.getByRole("button", { name: "Exact" }).click();
    await pay.getByRole("button", { name: "Complete sale" }).click();
    await page.getByRole("status").filter({ hasText: "Sale complete: USD 5.70" }).waitFor();
    // Today lists the server's sales: the return starts once the outbox has sent this one.
    await till.waitForSynced();

    // The first return's answer is lost after the server recorded it: the till retries with the same key.
    let cut = false;
    await page.route("**/v1/sales/*/returns", async (route) => {
      keys.push(route.request().headers()["idempotency-key"] ?? "");
      if (cut) return route.continue();
      cut = true;
      await route.fetch();
      return route.abort("connectionreset");
    });
    const openReturn = async () => {
      await page.getByRole("link", { name: "Today" }).click();
      await page
        .getByRole("button", { name: /^Lines of the sale/ })
        .first()
        .click();
      await page.getByRole("dialog", { name: "Sale" }).getByRole("button", { name: "Return items" }).click();
      return page.getByRole("dialog", { name: "Return items" });
    };
    let returning = await openReturn();
    await returning.getByRole("row", { name: /Cola 330ml 3 0/ }).waitFor();
    const colas = returning.getByLabel(/^Units of Cola 330ml to return/);
    // More than remains cannot be sent.
    await colas.fill("4");
    await returning.getByText("More than remains to return on a line.").waitFor();
    expect(await returning.getByRole("button", { name: "Return and refund" }).isDisabled()).toBe(true);
    await colas.fill("2");
    await returning.getByLabel("Units of Bread loaf to return (at most 1)").fill("1");
    await returning.getByText("Refund in cash USD 4.20").waitFor();
    await returning.getByRole("button", { name: "Return and refund" }).click();
    await returning.getByRole("status").filter({ hasText: "Refund due in cash: USD 4.20" }).waitFor();
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    // The return's receipt prints from this page, its dialog open: the receipt alone goes to paper.
    await page.evaluate(() => {
      window.print = () => document.documentElement.setAttribute("data-printed", "yes");
    });
    await returning.getByRole("button", { name: "Print receipt" }).click();
    expect(await page.locator("html").getAttribute("data-printed")).toBe("yes");
    await page.evaluate(() => document.documentElement.classList.add("printing-receipt"));
    await page.emulateMedia({ media: "print" });
    const sheet = page.getByRole("article", { name: "Printed receipt" });
    expect(await sheet.textContent()).toContain("Return receipt");
    expect(await sheet.textContent()).toContain("Refunded (cash) USD 4.20");
    expect(await page.getByRole("button", { name: "Done" }).isVisible()).toBe(false);
    await page.emulateMedia({ media: "screen" });
    await page.evaluate(() => document.documentElement.classList.remove("printing-receipt"));
    await returning.getByRole("button", { name: "Done" }).click();

    // The sale shows what came back; the next return offers only what remains.
    const sale = page.getByRole("dialog", { name: "Sale" });
    await sale
      .getByRole("table", { name: "Returned" })
      .getByRole("row", { name: /Cola 330ml 2 USD 3\.00/ })
      .waitFor();
    await sale.getByRole("button", { name: "Return items" }).click();
    returning = page.getByRole("dialog", { name: "Return items" });
    await returning.getByRole("row", { name: /Cola 330ml 3 2/ }).waitFor();
    expect(await returning.getByLabel("Units of Bread loaf to return (at most 0)").isDisabled()).toBe(true);
    await returning.getByLabel("Units of Cola 330ml to return (at most 1)").fill("1");
    await returning.getByRole("button", { name: "Return and refund" }).click();
    await returning.getByRole("status").filter({ hasText: "Refund due in cash: USD 1.50" }).waitFor();
    expect(keys).toHaveLength(3);
    expect(keys[2]).not.toBe(keys[0]);
    expect(await till.app.accessibilityViolations()).toEqual([]);

    const rows = await world.db.database.any(sql.type(z.object({ refund_cents: z.number(), till: z.boolean() }))`
      SELECT refund_cents, till_id IS NOT NULL AND shift_id IS NOT NULL AS till
      FROM sale_returns WHERE merchant_id = ${world.shop.id} ORDER BY created_at`);
    expect(rows).toEqual([
      { refund_cents: 420, till: true },
      { refund_cents: 150, till: true },
    ]);
    expect(till.app.consoleErrors).toEqual([]);
    expect(externalRequests(till, world.platform.baseUrl)).toEqual([]);
  } finally {
    await till.close();
  }
});

test("a sale older than the recent list is found by its receipt, its QR scanned or its number typed, and taken back", async () => {
  const api = world.api("test");
  const old = await api<{ id: string; receipt_url: string }>("POST", "/v1/sales", {
    tender: "cash",
    items: [{ name: "Kettle", qty: 1, unit_cents: 2_500 }],
  });
  expect(old.status).toBe(201);
  // Twenty later sales push it off Today's recent list.
  for (let index = 0; index < 20; index += 1) {
    await api("POST", "/v1/sales", { tender: "cash", items: [{ name: "Gum", qty: 1, unit_cents: 50 }] });
  }
  const till = await TillPage.open(world);
  const { page } = till;
  try {
    await till.signIn(world.shop.email);
    await till.openDrawer({ USD: "50" });
    await page.getByRole("link", { name: "Today" }).click();
    const recent = page.getByRole("table", { name: "The last 20 sales" });
    await recent
      .getByRole("row", { name: /USD 0\.50/ })
      .nth(19)
      .waitFor();
    expect(await recent.getByRole("row", { name: /USD 25\.00/ }).count()).toBe(0);
    const finder = page.getByLabel("Find a sale by its receipt");
    await finder.waitFor();

    // The receipt's QR code holds its link; the scanner types it wherever the focus is.
    await till.scan(old.body.receipt_url);
    const sale = page.getByRole("dialog", { name: "Sale" });
    await sale
      .getByRole("table", { name: "Lines" })
      .getByRole("row", { name: /Kettle 1 USD 25\.00/ })
      .waitFor();
    await sale.getByRole("button", { name: "Return items" }).click();
    const returning = page.getByRole("dialog", { name: "Return items" });
    await returning.getByLabel(/^Units of Kettle to return/).fill("1");
    await returning.getByRole("button", { name: "Return and refund" }).click();
    await returning.getByRole("status").filter({ hasText: "Refund due in cash: USD 25.00" }).waitFor();
    await returning.getByRole("button", { name: "Done" }).click();
    await sale.getByRole("button", { name: "Close" }).click();

    // The number printed on the receipt, typed: the same sale, now showing what came back.
    await finder.fill(old.body.id);
    await page.getByRole("button", { name: "Find", exact: true }).click();
    await sale
      .getByRole("table", { name: "Returned" })
      .getByRole("row", { name: /Kettle 1 USD 25\.00/ })
      .waitFor();
    await sale.getByRole("button", { name: "Close" }).click();

    await finder.fill(`${world.platform.baseUrl}/receipts/${"A".repeat(32)}`);
    await page.getByRole("button", { name: "Find", exact: true }).click();
    await page.getByText("Not found: no sale of this shop has that receipt.").waitFor();
    await finder.fill("the blue kettle");
    await page.getByRole("button", { name: "Find", exact: true }).click();
    // A miss is a miss, whatever was typed: "not found" first, not a format hint.
    await page.getByText('Not found: "the blue kettle" is no receipt of this shop.', { exact: false }).waitFor();
    expect(await till.app.accessibilityViolations()).toEqual([]);

    const rows = await world.db.database.any(sql.type(z.object({ refund_cents: z.number(), till: z.boolean() }))`
      SELECT refund_cents, till_id IS NOT NULL AND shift_id IS NOT NULL AS till
      FROM sale_returns WHERE sale_id = ${old.body.id}`);
    expect(rows).toEqual([{ refund_cents: 2_500, till: true }]);
    expect(till.app.consoleErrors).toEqual([]);
    expect(externalRequests(till, world.platform.baseUrl)).toEqual([]);
  } finally {
    await till.close();
  }
});
