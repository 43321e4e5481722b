/// <reference lib="dom" />
import { readFile } from "node:fs/promises";
import { z } from "zod";
import { sql } from "../../../src/platform/db/pool.ts";
import {
  addProduct,
  externalRequests,
  ownerSession,
  PASSWORD,
  startTillWorld,
  TillPage,
  type TillWorld,
} from "../../support/till.ts";
import { waitUntil } from "../../support/time.ts";

/**
 * Offline cash sales (issue 25, point 3): the till keeps selling for cash without the network, opens
 * from its service worker on a reload, and replays its outbox exactly once, with each sale's own time,
 * when the network is back; a sale the server refuses stays with the cashier until exported and dismissed.
 */

let world: TillWorld;
let cola: { id: string };
let bread: { id: string };

beforeAll(async () => {
  world = await startTillWorld();
  cola = await addProduct(world, { name: "Cola 330ml", price_cents: 150, barcode: "5000112637922", stock_qty: 10 });
  bread = await addProduct(world, { name: "Bread loaf", price_cents: 120, barcode: "6001234567890", stock_qty: 10 });
});
afterAll(() => world?.close());

const saleRows = () =>
  world.db.database.any(sql.type(
    z.object({
      client_sale_id: z.string().nullable(),
      taken_at: z.date().nullable(),
      completed_at: z.date().nullable(),
      total_cents: z.number(),
      items: z.array(z.object({ product_id: z.string(), qty: z.number() })),
    }),
  )`
    SELECT client_sale_id, taken_at, completed_at, total_cents, items FROM sales
    WHERE merchant_id = ${world.shop.id} AND NOT livemode ORDER BY taken_at, id`);

/** The page's products in IndexedDB (the catalog the till sells from offline). */
const keptProducts = (till: TillPage) =>
  till.page.evaluate(
    (name) =>
      new Promise<number>((resolve) => {
        const opening = indexedDB.open(name);
        opening.onsuccess = () => {
          const database = opening.result;
          if (!database.objectStoreNames.contains("products")) return resolve(0);
          const counting = database.transaction("products").objectStore("products").count();
          counting.onsuccess = () => resolve(counting.result);
        };
        opening.onerror = () => resolve(0);
      }),
    `till-catalog-${world.shop.id}`,
  );

async function sellCashExact(till: TillPage, barcode: string, name: string): Promise<void> {
  const { page } = till;
  await till.scan(barcode);
  await till.waitForCart([{ name, qty: "1" }]);
  await page.getByRole("button", { name: "Pay cash" }).click();
  const dialog = page.getByRole("dialog", { name: "Pay cash" });
  await dialog.getByRole("button", { name: "Exact" }).click();
  await dialog.getByRole("button", { name: "Complete sale" }).click();
  await till.waitForCart([]);
}

const unsyncedBadge = (till: TillPage, text: string) => till.page.getByRole("button", { name: text, exact: true });

