/// <reference lib="dom" />
import { z } from "zod";
import { sql } from "../../../src/platform/db/pool.ts";
import { servedBrowserWorld } from "../../support/browser-world.ts";
import {
  DASHBOARD_PASSWORD,
  expectCleanSession,
  openDashboardPage,
  signInToDashboard,
} from "../../support/dashboard-page.ts";
import { newMerchant } from "../../support/factories.ts";
import { openAppPage } from "../../support/web-app.ts";

const world = servedBrowserWorld();

const statusWith = async (key: string) =>
  (await fetch(`${world.platform.baseUrl}/v1/me`, { headers: { authorization: `Bearer ${key}` } })).status;

test("roll a key with 1 h overlap: old and new both work, then only the new once the hour is over", async () => {
  const shop = await newMerchant(world.db.database);
  const app = await openAppPage(world.browser);
  const { page } = app;
  try {
    await signInToDashboard(app, world.platform.baseUrl, shop.email);
    await openDashboardPage(app, "API keys");
    const last4 = shop.testKey.slice(-4);
    await page.getByRole("button", { name: `Roll key ending ${last4}` }).click();
    const roll = page.getByRole("dialog", { name: "Roll key" });
    await roll.waitFor();
    expect(await app.accessibilityViolations()).toEqual([]);
    await roll.getByLabel("Old key stops working").selectOption({ label: "In 1 hour" });
    await roll.getByRole("button", { name: "Roll key" }).click();
    const shown = page.getByRole("dialog", { name: "Your new secret key" });
    await shown.waitFor();
    const newKey = (await shown.getByTestId("new-secret").textContent()) ?? "";
    expect(newKey).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
    await shown.getByRole("button", { name: "Done" }).click();

    const expiresAt = await world.db.database.oneFirst(sql.type(z.object({ expires_at: z.date() }))`
      SELECT expires_at FROM api_keys WHERE merchant_id = ${shop.id} AND id = ${shop.testKeyId}`);
    expect(Math.abs(expiresAt.getTime() - (Date.now() + 3600_000))).toBeLessThan(120_000);
    expect([await statusWith(shop.testKey), await statusWith(newKey)]).toEqual([200, 200]);

    // The hour is over (moved in the database, not waited for): only the new key works.
    await world.db.database.query(sql.unsafe`
      UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE merchant_id = ${shop.id} AND id = ${shop.testKeyId}`);
    expect([await statusWith(shop.testKey), await statusWith(newKey)]).toEqual([401, 200]);

    // The page lists both, the new one by its last 4 only.
    await page.reload();
    await page.getByRole("heading", { name: "API keys" }).waitFor();
    await page.getByRole("cell", { name: `sk_test_…${newKey.slice(-4)}` }).waitFor();
    expect(await page.content()).not.toContain(newKey);
    expect(await app.accessibilityViolations()).toEqual([]);
    expect(app.refusals).toEqual(["401 GET /v1/session"]);
    expectCleanSession(app, world.platform.baseUrl);
  } finally {
    await app.close();
  }
});

test("mint a live key (with step-up): the secret is shown once, gone after a reload, and works against /v1", async () => {
  const shop = await newMerchant(world.db.database);
  const app = await openAppPage(world.browser);
  const { page } = app;
  try {
    await signInToDashboard(app, world.platform.baseUrl, shop.email);
    await openDashboardPage(app, "API keys");
    expect(await app.accessibilityViolations()).toEqual([]);

    // The sign-in was 6 minutes ago as far as step-up goes: the password is asked again.
    await world.db.database.query(sql.unsafe`
      UPDATE sessions SET password_verified_at = now() - interval '6 minutes' WHERE merchant_id = ${shop.id}`);
    await page.getByRole("button", { name: "Create live key" }).click();
    const stepUp = page.getByRole("dialog", { name: "Confirm your password" });
    await stepUp.waitFor();
    expect(await app.accessibilityViolations()).toEqual([]);
    await stepUp.getByLabel("Password").fill(DASHBOARD_PASSWORD);
    await stepUp.getByRole("button", { name: "Confirm" }).click();

    const shown = page.getByRole("dialog", { name: "Your new secret key" });
    await shown.waitFor();
    const secret = (await page.getByTestId("new-secret").textContent()) ?? "";
    expect(secret).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
    expect(await app.accessibilityViolations()).toEqual([]);
    await shown.getByRole("button", { name: "Done" }).click();

    await page.reload();
    await page.getByRole("heading", { name: "API keys" }).waitFor();
    expect(await page.content()).not.toContain(secret);

    const me = await fetch(`${world.platform.baseUrl}/v1/me`, { headers: { authorization: `Bearer ${secret}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { livemode: boolean }).livemode).toBe(true);
    const stored = await world.db.database.oneFirst(sql.type(z.object({ n: z.number() }))`
      SELECT count(*)::integer AS n FROM api_keys WHERE merchant_id = ${shop.id} AND livemode AND secret_last4 = ${secret.slice(-4)}`);
    expect(stored).toBe(1);

    // The step-up refusal is expected.
    expect(app.refusals).toEqual(["401 GET /v1/session", "403 POST /v1/api_keys"]);
    expectCleanSession(app, world.platform.baseUrl);
  } finally {
    await app.close();
  }
});
