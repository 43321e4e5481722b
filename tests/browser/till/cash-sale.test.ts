/// <reference lib="dom" />
import { addProduct, externalRequests, startTillWorld, TillPage, type TillWorld } from "../../support/till.ts";

let world: TillWorld;
let cola: { id: string };
let bread: { id: string };

type Sale = {
  id: string;
  status: string;
  tender: string;
  total_cents: number;
  livemode: boolean;
  items: { product_id: string; name: string; qty: number; unit_cents: number; line_total_cents: number }[];
};

beforeAll(async () => {
  world = await startTillWorld();
  cola = await addProduct(world, { name: "Cola 330ml", price_cents: 150, barcode: "5000112637922", stock_qty: 10 });
  bread = await addProduct(world, { name: "Bread loaf", price_cents: 120, barcode: "6001234567890", stock_qty: 10 });
});
afterAll(() => world?.close());

const onHand = async (productId: string) =>
  (await world.api("live")<{ stock_qty: number }>("GET", `/v1/products/${productId}`)).body.stock_qty;

test("cash with a quick tender: change due shown, the sale recorded with its lines, a new cart at once; TEST stock unchanged", async () => {
  const till = await TillPage.open(world);
  const { page } = till;
  try {
    await till.signIn(world.shop.email);
    await till.openDrawer();
    await till.scan("5000112637922");
    await till.scan("5000112637922");
    await till.scan("6001234567890");
    await till.waitForCart([
      { name: "Cola 330ml", qty: "2" },
      { name: "Bread loaf", qty: "1" },
    ]);
    // A reload in the middle of a sale keeps the cart.
    await page.reload();
    await page.waitForFunction(() => document.activeElement?.id === "scan-input");
    await till.waitForCart([
      { name: "Cola 330ml", qty: "2" },
      { name: "Bread loaf", qty: "1" },
    ]);
    await page.getByRole("button", { name: "Pay cash" }).click();
    const dialog = page.getByRole("dialog", { name: "Pay cash" });
    await dialog.waitFor();
    expect(await till.app.accessibilityViolations()).toEqual([]);
    // Quick tenders for USD 4.20: exact, and the next notes up.
    const quick = await dialog.locator(".quick-tenders button").allTextContents();
    expect(quick).toEqual(["Exact", "USD 5.00", "USD 6.00", "USD 10.00", "USD 20.00"]);
    await dialog.getByRole("button", { name: "USD 10.00" }).click();
    await dialog.getByText("Change due USD 5.80").waitFor();
    await dialog.getByRole("button", { name: "Complete sale" }).click();
    await page.getByRole("status").filter({ hasText: "change due USD 5.80" }).waitFor();
    await till.waitForCart([]);
    // The scan box takes the focus back once the dialog has closed (a timer after it).
    await page.waitForFunction(() => document.activeElement?.id === "scan-input", undefined, { timeout: 30_000 });

    await till.waitForSynced();
    const sales = await world.api("test")<{ data: Sale[] }>("GET", "/v1/sales");
    expect(sales.body.data).toHaveLength(1);
    expect(sales.body.data[0]).toMatchObject({
      status: "completed",
      tender: "cash",
      total_cents: 420,
      livemode: false,
      items: [
        { product_id: cola.id, name: "Cola 330ml", qty: 2, unit_cents: 150, line_total_cents: 300 },
        { product_id: bread.id, name: "Bread loaf", qty: 1, unit_cents: 120, line_total_cents: 120 },
      ],
    });
    // TEST sales never change stock.
    expect([await onHand(cola.id), await onHand(bread.id)]).toEqual([10, 10]);
    expect(till.app.consoleErrors).toEqual([]);
    expect(externalRequests(till, world.platform.baseUrl)).toEqual([]);
  } finally {
    await till.close();
  }
});

test("a sale whose answer is lost (connection cut after the server recorded it) is sent again by the outbox with the same key: one sale", async () => {
  const till = await TillPage.open(world);
  const { page } = till;
  const posted: string[] = [];
  try {
    await till.signIn(world.shop.email);
    await till.openDrawer();
    const before = (await world.api("test")<{ data: Sale[] }>("GET", "/v1/sales")).body.data.length;
    let cut = false;
    await page.route("**/v1/sales", async (route) => {
      const request = route.request();
      if (request.method() !== "POST") return route.continue();
      posted.push(request.headers()["idempotency-key"] ?? "");
      if (cut) return route.continue();
      cut = true;
      // The server receives and records the sale; the till never hears the answer.
      await route.fetch();
      return route.abort("connectionreset");
    });
    await till.scan("6001234567890");
    await till.waitForCart([{ name: "Bread loaf", qty: "1" }]);
    await page.getByRole("button", { name: "Pay cash" }).click();
    const dialog = page.getByRole("dialog", { name: "Pay cash" });
    await dialog.getByRole("button", { name: "Exact" }).click();
    await dialog.getByRole("button", { name: "Complete sale" }).click();
    await page.getByRole("status").filter({ hasText: "Sale complete: USD 1.20" }).waitFor();
    await till.waitForSynced();
    expect(posted).toHaveLength(2);
    expect(posted[0]).toBe(posted[1]);
    const after = (await world.api("test")<{ data: Sale[] }>("GET", "/v1/sales")).body.data;
    expect(after.length).toBe(before + 1);
    expect(after[0]).toMatchObject({ total_cents: 120, status: "completed" });
    expect(till.app.consoleErrors.filter((message) => !message.includes("ERR_CONNECTION_RESET"))).toEqual([]);
  } finally {
    await till.close();
  }
});