test("three cash sales offline, a reload offline, back online: exactly three sales with their own times, none doubled by a lost answer or an expired key", async () => {
  const till = await TillPage.open(world);
  const { page, context } = till.app;
  try {
    await till.signIn(world.shop.email);
    await till.openDrawer();
    // The service worker controls the page and the catalog is in IndexedDB: the till can go offline.
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
    await waitUntil("the catalog is kept in the browser", async () => (await keptProducts(till)) === 2);
    await unsyncedBadge(till, "0 unsynced").waitFor();

    await context.setOffline(true);
    await page.getByText("Offline", { exact: true }).waitFor();
    // Wallet needs the network; the message says so and cash stays available.
    await till.scan("5000112637922");
    await till.waitForCart([{ name: "Cola 330ml", qty: "1" }]);
    expect(await page.getByRole("button", { name: "Pay wallet" }).isDisabled()).toBe(true);
    await page.getByText("Wallet payments need the network — take cash or wait").waitFor();
    expect(await page.getByRole("button", { name: "Pay cash" }).isEnabled()).toBe(true);
    await page.getByRole("button", { name: "Remove Cola 330ml" }).click();
    await till.waitForCart([]);

    // Three sales, each rung up between two readings of the clock (the browser's and this process's agree).
    const rungUp: { after: number; before: number }[] = [];
    for (const index of [1, 2, 3]) {
      const after = Date.now();
      await sellCashExact(till, "5000112637922", "Cola 330ml");
      await page.getByRole("status").filter({ hasText: "Sale complete: USD 1.50 by cash" }).waitFor();
      await unsyncedBadge(till, `${index} unsynced`).waitFor();
      rungUp.push({ after, before: Date.now() });
    }
    expect(await saleRows()).toEqual([]);

    // Unpairing is refused while sales are unsynced, unless they are exported first.
    await page.getByRole("link", { name: "This till" }).click();
    await page.getByText("3 sales taken here are not on the server yet").waitFor();
    expect(await page.getByRole("button", { name: "Unpair this till" }).isDisabled()).toBe(true);
    expect(await till.app.accessibilityViolations()).toEqual([]);
    await page.getByRole("link", { name: "Sell" }).click();

    // Reloaded while still offline: the service worker serves the till, the browser's session and catalog run it.
    await page.reload();
    await page.waitForFunction(() => document.activeElement?.id === "scan-input", undefined, { timeout: 30_000 });
    await unsyncedBadge(till, "3 unsynced").waitFor();
    await page.getByText("Offline", { exact: true }).waitFor();
    await till.scan("5000112637922");
    await till.waitForCart([{ name: "Cola 330ml", qty: "1" }]);
    await page.getByRole("button", { name: "Remove Cola 330ml" }).click();
    await till.waitForCart([]);
    await unsyncedBadge(till, "3 unsynced").click();
    const outbox = page.getByRole("dialog", { name: "Unsynced sales" });
    await outbox.getByText("Waiting to be sent (3)").waitFor();
    expect(await till.app.accessibilityViolations()).toEqual([]);
    await outbox.getByRole("button", { name: "Close" }).click();

    // Back online. The first replay's answer is lost after the server recorded the sale; the second's
    // too, and its Idempotency-Key is then deleted (as the 48-hour purge would): only client_sale_id is left.
    const attempts: { clientSaleId: string; key: string; takenAt: string }[] = [];
    const onlineAt = Date.now();
    await page.route("**/v1/sales", async (route) => {
      const request = route.request();
      if (request.method() !== "POST") return route.continue();
      const body = request.postDataJSON() as { client_sale_id: string; taken_at: string };
      const key = request.headers()["idempotency-key"] ?? "";
      attempts.push({ clientSaleId: body.client_sale_id, key, takenAt: body.taken_at });
      const sent = new Set(attempts.map((attempt) => attempt.clientSaleId));
      const firstAttempt = attempts.filter((attempt) => attempt.clientSaleId === body.client_sale_id).length === 1;
      if (!firstAttempt || sent.size > 2) return route.continue();
      const response = await route.fetch();
      expect(response.status()).toBe(201);
      if (sent.size === 2) {
        await world.db.database.query(sql.unsafe`
          DELETE FROM idempotency_keys WHERE merchant_id = ${world.shop.id} AND key = ${key}`);
      }
      return route.abort("connectionreset");
    });
    await context.setOffline(false);
    // The page reloaded offline may never hear an "online" event (its navigator.onLine can stay true
    // under the emulation): then its retry timer finds the API, within its 30 s cap.
    await unsyncedBadge(till, "0 unsynced").waitFor({ timeout: 90_000 });
    const replayMs = Date.now() - onlineAt;

    const rows = await saleRows();
    expect(rows).toHaveLength(3);
    // Each sale is dated when it was rung up (offline, minutes before it reached the server), to the millisecond.
    const takenAtMs = attempts.filter((_, index) => [0, 2, 4].includes(index)).map((a) => Date.parse(a.takenAt));
    expect(rows.map((row) => [row.taken_at?.getTime(), row.completed_at?.getTime(), row.total_cents])).toEqual(
      takenAtMs.map((at) => [at, at, 150]),
    );
    takenAtMs.forEach((at, index) => {
      expect(at).toBeGreaterThanOrEqual(rungUp[index]?.after ?? Number.NaN);
      expect(at).toBeLessThanOrEqual(rungUp[index]?.before ?? Number.NaN);
      expect(at).toBeLessThan(onlineAt);
    });
    expect(rows.every((row) => row.items[0]?.product_id === cola.id && row.items[0]?.qty === 1)).toBe(true);
    // Oldest first; each sale under one key and one id however often it was sent; two answers lost.
    const ids = rows.map((row) => row.client_sale_id);
    expect([...new Set(attempts.map((attempt) => attempt.clientSaleId))]).toEqual(ids);
    expect(attempts.map((attempt) => attempt.clientSaleId)).toEqual([ids[0], ids[0], ids[1], ids[1], ids[2]]);
    for (const id of ids) {
      const keys = new Set(attempts.filter((attempt) => attempt.clientSaleId === id).map((attempt) => attempt.key));
      expect(keys.size).toBe(1);
    }
    // A resend carries the sale's first taken_at, not the time of the resend.
    expect(attempts.map((attempt) => Date.parse(attempt.takenAt))).toEqual([
      takenAtMs[0],
      takenAtMs[0],
      takenAtMs[1],
      takenAtMs[1],
      takenAtMs[2],
    ]);
    process.stdout.write(
      `offline replay: ${rows.length} sales recorded from ${attempts.length} sends (2 answers lost, 1 key expired) in ${replayMs} ms after the network came back\n`,
    );

    // The service worker cached this build's page, script, style and chunks, and nothing else (never the API).
    const cached = await page.evaluate(async () => {
      const names = await caches.keys();
      const urls = await Promise.all(
        names.map(async (name) =>
          (await (await caches.open(name)).keys()).map((request) => new URL(request.url).pathname),
        ),
      );
      return { names, urls: urls.flat().sort() };
    });
    expect(cached.names).toEqual([expect.stringMatching(/^till-shell-[0-9a-f]{16}$/)]);
    expect(cached.urls.filter((url) => !/^\/assets\/till-[\w-]+\.(js|css)$/.test(url))).toEqual(["/till"]);
    expect(cached.urls).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\/assets\/till-\w+\.js$/),
        expect.stringMatching(/^\/assets\/till-\w+\.css$/),
        expect.stringMatching(/^\/assets\/till-chunk-\w+\.js$/),
      ]),
    );

    // Online and synced: wallet is offered again, sign-out goes through at once.
    await till.scan("5000112637922");
    await till.waitForCart([{ name: "Cola 330ml", qty: "1" }]);
    await page.waitForFunction(
      () => !(document.querySelector(".pay-buttons button:last-child") as HTMLButtonElement | null)?.disabled,
    );
    expect(till.app.consoleErrors).toEqual([]);
    expect(externalRequests(till, world.platform.baseUrl)).toEqual([]);
  } finally {
    await till.close();
  }
});

