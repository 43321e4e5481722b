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
  await addProduct(world, { name: "Cola 330ml", price_cents: 150, barcode: "5000112637922" });
});
afterAll(() => world?.close());

test("a cashier's return is refused until a manager's PIN approves it, then it goes through with the same key", async () => {
  const tendai = await owner<{ id: string }>("POST", "/v1/cashiers", { name: "Tendai", pin: "4821" });
  const rudo = await owner<{ id: string }>("POST", "/v1/cashiers", { name: "Rudo", pin: "190734", role: "manager" });
  const till = await TillPage.open(world);
  const { page } = till;
  const keys: string[] = [];
  try {
    // Paired once by the owner; then Tendai (a cashier) switches in by PIN.
    await till.pairAndSwitchIn(world.shop.email, { name: "Tendai", pin: "4821" });

    await till.openDrawer({ USD: "50" });
    await till.scan("5000112637922");
    await page.getByRole("button", { name: "Pay cash" }).click();
    const pay = page.getByRole("dialog", { name: "Pay cash" });
    await pay.getByRole("button", { name: "Exact" }).click();
    await pay.getByRole("button", { name: "Complete sale" }).click();
    await page.getByRole("status").filter({ hasText: "Sale complete" }).waitFor();
    await till.waitForSynced();

    await page.route("**/v1/sales/*/returns", (route) => {
      keys.push(route.request().headers()["idempotency-key"] ?? "");
      return route.continue();
    });
    await page.getByRole("link", { name: "Today" }).click();
    await page
      .getByRole("button", { name: /^Lines of the sale/ })
      .first()
      .click();
    await page.getByRole("dialog", { name: "Sale" }).getByRole("button", { name: "Return items" }).click();
    const returning = page.getByRole("dialog", { name: "Return items" });
    await returning.getByLabel(/^Units of Cola 330ml to return/).fill("1");
    await returning.getByRole("button", { name: "Return and refund" }).click();

    // Refused: the manager dialog asks; a wrong PIN stays in it with its message.
    const manager = page.getByRole("dialog", { name: "A manager must approve this" });
    await manager.getByText("A manager's PIN is needed for a return.").waitFor();
    expect(await manager.getByRole("button", { name: "Tendai" }).count()).toBe(0);
    await manager.getByLabel("Manager's PIN").fill("000000");
    await manager.getByRole("button", { name: "Approve" }).click();
    await manager.getByText(/Wrong PIN/).waitFor();
    expect(await till.app.accessibilityViolations()).toEqual([]);
    await manager.getByLabel("Manager's PIN").fill("190734");
    await manager.getByRole("button", { name: "Approve" }).click();
    await returning.getByRole("status").filter({ hasText: "Refund due in cash: USD 1.50" }).waitFor();
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);

    const approved = await world.db.database.any(sql.type(z.object({ actor_id: z.string(), target_type: z.string() }))`
      SELECT actor_id, target_type FROM audit_log WHERE merchant_id = ${world.shop.id} AND action = 'manager.approved'`);
    expect(approved).toEqual([{ actor_id: rudo.body.id, target_type: "sale_return" }]);
    const returned = await world.db.database.oneFirst(sql.type(z.object({ actor_id: z.string() }))`
      SELECT actor_id FROM sale_returns WHERE merchant_id = ${world.shop.id}`);
    expect(returned).toBe(tendai.body.id);
    expect(till.app.consoleErrors.filter((error) => !/403/.test(error))).toEqual([]);
  } finally {
    await till.close();
  }
});
