/// <reference lib="dom" />
import { z } from "zod";
import { sql } from "../../../src/platform/db/pool.ts";
import {
  addProduct,
  externalRequests,
  type OwnerCaller,
  ownerSession,
  startTillWorld,
  TillPage,
  type TillWorld,
} from "../../support/till.ts";
import { readUntil } from "../../support/time.ts";

let world: TillWorld;
let owner: OwnerCaller;

beforeAll(async () => {
  world = await startTillWorld();
  owner = await ownerSession(world);
  await addProduct(world, { name: "Cola 330ml", price_cents: 150, barcode: "5000112637922" });
});
afterAll(() => world?.close());

async function createCashier(name: string, pin: string): Promise<{ id: string }> {
  const created = await owner<{ id: string }>("POST", "/v1/cashiers", { name, pin });
  expect(created.status).toBe(201);
  return created.body;
}

/** Pairs the till (named `pairAs`, else "Counter") and waits for the PIN screen (a shop with cashiers). */
async function signInToPinScreen(till: TillPage, pairAs?: string): Promise<void> {
  const { page } = till;
  await page.goto(`${world.platform.baseUrl}/till`);
  if (pairAs !== undefined) {
    await page.getByLabel("Till name").fill(pairAs);
  }
  await page.getByLabel("Email").fill(world.shop.email);
  await page.getByLabel("Password").fill("correct horse battery");
  await page.getByRole("button", { name: "Pair this till", exact: true }).click();
  await page.getByRole("heading", { name: "Who is at the till?" }).waitFor();
}

async function payCashExact(till: TillPage): Promise<void> {
  const { page } = till;
  await page.getByRole("button", { name: "Pay cash" }).click();
  const dialog = page.getByRole("dialog", { name: "Pay cash" });
  await dialog.getByRole("button", { name: "Exact" }).click();
  await dialog.getByRole("button", { name: "Complete sale" }).click();
  await page.getByRole("status").filter({ hasText: "Sale complete" }).waitFor();
}