test("a sale refused on replay (its product deleted meanwhile) needs the cashier's attention until exported and dismissed, through a sign-out", async () => {
  const till = await TillPage.open(world);
  const { page, context } = till.app;
  try {
    await till.signIn(world.shop.email);
    await till.openDrawer();
    await waitUntil("the catalog is kept in the browser", async () => (await keptProducts(till)) === 2);
    const before = (await saleRows()).length;
    await context.setOffline(true);
    await page.getByText("Offline", { exact: true }).waitFor();
    await sellCashExact(till, "6001234567890", "Bread loaf");
    await unsyncedBadge(till, "1 unsynced").waitFor();

    const deleted = await world.api("live")("PATCH", `/v1/products/${bread.id}`, { active: false });
    expect(deleted.status).toBe(200);
    await context.setOffline(false);
    // The refusal is announced, and the sale stays counted.
    await page.getByText(/^The server refused a cash sale: .*is inactive \(deleted\)/).waitFor();
    await unsyncedBadge(till, "1 unsynced (1 need attention)").click();
    const outbox = page.getByRole("dialog", { name: "Unsynced sales" });
    await outbox.getByText("Needs attention (1)").waitFor();
    await outbox.getByText(`product ${bread.id} is inactive (deleted)`).waitFor();
    const dismiss = outbox.getByRole("button", { name: /^Dismiss USD 1\.20 cash/ });
    expect(await dismiss.isDisabled()).toBe(true);
    expect(await till.app.accessibilityViolations()).toEqual([]);
    await outbox.getByRole("button", { name: "Close" }).click();

    // Unpairing: refused until the owner exports; the export holds the exact request that records the sale.
    await page.getByRole("link", { name: "This till" }).click();
    const unpair = page.getByRole("button", { name: "Unpair this till" });
    await page.getByText("1 sale taken here is not on the server yet").waitFor();
    expect(await unpair.isDisabled()).toBe(true);
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export unsynced sales" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^unsynced-sales-.+\.json$/);
    const exported = JSON.parse(await readFile(await download.path(), "utf8")) as {
      sales: {
        status: string;
        refused: { code: string };
        total_cents: number;
        request: { path: string; body: { items: unknown[]; client_sale_id: string } };
      }[];
    };
    expect(exported.sales).toHaveLength(1);
    expect(exported.sales[0]).toMatchObject({
      status: "needs_attention",
      refused: { code: "product_inactive" },
      total_cents: 120,
      request: { path: "/v1/sales", body: { items: [{ product_id: bread.id, qty: 1, unit_cents: 120 }] } },
    });
    await page.getByLabel("Owner's password").fill(PASSWORD);
    await unpair.click();
    await page.getByRole("heading", { name: "Pair this till", exact: true }).waitFor();

    // Paired again: the refused sale is still there until the cashier dismisses it.
    await till.signIn(world.shop.email);
    await unsyncedBadge(till, "1 unsynced (1 need attention)").click();
    await outbox.getByRole("button", { name: /^Dismiss USD 1\.20 cash/ }).click();
    await outbox.getByText("Every sale taken here is on the server.").waitFor();
    await outbox.getByRole("button", { name: "Close" }).click();
    await unsyncedBadge(till, "0 unsynced").waitFor();
    const rows = await saleRows();
    expect(rows).toHaveLength(before);
    expect(rows.map((row) => row.client_sale_id)).not.toContain(exported.sales[0]?.request.body.client_sale_id);
    expect(till.app.consoleErrors).toEqual([]);
    expect(externalRequests(till, world.platform.baseUrl)).toEqual([]);
  } finally {
    await till.close();
  }
});

