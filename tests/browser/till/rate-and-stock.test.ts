/// <reference lib="dom" />
import { z } from "zod";
import { sql } from "../../../src/platform/db/pool.ts";
import {
  addProduct,
  type OwnerCaller,
  ownerSession,
  startTillWorld,
  TillPage,
  type TillWorld,
} from "../../support/till.ts";

let world: TillWorld;
let owner: OwnerCaller;

beforeAll(async () => {
  world = await startTillWorld();
  owner = await ownerSession(world);
  await addProduct(world, { name: "Cola 330ml", price_cents: 150, stock_qty: 12, low_stock_at: 3 });
  await addProduct(world, { name: "Bread loaf", price_cents: 120, stock_qty: 2, low_stock_at: 3 });
  await addProduct(world, { name: "Phone charging", price_cents: 50, track_stock: false });
});
afterAll(() => world?.close());

test("the tiles show stock on hand, low stock marked; a cashier setting the rate is asked for a manager's PIN", async () => {
  const tendai = await owner<{ id: string }>("POST", "/v1/cashiers", { name: "Tendai", pin: "4821" });
  const rudo = await owner<{ id: string }>("POST", "/v1/cashiers", { name: "Rudo", pin: "190734", role: "manager" });
  const till = await TillPage.open(world);
  const { page } = till;
  try {
    // Paired once by the owner; then Tendai (a cashier) switches in by PIN.
    await till.pairAndSwitchIn(world.shop.email, { name: "Tendai", pin: "4821" });

    // Counted products show what is on hand, the low one marked; a service shows none.
    const tile = (name: string) => page.locator(".tile").filter({ hasText: name });
    await tile("Cola 330ml").getByText("12 in stock").waitFor();
    expect(await tile("Cola 330ml").locator(".tile-stock.low").count()).toBe(0);
    expect(await tile("Bread loaf").locator(".tile-stock.low").textContent()).toBe("2 in stock");
    await tile("Phone charging").waitFor();
    expect(await tile("Phone charging").locator(".tile-stock").count()).toBe(0);
    expect(await till.app.accessibilityViolations()).toEqual([]);

    await page.getByRole("link", { name: "Today" }).click();
    const section = page.getByRole("region", { name: "Rate of the day" });
    await section.getByRole("button", { name: "Set rate" }).click();
    const dialog = page.getByRole("dialog", { name: "Set the rate of the day" });
    await dialog.getByLabel("Rate", { exact: true }).fill("26.7843");
    await dialog.getByRole("button", { name: "Set rate" }).click();
    // Tendai is a cashier: the API answers manager_required and the manager's dialog asks for a PIN.
    const manager = page.getByRole("dialog", { name: "A manager must approve this" });
    await manager.getByText("A manager's PIN is needed for setting the rate of the day.").waitFor();
    expect(await till.app.accessibilityViolations()).toEqual([]);
    await manager.getByLabel("Manager's PIN").fill("190734");
    await manager.getByRole("button", { name: "Approve" }).click();
    await section.getByText(/^USD 1 = ZWG 26\.7843, set \d\d:\d\d by Tendai$/).waitFor();
    expect(await dialog.isVisible()).toBe(false);

    const rates = await world.api("test")<{ data: { rate: string; set_by: { id: string } }[] }>(
      "GET",
      "/v1/exchange_rates",
    );
    expect(rates.body.data).toMatchObject([{ rate: "26.7843", set_by: { id: tendai.body.id } }]);
    const approved = await world.db.database.any(sql.type(z.object({ actor_id: z.string(), target_type: z.string() }))`
      SELECT actor_id, target_type FROM audit_log WHERE merchant_id = ${world.shop.id} AND action = 'manager.approved'`);
    expect(approved).toEqual([{ actor_id: rudo.body.id, target_type: "exchange_rate" }]);
    expect(till.app.consoleErrors.filter((error) => !/403/.test(error))).toEqual([]);
  } finally {
    await till.close();
  }
});