test("two cashiers on one till by PIN (keyboard and keypad): each sale records its cashier; the name is always shown; Today filters by cashier", async () => {
  const tendai = await createCashier("Tendai", "4821");
  const rudo = await createCashier("Rudo", "190734");
  const till = await TillPage.open(world);
  const { page } = till;
  try {
    // One paired device: the owner's password is typed once, at pairing; then the cashiers' PINs only.
    await signInToPinScreen(till, "Counter 1");
    expect(await till.app.accessibilityViolations()).toEqual([]);
    // Tendai types the PIN on the keyboard (a person's pace), Enter submits.
    await page.getByRole("button", { name: "Tendai" }).click();
    await page.waitForFunction(() => document.activeElement?.id === "pin-input");
    await till.typeSlowly("4821", { enter: true });
    await page.waitForFunction(() => document.activeElement?.id === "scan-input", undefined, { timeout: 30_000 });
    await page.locator(".current-cashier").filter({ hasText: "Tendai" }).waitFor();
    await till.openDrawer();
    await till.scan("5000112637922");
    await till.waitForCart([{ name: "Cola 330ml", qty: "1" }]);
    await payCashExact(till);
    // Switching cashier waits until Tendai's sale is on the server (it is sent under the session's cashier).
    await till.waitForSynced();

    // Switch cashier: the PIN screen; Rudo taps the PIN on the keypad.
    await page.getByRole("button", { name: "Switch cashier" }).click();
    await page.getByRole("heading", { name: "Who is at the till?" }).waitFor();
    await page.getByRole("button", { name: "Rudo" }).click();
    const keypad = page.getByRole("group", { name: "Keypad" });
    for (const digit of "190734") {
      await keypad.getByRole("button", { name: digit, exact: true }).click();
    }
    expect(await till.app.accessibilityViolations()).toEqual([]);
    await keypad.getByRole("button", { name: "OK" }).click();
    await page.locator(".current-cashier").filter({ hasText: "Rudo" }).waitFor();
    await page.waitForFunction(() => document.activeElement?.id === "scan-input", undefined, { timeout: 30_000 });
    await till.scan("5000112637922");
    await till.scan("5000112637922");
    await till.waitForCart([{ name: "Cola 330ml", qty: "2" }]);
    await payCashExact(till);
    // A cash sale shows complete once the outbox keeps it; the rows are read once it has been sent.
    await till.waitForSynced();

    const sales = await world.db.database.any(sql.type(
      z.object({ actor_type: z.string(), actor_id: z.string(), total_cents: z.number(), device: z.string() }),
    )`SELECT s.actor_type, s.actor_id, s.total_cents, d.name AS device
      FROM sales s JOIN till_devices d ON d.merchant_id = s.merchant_id AND d.id = s.till_id
      WHERE s.merchant_id = ${world.shop.id} ORDER BY s.created_at`);
    expect(sales).toEqual([
      { actor_type: "till_user", actor_id: tendai.id, total_cents: 150, device: "Counter 1" },
      { actor_type: "till_user", actor_id: rudo.id, total_cents: 300, device: "Counter 1" },
    ]);

    // Today, filtered by cashier: the takings and the recent sales are that cashier's.
    await page.getByRole("link", { name: "Today" }).click();
    await page.getByTestId("takings-USD").filter({ hasText: "USD 4.50" }).waitFor();
    await page.getByLabel("Cashier").selectOption({ label: "Tendai" });
    await page.getByTestId("takings-USD").filter({ hasText: "USD 1.50" }).waitFor();
    // The recent sales are a request of their own beside the takings' report, made again for the cashier.
    const recentSales = page.getByRole("button", { name: /^Lines of the sale/ });
    expect(await readUntil(() => recentSales.count(), 1)).toBe(1);
    await page.getByLabel("Cashier").selectOption({ label: "Rudo" });
    await page.getByTestId("takings-USD").filter({ hasText: "USD 3.00" }).waitFor();
    expect(await till.app.accessibilityViolations()).toEqual([]);
    expect(till.app.consoleErrors).toEqual([]);
    expect(externalRequests(till, world.platform.baseUrl)).toEqual([]);
  } finally {
    await till.close();
  }
});

test("five wrong PINs lock the cashier, shown on screen with the attempts left before; the till stays signed in; a disabled cashier is not listed", async () => {
  const farai = await createCashier("Farai", "5555");
  const nyasha = await createCashier("Nyasha", "2468");
  expect((await owner("POST", `/v1/cashiers/${nyasha.id}/disable`)).status).toBe(200);
  const till = await TillPage.open(world);
  const { page } = till;
  try {
    await signInToPinScreen(till);
    await page.getByRole("button", { name: "Farai" }).click();
    // A disabled cashier no longer works here: only the active and locked ones are listed.
    const listed = await page.getByRole("list", { name: "Cashiers" }).getByRole("button").allTextContents();
    expect(listed).toContain("Farai");
    expect(listed).not.toContain("Nyasha");
    const keypad = page.getByRole("group", { name: "Keypad" });
    const alert = page.getByRole("alert");
    for (const left of [4, 3, 2, 1]) {
      for (const digit of "1234") await keypad.getByRole("button", { name: digit, exact: true }).click();
      await keypad.getByRole("button", { name: "OK" }).click();
      await alert.filter({ hasText: `Wrong PIN: ${left} more wrong PINs lock Farai.` }).waitFor();
    }
    for (const digit of "1234") await keypad.getByRole("button", { name: digit, exact: true }).click();
    await keypad.getByRole("button", { name: "OK" }).click();
    await alert.filter({ hasText: "Farai is locked after 5 wrong PINs" }).waitFor();
    const locked = page.getByRole("button", { name: "Farai (locked)" });
    await locked.waitFor();
    expect(await locked.isDisabled()).toBe(true);
    await page.getByText("the owner unlocks them").waitFor();
    expect(await till.app.accessibilityViolations()).toEqual([]);

    const row = await world.db.database.one(sql.type(z.object({ failed: z.number(), locked: z.boolean() }))`
      SELECT failed_pin_attempts AS failed, locked_at IS NOT NULL AS locked FROM cashiers WHERE id = ${farai.id}`);
    expect(row).toEqual({ failed: 5, locked: true });
    // A wrong PIN is not a lost session: still the PIN screen, not the sign-in screen.
    await page.reload();
    await page.getByRole("heading", { name: "Who is at the till?" }).waitFor();
    expect(till.app.refusals.filter((refusal) => refusal.includes("/v1/session/cashier"))).toEqual([
      ...Array(4).fill("401 POST /v1/session/cashier"),
      "403 POST /v1/session/cashier",
    ]);
    expect(till.app.consoleErrors).toEqual([]);
  } finally {
    await till.close();
  }
});