test("a busy server (503, then 429 with Retry-After) keeps the sale queued and retried, never refused: recorded once, after the time the server asked", async () => {
  const till = await TillPage.open(world);
  const { page } = till.app;
  try {
    await till.signIn(world.shop.email);
    await till.openDrawer();
    const before = (await saleRows()).length;
    const sends: { at: number; key: string }[] = [];
    await page.route("**/v1/sales", async (route) => {
      const request = route.request();
      if (request.method() !== "POST") return route.continue();
      sends.push({ at: Date.now(), key: request.headers()["idempotency-key"] ?? "" });
      const envelope = (code: string) => JSON.stringify({ error: { type: "api_error", code, message: code } });
      if (sends.length === 1) {
        return route.fulfill({ status: 503, contentType: "application/json", body: envelope("unavailable") });
      }
      if (sends.length === 2) {
        return route.fulfill({
          status: 429,
          contentType: "application/json",
          headers: { "Retry-After": "3" },
          body: envelope("rate_limited"),
        });
      }
      return route.continue();
    });
    await sellCashExact(till, "5000112637922", "Cola 330ml");
    await unsyncedBadge(till, "1 unsynced").waitFor();
    await till.waitForSynced();
    expect(sends).toHaveLength(3);
    expect(new Set(sends.map((send) => send.key)).size).toBe(1);
    // The third send waited at least the 3 seconds the 429 asked for.
    expect((sends[2]?.at ?? 0) - (sends[1]?.at ?? 0)).toBeGreaterThanOrEqual(3_000);
    expect(await saleRows()).toHaveLength(before + 1);
    expect(till.app.consoleErrors).toEqual([]);
  } finally {
    await till.close();
  }
});

