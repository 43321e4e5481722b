/// <reference lib="dom" />
import { z } from "zod";
import { verifyPassword } from "../../../src/modules/merchants/passwords.ts";
import { sql } from "../../../src/platform/db/pool.ts";
import { servedBrowserWorld } from "../../support/browser-world.ts";
import { expectCleanSession, openDashboardPage, signInToDashboard } from "../../support/dashboard-page.ts";
import { newMerchant } from "../../support/factories.ts";
import { openTill, ownerSession, tillSession } from "../../support/shop-http.ts";
import { openAppPage } from "../../support/web-app.ts";

const world = servedBrowserWorld();

const cashierRow = (merchantId: string, name: string) =>
  world.db.database.one(
    sql.type(
      z.object({
        id: z.string(),
        pin_hash: z.string(),
        failed_pin_attempts: z.number(),
        locked_at: z.date().nullable(),
        disabled_at: z.date().nullable(),
      }),
    )`SELECT id, pin_hash, failed_pin_attempts, locked_at, disabled_at FROM cashiers
      WHERE merchant_id = ${merchantId} AND name = ${name}`,
  );

test("Cashiers: added with a PIN (stored hashed, never shown back), locked by 5 wrong PINs at a till, unlocked, disabled", async () => {
  const shop = await newMerchant(world.db.database);
  const app = await openAppPage(world.browser);
  const { page } = app;
  try {
    await signInToDashboard(app, world.platform.baseUrl, shop.email);
    await openDashboardPage(app, "Cashiers");
    await page.getByRole("cell", { name: "No cashiers yet." }).waitFor();
    expect(await app.accessibilityViolations()).toEqual([]);

    // Two PINs that differ are caught on the page; nothing is sent.
    await page.getByLabel("Name").fill("Tendai Moyo");
    await page.getByLabel("PIN", { exact: true }).fill("4821");
    await page.getByLabel("PIN again").fill("4812");
    await page.getByRole("button", { name: "Add cashier" }).click();
    await page.getByText("The two PINs differ.").waitFor();
    expect(await app.accessibilityViolations()).toEqual([]);
    await page.getByLabel("PIN again").fill("4821");
    await page.getByRole("button", { name: "Add cashier" }).click();
    await page.getByText("Tendai Moyo can now switch in on your tills.").waitFor();
    const row = page.getByRole("row").filter({ hasText: "Tendai Moyo" });
    await row.getByRole("cell", { name: "active" }).waitFor();
    // The form forgot the PIN, and the page never shows it.
    expect(await page.getByLabel("PIN", { exact: true }).inputValue()).toBe("");
    expect(await page.locator("body").textContent()).not.toContain("4821");

    const stored = await cashierRow(shop.id, "Tendai Moyo");
    expect(stored.pin_hash).not.toContain("4821");
    expect((await verifyPassword("4821", stored.pin_hash)).matches).toBe(true);
    expect((await verifyPassword("4812", stored.pin_hash)).matches).toBe(false);

    // At a paired till: five wrong PINs lock the cashier.
    const owner = await ownerSession(world.platform.baseUrl, shop.email);
    const till = await tillSession(world.platform.baseUrl, (await openTill(owner, "Front counter")).token);
    const answers: [number, string][] = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      const wrong = await till.call<{ error: { code: string } }>("POST", "/v1/session/cashier", {
        cashier_id: stored.id,
        pin: "0000",
      });
      answers.push([wrong.status, wrong.body.error.code]);
    }
    expect(answers.slice(0, 4)).toEqual(Array(4).fill([401, "invalid_pin"]));
    expect((await cashierRow(shop.id, "Tendai Moyo")).locked_at).not.toBeNull();

    await page.reload();
    await row.getByRole("cell", { name: "locked" }).waitFor();
    expect(await row.getByRole("cell").nth(3).textContent()).toBe("5"); // Name, Role, Status, Wrong PINs
    expect(await app.accessibilityViolations()).toEqual([]);
    await page.getByRole("button", { name: "Unlock Tendai Moyo" }).click();
    await row.getByRole("cell", { name: "active" }).waitFor();
    // The row reads active once the page has reloaded the list after the API's answer.
    const unlocked = await cashierRow(shop.id, "Tendai Moyo");
    expect([unlocked.locked_at, unlocked.failed_pin_attempts]).toEqual([null, 0]);
    expect((await till.call("POST", "/v1/session/cashier", { cashier_id: stored.id, pin: "4821" })).status).toBe(200);

    // Disabled, after a confirmation: the till stops acting as the cashier.
    await page.getByRole("button", { name: "Disable Tendai Moyo" }).click();
    const confirm = page.getByRole("dialog", { name: "Disable this cashier?" });
    await confirm.waitFor();
    expect(await app.accessibilityViolations()).toEqual([]);
    await confirm.getByRole("button", { name: "Disable cashier" }).click();
    await row.getByRole("cell", { name: "disabled" }).waitFor();
    expect((await cashierRow(shop.id, "Tendai Moyo")).disabled_at).not.toBeNull();
    const refused = await till.call<{ error: { code: string } }>("POST", "/v1/session/cashier", {
      cashier_id: stored.id,
      pin: "4821",
    });
    expect([refused.status, refused.body.error.code]).toEqual([403, "cashier_disabled"]);

    expect(app.refusals).toEqual(["401 GET /v1/session"]);
    expectCleanSession(app, world.platform.baseUrl);
  } finally {
    await app.close();
  }
});
