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
import { waitUntil } from "../../support/time.ts";

/**
 * A cash sale taken offline with a discount over the shop's limit (issue 47, point 3): replayed, the
 * server answers 403 manager_required; the outbox holds it for a manager, whose PIN approves it, and
 * the sale goes again under its key with the approval: recorded once, approved by the manager.
 */

let world: TillWorld;
let owner: OwnerCaller;

beforeAll(async () => {
  world = await startTillWorld();
  owner = await ownerSession(world);
  // A cashier may give at most 10 % off alone.
  await world.db.database.query(sql.unsafe`
    INSERT INTO shop_profiles (merchant_id, discount_limit_bp) VALUES (${world.shop.id}, 1000)`);
  await addProduct(world, { name: "Cola 330ml", price_cents: 1_000, barcode: "5000112637922" });
});
afterAll(() => world?.close());

const saleRows = () =>
  world.db.database.any(sql.type(z.object({ id: z.string(), total_cents: z.number(), actor_id: z.string() }))`
    SELECT id, total_cents, actor_id FROM sales WHERE merchant_id = ${world.shop.id} AND NOT livemode`);

test("an over-limit discount sold offline: back online the outbox asks for a manager, whose PIN sends it again, recorded once", async () => {
  const tendai = await owner<{ id: string }>("POST", "/v1/cashiers", { name: "Tendai", pin: "4821" });
  const rudo = await owner<{ id: string }>("POST", "/v1/cashiers", { name: "Rudo", pin: "190734", role: "manager" });
  const till = await TillPage.open(world);
  const { page, context } = till.app;
  // The sends the server answered (one tried while offline fails in the browser and is not one).
  const sends: { status: number; key: string; approval: string | undefined }[] = [];
  page.on("response", (response) => {
    const request = response.request();
    if (request.method() === "POST" && new URL(request.url()).pathname === "/v1/sales") {
      const headers = request.headers();
      sends.push({
        status: response.status(),
        key: headers["idempotency-key"] ?? "",
        approval: headers["pos-manager-approval"],
      });
    }
  });
  try {
    await till.pairAndSwitchIn(world.shop.email, { name: "Tendai", pin: "4821" });
    await till.openDrawer({ USD: "50" });
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
    await till.scan("5000112637922");
    await till.waitForCart([{ name: "Cola 330ml", qty: "1" }]);

    await context.setOffline(true);
    await page.getByText("Offline", { exact: true }).waitFor();
    await till.discount({ percent: "50", reason: "Damaged can" });
    await page.getByTestId("cart-total").filter({ hasText: "USD 5.00" }).waitFor();
    await till.payCash();
    await page.getByRole("status").filter({ hasText: "Sale complete: USD 5.00" }).waitFor();
    await page.getByRole("button", { name: "1 unsynced", exact: true }).waitFor();

    // Back online: refused for want of a manager, the sale waits in the outbox, asking for no PIN by itself.
    await context.setOffline(false);
    await page.getByRole("button", { name: "1 unsynced (1 need attention)", exact: true }).click();
    const outbox = page.getByRole("dialog", { name: "Unsynced sales" });
    const waiting = outbox.getByRole("region", { name: "Needs a manager (1)" });
    await waiting.getByText(/A manager's PIN is needed/).waitFor();
    expect(sends.map((send) => send.status)).toEqual([403]);
    expect(await saleRows()).toEqual([]);
    expect(await page.getByRole("dialog", { name: "A manager must approve this" }).count()).toBe(0);
    expect(await till.app.accessibilityViolations()).toEqual([]);

    await waiting.getByRole("button", { name: /^Approve USD 5\.00 cash/ }).click();
    const manager = page.getByRole("dialog", { name: "A manager must approve this" });
    await manager.getByText("A manager's PIN is needed for a discount over the limit.").waitFor();
    await manager.getByLabel("Manager's PIN").fill("190734");
    await manager.getByRole("button", { name: "Approve" }).click();
    await page.getByRole("button", { name: "0 unsynced", exact: true }).waitFor({ timeout: 30_000 });

    const sales = await saleRows();
    expect(sales).toEqual([{ id: expect.any(String), total_cents: 500, actor_id: tendai.body.id }]);
    // The same request again, under its own Idempotency-Key, with the approval.
    expect(sends.map((send) => send.status)).toEqual([403, 201]);
    expect(sends[1]?.key).toBe(sends[0]?.key);
    expect(sends[0]?.approval).toBeUndefined();
    expect(sends[1]?.approval).toMatch(/^mga_/);
    await waitUntil("the approval is audited", async () => {
      const approved = await world.db.database.any(sql.type(z.object({ actor_id: z.string(), target_id: z.string() }))`
        SELECT actor_id, target_id FROM audit_log WHERE merchant_id = ${world.shop.id} AND action = 'manager.approved'`);
      return approved.length === 1 && approved[0]?.actor_id === rudo.body.id && approved[0]?.target_id === sales[0]?.id;
    });
    expect(till.app.consoleErrors.filter((error) => !/403/.test(error))).toEqual([]);
  } finally {
    await till.close();
  }
});

test("an over-limit discount sold online: the manager's PIN is asked for at once, and the sale is recorded once", async () => {
  const till = await TillPage.open(world);
  const { page } = till;
  try {
    await till.pairAndSwitchIn(world.shop.email, { name: "Tendai", pin: "4821" }, "Counter 2");
    await till.openDrawer({ USD: "50" });
    const before = (await saleRows()).length;
    await till.scan("5000112637922");
    await till.waitForCart([{ name: "Cola 330ml", qty: "1" }]);
    await till.discount({ percent: "30" });
    await till.payCash();

    const manager = page.getByRole("dialog", { name: "A manager must approve this" });
    await manager.getByText("A manager's PIN is needed for a discount over the limit.").waitFor();
    await manager.getByLabel("Manager's PIN").fill("190734");
    await manager.getByRole("button", { name: "Approve" }).click();
    await till.waitForSynced();
    const sales = await saleRows();
    expect(sales).toHaveLength(before + 1);
    expect(sales.filter((sale) => sale.total_cents === 700)).toHaveLength(1);
  } finally {
    await till.close();
  }
});