test("while a sale taken offline is unsynced, switching cashier and unpairing the till wait; once it is sent, both work and the sale is the cashier's", async () => {
  const chipo = await createCashier("Chipo", "7777");
  const till = await TillPage.open(world);
  const { page, context } = till.app;
  try {
    await signInToPinScreen(till, "Counter 2");
    await page.getByRole("button", { name: "Chipo" }).click();
    await page.waitForFunction(() => document.activeElement?.id === "pin-input");
    await till.typeSlowly("7777", { enter: true });
    await page.locator(".current-cashier").filter({ hasText: "Chipo" }).waitFor();
    await till.openDrawer();

    await context.setOffline(true);
    await page.getByText("Offline", { exact: true }).waitFor();
    await till.scan("5000112637922");
    await till.waitForCart([{ name: "Cola 330ml", qty: "1" }]);
    await payCashExact(till);
    await page.getByRole("button", { name: "1 unsynced", exact: true }).waitFor();

    // Switching cashier is refused: the sale must reach the server under Chipo's name.
    await page.getByRole("button", { name: "Switch cashier" }).click();
    await page
      .getByText("1 sale taken offline is not on the server yet: switch cashier once they have synced.")
      .waitFor();
    expect(await page.locator(".current-cashier").textContent()).toContain("Chipo");
    // Unpairing waits too: the button is disabled and says why.
    await page.getByRole("link", { name: "This till" }).click();
    await page.getByRole("alert").filter({ hasText: "1 sale taken here is not on the server yet" }).waitFor();
    expect(await page.getByRole("button", { name: "Unpair this till" }).isDisabled()).toBe(true);
    expect(await till.app.accessibilityViolations()).toEqual([]);

    await context.setOffline(false);
    await till.waitForSynced();
    await page.getByRole("button", { name: "Unpair this till" }).and(page.locator(":enabled")).waitFor();
    await page.getByRole("button", { name: "Switch cashier" }).click();
    await page.getByRole("heading", { name: "Who is at the till?" }).waitFor();
    await page.getByRole("button", { name: "Chipo" }).click();
    await page.waitForFunction(() => document.activeElement?.id === "pin-input");
    await till.typeSlowly("7777", { enter: true });
    await page.locator(".current-cashier").filter({ hasText: "Chipo" }).waitFor();
    await page.getByRole("link", { name: "This till" }).click();
    await page.getByLabel("Owner's password").fill("correct horse battery");
    await page.getByRole("button", { name: "Unpair this till" }).click();
    await page.getByRole("heading", { name: "Pair this till", exact: true }).waitFor();

    const sales = await world.db.database.any(sql.type(z.object({ actor_id: z.string(), total_cents: z.number() }))`
      SELECT actor_id, total_cents FROM sales WHERE merchant_id = ${world.shop.id} AND actor_id = ${chipo.id}`);
    expect(sales).toEqual([{ actor_id: chipo.id, total_cents: 150 }]);
    const device = await world.db.database.one(sql.type(z.object({ revoked: z.boolean() }))`
      SELECT revoked_at IS NOT NULL AS revoked FROM till_devices WHERE merchant_id = ${world.shop.id} AND name = 'Counter 2'`);
    expect(device).toEqual({ revoked: true });
    expect(till.app.consoleErrors).toEqual([]);
    expect(externalRequests(till, world.platform.baseUrl)).toEqual([]);
  } finally {
    await till.close();
  }
});
