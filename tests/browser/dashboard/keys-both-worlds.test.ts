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

const revokedAt = (merchantId: string, keyId: string) =>
  world.db.database.oneFirst(sql.type(z.object({ revoked_at: z.date().nullable() }))`
    SELECT revoked_at FROM api_keys WHERE merchant_id = ${merchantId} AND id = ${keyId}`);

test("both worlds' keys are listed on TEST; revoking asks in our dialog, a LIVE key with step-up", async () => {
  const shop = await newMerchant(world.db.database);
  const app = await openAppPage(world.browser);
  const { page } = app;
  // The browser's own confirm() must never show: a native dialog fails the test.
  const nativeDialogs: string[] = [];
  page.on("dialog", (dialog) => {
    nativeDialogs.push(dialog.message());
    void dialog.dismiss();
  });
  try {
    await signInToDashboard(app, world.platform.baseUrl, shop.email);
    await openDashboardPage(app, "API keys");
    const table = page.getByRole("table", { name: "Secret keys (both worlds)" });
    // The factory's LIVE key is listed although the page is on TEST.
    await table.getByRole("cell", { name: `sk_live_…${shop.liveKey.slice(-4)}` }).waitFor();
    await table.getByRole("cell", { name: `sk_test_…${shop.testKey.slice(-4)}` }).waitFor();

    // A LIVE key minted while on TEST appears at once.
    await page.getByRole("button", { name: "Create live key" }).click();
    const shown = page.getByRole("dialog", { name: "Your new secret key" });
    await shown.waitFor();
    const minted = (await shown.getByTestId("new-secret").textContent()) ?? "";
    await shown.getByRole("button", { name: "Done" }).click();
    await table.getByRole("cell", { name: `sk_live_…${minted.slice(-4)}` }).waitFor();

    // Revoking the TEST key: our dialog, then the key is revoked.
    await page.getByRole("button", { name: `Revoke key ending ${shop.testKey.slice(-4)}` }).click();
    const ask = page.getByRole("dialog", { name: "Revoke key" });
    await ask.waitFor();
    expect(await app.accessibilityViolations()).toEqual([]);
    await ask.getByRole("button", { name: "Revoke key" }).click();
    await page
      .getByRole("button", { name: `Revoke key ending ${shop.testKey.slice(-4)}` })
      .waitFor({ state: "detached" });
    expect(await revokedAt(shop.id, shop.testKeyId)).not.toBeNull();

    // Revoking the factory's LIVE key from a TEST page, with the password 6 minutes old: step-up first.
    await world.db.database.query(sql.unsafe`
      UPDATE sessions SET password_verified_at = now() - interval '6 minutes' WHERE merchant_id = ${shop.id}`);
    await page.getByRole("button", { name: `Revoke key ending ${shop.liveKey.slice(-4)}` }).click();
    await ask.waitFor();
    await ask.getByRole("button", { name: "Revoke key" }).click();
    const stepUp = page.getByRole("dialog", { name: "Confirm your password" });
    await stepUp.waitFor();
    expect(await revokedAt(shop.id, shop.liveKeyId)).toBeNull();
    await stepUp.getByLabel("Password").fill(DASHBOARD_PASSWORD);
    await stepUp.getByRole("button", { name: "Confirm" }).click();
    await page
      .getByRole("button", { name: `Revoke key ending ${shop.liveKey.slice(-4)}` })
      .waitFor({ state: "detached" });
    expect(await revokedAt(shop.id, shop.liveKeyId)).not.toBeNull();

    expect(nativeDialogs).toEqual([]);
    expect(await app.accessibilityViolations()).toEqual([]);

    // The audit log names who revoked them: the owner's email, never a raw user id.
    await openDashboardPage(app, "Settings");
    const audit = page.getByRole("table", { name: "Latest account activity" });
    const revoked = audit.locator("tbody tr").filter({ hasText: "api_key.revoked" });
    await revoked.first().waitFor();
    expect(await revoked.locator("td:nth-child(3)").allTextContents()).toEqual([shop.email, shop.email]);
    expect(await audit.textContent()).not.toMatch(/dashboard_user|usr_/);
    expect(app.refusals).toEqual(["401 GET /v1/session", `403 DELETE /v1/api_keys/${shop.liveKeyId}`]);
    expectCleanSession(app, world.platform.baseUrl);
  } finally {
    await app.close();
  }
});

test("disabling a webhook endpoint asks in our dialog, and Cancel leaves it active", async () => {
  const shop = await newMerchant(world.db.database);
  const app = await openAppPage(world.browser);
  const { page } = app;
  const nativeDialogs: string[] = [];
  page.on("dialog", (dialog) => {
    nativeDialogs.push(dialog.message());
    void dialog.dismiss();
  });
  try {
    await signInToDashboard(app, world.platform.baseUrl, shop.email);
    const created = await fetch(`${world.platform.baseUrl}/v1/webhook_endpoints`, {
      method: "POST",
      headers: { authorization: `Bearer ${shop.testKey}`, "content-type": "application/json" },
      body: JSON.stringify({ url: "https://example.com/hooks", event_types: ["*"] }),
    });
    expect(created.status).toBe(201);
    await page.getByRole("navigation").getByRole("link", { name: "Webhooks" }).click();
    const disable = page.getByRole("button", { name: "Disable https://example.com/hooks" });
    await disable.click();
    const ask = page.getByRole("dialog", { name: "Disable endpoint" });
    await ask.waitFor();
    expect(await app.accessibilityViolations()).toEqual([]);
    await ask.getByRole("button", { name: "Cancel" }).click();
    await ask.waitFor({ state: "hidden" });
    expect(await disable.isVisible()).toBe(true);

    await disable.click();
    await ask.getByRole("button", { name: "Disable endpoint" }).click();
    await page.getByRole("cell", { name: "disabled", exact: true }).waitFor();
    expect(nativeDialogs).toEqual([]);
    expectCleanSession(app, world.platform.baseUrl);
  } finally {
    await app.close();
  }
});
