/// <reference lib="dom" />
import { Secret, TOTP } from "otpauth";
import { sql } from "../../../src/platform/db/pool.ts";
import { servedBrowserWorld } from "../../support/browser-world.ts";
import { DASHBOARD_PASSWORD, expectCleanSession, signInToDashboard } from "../../support/dashboard-page.ts";
import { newMerchant } from "../../support/factories.ts";
import { openAppPage } from "../../support/web-app.ts";

const world = servedBrowserWorld();

/**
 * The code of the step after now's, made just before it is typed: the API (on the real clock, a
 * second or so later) allows one step of drift, and the step is later than any the test used before,
 * so it is never a replay however the 30 s steps fall.
 */
const codeAt = (secret: string, atMs: number) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: atMs });
const nextStepCode = (secret: string) => codeAt(secret, Date.now() + 30_000);

test("turn two-factor sign-in on in Settings, sign out, sign in again with a code", async () => {
  const shop = await newMerchant(world.db.database);
  const app = await openAppPage(world.browser);
  const { page } = app;
  try {
    await signInToDashboard(app, world.platform.baseUrl, shop.email);
    await page.getByRole("link", { name: "Settings" }).click();
    await page.getByRole("heading", { name: "Two-factor sign-in" }).waitFor();
    await page.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
    await page.getByRole("img", { name: "QR code for your authenticator app" }).waitFor();
    expect(await app.accessibilityViolations()).toEqual([]);
    const secret = (await page.getByTestId("two-factor-secret").textContent()) ?? "";
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await page.getByLabel("Code from the app").fill(TOTP.generate({ secret: Secret.fromBase32(secret) }));
    await page.getByRole("button", { name: "Turn on", exact: true }).press("Enter");
    const codes = page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
    await codes.first().waitFor();
    expect(await codes.count()).toBe(10);
    expect(await app.accessibilityViolations()).toEqual([]);
    await page.getByRole("button", { name: "I have saved them" }).click();
    await page.getByRole("button", { name: "Turn off two-factor sign-in" }).waitFor();

    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await page.getByLabel("Email").fill(shop.email);
    await page.getByLabel("Password").fill(DASHBOARD_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    // The API answered otp_required: the code is asked for, email and password kept.
    const codeField = page.getByLabel("Authentication code");
    await codeField.waitFor();
    expect(await page.getByLabel("Email").inputValue()).toBe(shop.email);
    expect(await page.getByLabel("Password").inputValue()).toBe(DASHBOARD_PASSWORD);
    expect(await app.accessibilityViolations()).toEqual([]);
    // A code that is none of the 4 steps the API could accept now: certainly wrong.
    const near = new Set([-1, 0, 1, 2].map((steps) => codeAt(secret, Date.now() + steps * 30_000)));
    await codeField.fill(["000000", "111111", "222222", "333333", "444444"].find((code) => !near.has(code)) ?? "");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("alert").filter({ hasText: "code is not right" }).waitFor();
    await codeField.fill(nextStepCode(secret));
    await codeField.press("Enter");
    await page.locator(".balance").first().waitFor({ state: "visible", timeout: 20_000 });
    expectCleanSession(app, world.platform.baseUrl);
  } finally {
    await app.close();
  }
});

test("a wrong password in the step-up dialog stays in the dialog with its message; the session stays", async () => {
  const shop = await newMerchant(world.db.database);
  const app = await openAppPage(world.browser);
  const { page } = app;
  try {
    await signInToDashboard(app, world.platform.baseUrl, shop.email);
    // The password was typed longer ago than the step-up window.
    await world.db.database.query(
      sql.unsafe`UPDATE sessions SET password_verified_at = NULL WHERE merchant_id = ${shop.id}`,
    );
    await page.getByRole("link", { name: "Settings" }).click();
    await page.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
    const dialog = page.getByRole("dialog", { name: "Confirm your password" });
    await dialog.waitFor();
    await dialog.getByLabel("Password").fill("not the password");
    await dialog.getByLabel("Password").press("Enter");
    await dialog.getByText("The password is not correct.").waitFor();
    expect(await dialog.isVisible()).toBe(true);
    expect(await page.getByRole("heading", { name: "Sign in to your dashboard" }).count()).toBe(0);
    expect(await app.accessibilityViolations()).toEqual([]);
    // The right password then carries on with the action the dialog interrupted.
    await dialog.getByLabel("Password").fill(DASHBOARD_PASSWORD);
    await dialog.getByRole("button", { name: "Confirm" }).click();
    await page.getByRole("img", { name: "QR code for your authenticator app" }).waitFor();
  } finally {
    await app.close();
  }
});