test("the drawer cannot be closed while a cash sale is unsynced; once it has synced, it closes with that sale counted", async () => {
  const till = await TillPage.open(world);
  const { page } = till.app;
  try {
    await till.signIn(world.shop.email);
    await till.openDrawer({ USD: "10" });
    // The server is busy for as long as the test says: the sale stays queued meanwhile.
    const busy = (route: import("playwright-core").Route) =>
      route.request().method() === "POST"
        ? route.fulfill({
            status: 503,
            contentType: "application/json",
            body: JSON.stringify({ error: { type: "api_error", code: "service_unavailable", message: "busy" } }),
          })
        : route.continue();
    await page.route("**/v1/sales", busy);
    await sellCashExact(till, "5000112637922", "Cola 330ml");
    await unsyncedBadge(till, "1 unsynced").waitFor();

    await page.getByRole("link", { name: "Drawer" }).click();
    await page.getByRole("alert").filter({ hasText: "1 sale taken offline is not on the server yet" }).waitFor();
    expect(await page.getByRole("button", { name: "Close drawer" }).isDisabled()).toBe(true);
    const open = await world.db.database.oneFirst(
      sql.type(z.object({ count: z.number() }))`
        SELECT count(*)::int AS count FROM shifts WHERE merchant_id = ${world.shop.id} AND status = 'open'`,
    );
    expect(open).toBeGreaterThanOrEqual(1);

    await page.unroute("**/v1/sales", busy);
    await till.waitForSynced();
    const closeButton = page.getByRole("button", { name: "Close drawer" });
    await waitUntil("the close button is enabled", () => closeButton.isEnabled());
    await page.getByRole("group", { name: "Counted" }).getByLabel("USD").fill("11.50");
    await closeButton.click();
    await page.getByRole("status").filter({ hasText: "Drawer closed" }).waitFor();
    const closed = await world.db.database.one(
      sql.type(z.object({ expected_cents: z.number(), counted_cents: z.number() }))`
        SELECT c.expected_cents::int AS expected_cents, c.counted_cents::int AS counted_cents
        FROM shift_counts c JOIN shifts s ON s.id = c.shift_id
        WHERE s.merchant_id = ${world.shop.id} AND s.status = 'closed' AND c.currency = 'USD'
        ORDER BY s.closed_at DESC LIMIT 1`,
    );
    expect(closed).toEqual({ expected_cents: 1150, counted_cents: 1150 });
    expect(till.app.consoleErrors).toEqual([]);
  } finally {
    await till.close();
  }
});

test("the service worker is served from /till/sw.js: no-cache, allowed the /till scope, caching this build's till files", async () => {
  const response = await fetch(`${world.platform.baseUrl}/till/sw.js`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
  expect(response.headers.get("cache-control")).toBe("no-cache");
  expect(response.headers.get("service-worker-allowed")).toBe("/till");
  const script = await response.text();
  const shell = await (await fetch(`${world.platform.baseUrl}/till`)).text();
  const assets = [...shell.matchAll(/\/assets\/till-[\w-]+\.(?:js|css)/g)].map((match) => match[0]);
  expect(assets).toHaveLength(2);
  for (const asset of assets) expect(script).toContain(`"${asset}"`);
  expect(script).not.toContain("/v1");
});

// Last in this file: the shop has a cashier from here on.
test("reloaded while offline, the till still shows the cashier switched in and sells under their name", async () => {
  const owner = await ownerSession(world);
  const tatenda = await owner<{ id: string }>("POST", "/v1/cashiers", { name: "Tatenda", pin: "2580" });
  expect(tatenda.status).toBe(201);
  const till = await TillPage.open(world);
  const { page, context } = till.app;
  try {
    await page.goto(`${world.platform.baseUrl}/till`);
    await page.getByLabel("Email").fill(world.shop.email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Pair this till", exact: true }).click();
    await page.getByRole("button", { name: "Tatenda" }).click();
    await page.waitForFunction(() => document.activeElement?.id === "pin-input");
    await till.typeSlowly("2580", { enter: true });
    await page.locator(".current-cashier").filter({ hasText: "Tatenda" }).waitFor();
    await till.openDrawer();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
    await waitUntil("the catalog is kept in the browser", async () => (await keptProducts(till)) > 0);

    await context.setOffline(true);
    await page.reload();
    await page.waitForFunction(() => document.activeElement?.id === "scan-input", undefined, { timeout: 30_000 });
    await page.getByText("Offline", { exact: true }).waitFor();
    await page.locator(".current-cashier").filter({ hasText: "Tatenda" }).waitFor();
    await sellCashExact(till, "5000112637922", "Cola 330ml");
    await unsyncedBadge(till, "1 unsynced").waitFor();
    expect(await till.app.accessibilityViolations()).toEqual([]);

    await context.setOffline(false);
    await till.waitForSynced();
    const sold = await world.db.database.any(sql.type(z.object({ actor_id: z.string() }))`
      SELECT actor_id FROM sales WHERE merchant_id = ${world.shop.id} ORDER BY created_at DESC LIMIT 1`);
    expect(sold).toEqual([{ actor_id: tatenda.body.id }]);
    expect(till.app.consoleErrors).toEqual([]);
    expect(externalRequests(till, world.platform.baseUrl)).toEqual([]);
  } finally {
    await till.close();
  }
});
