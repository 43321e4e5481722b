/// <reference lib="dom" />
import { randomUUID } from "node:crypto";
import type { Browser } from "playwright-core";
import { z } from "zod";
import { sql } from "../../../src/platform/db/pool.ts";
import { launchChromium } from "../../support/browser.ts";
import { createTestDatabase, type TestDatabase } from "../../support/database.ts";
import { fundMerchant, newMerchant, type TestMerchant } from "../../support/factories.ts";
import { type ServedPlatform, servePlatform } from "../../support/served-platform.ts";
import { type AppPage, openAppPage } from "../../support/web-app.ts";

const PASSWORD = "correct horse battery";

let db: TestDatabase;
let browser: Browser;
let platform: ServedPlatform;
let shop: TestMerchant;

beforeAll(async () => {
  db = await createTestDatabase();
  shop = await newMerchant(db.database);
  await fundMerchant(db.database, { merchantId: shop.id, livemode: false, currency: "USD", amountCents: 12_345 });
  await fundMerchant(db.database, { merchantId: shop.id, livemode: true, currency: "ZWG", amountCents: 67_890 });
  browser = await launchChromium();
  // The platform on its own loopback port: its origin differs from any other site's.
  platform = await servePlatform(db.database, db.url);
  await fetch(`${platform.baseUrl}/v1/payments`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${shop.testKey}`,
      "idempotency-key": randomUUID(),
      "content-type": "application/json",
    },
    body: JSON.stringify({ amount_cents: 1250, merchant_ref: "order-42" }),
  });
});
afterAll(async () => {
  await browser?.close();
  await platform?.close();
  await db?.close();
});

/** The page's own requests all go to the platform's origin. */
function expectOnlyOwnOrigin(app: AppPage) {
  expect(app.requests.length).toBeGreaterThan(0);
  expect(app.requests.filter((url) => !url.startsWith(`${platform.baseUrl}/`))).toEqual([]);
}

async function signIn(app: AppPage): Promise<number> {
  const { page } = app;
  await page.goto(`${platform.baseUrl}/dashboard`);
  await page.getByLabel("Email").fill(shop.email);
  await page.getByLabel("Password").fill(PASSWORD);
  const started = performance.now();
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.locator(".balance").first().waitFor({ state: "visible", timeout: 20_000 });
  const elapsedMs = performance.now() - started;
  // The issue asks for this figure: from the sign-in click to Home's balances on screen, on loopback.
  process.stdout.write(`dashboard: sign-in click to Home rendered in ${elapsedMs.toFixed(0)} ms\n`);
  return elapsedMs;
}

test("sign in, Home shows balances per world and recent payments, every page passes axe, nothing leaves the origin", async () => {
  const app = await openAppPage(browser);
  const { page } = app;
  try {
    const shell = await page.goto(`${platform.baseUrl}/dashboard`);
    expect(shell?.status()).toBe(200);
    expect(shell?.headers()["content-security-policy"]).toContain("script-src 'self'");
    expect(shell?.headers()["cache-control"]).toBe("no-cache");
    await page.getByRole("heading", { name: "Sign in to your dashboard" }).waitFor();
    expect(await app.accessibilityViolations()).toEqual([]);

    // A wrong password is refused on the page.
    await page.getByLabel("Email").fill(shop.email);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("alert").filter({ hasText: "not correct" }).waitFor();

    await signIn(app);
    const balances = await page.locator(".balance").allTextContents();
    expect(balances).toEqual(expect.arrayContaining(["USD · TESTUSD 123.45", "ZWG · LIVEZWG 678.90"]));
    await page.getByRole("cell", { name: "USD 12.50" }).waitFor();
    expect(await page.locator(".test-banner").textContent()).toContain("TEST");
    expect(await app.accessibilityViolations()).toEqual([]);

    await page.getByRole("link", { name: "Payments" }).click();
    await page.getByRole("heading", { name: "Payments" }).waitFor();
    await page.getByRole("cell", { name: "order-42" }).waitFor();
    await page.getByLabel("Status").selectOption("paid");
    await page.getByRole("cell", { name: "No payments match." }).waitFor();
    expect(await app.accessibilityViolations()).toEqual([]);

    await page.getByRole("link", { name: "Settings" }).click();
    await page.getByRole("cell", { name: /this browser/ }).waitFor();
    await page.getByRole("cell", { name: "session.signed_in" }).first().waitFor();
    expect(await app.accessibilityViolations()).toEqual([]);

    // LIVE: the switch changes the world of every request; the TEST banner goes.
    await page.getByRole("link", { name: "Home" }).click();
    await page.getByRole("button", { name: "Live" }).click();
    await page.locator(".world-live").waitFor();
    expect(await page.locator(".test-banner").count()).toBe(0);
    await page.getByRole("cell", { name: "No payments yet." }).waitFor();
    expect(await app.accessibilityViolations()).toEqual([]);

    expect(app.consoleErrors).toEqual([]);
    // Only the expected refusals: no session yet, the wrong password, no session on the second visit.
    expect(app.refusals).toEqual(["401 GET /v1/session", "401 POST /v1/session", "401 GET /v1/session"]);
    expectOnlyOwnOrigin(app);
  } finally {
    await app.close();
  }
});

test("mint a live key (with step-up): the secret is shown once, gone after a reload, and works against /v1", async () => {
  const app = await openAppPage(browser);
  const { page } = app;
  try {
    await signIn(app);
    await page.getByRole("link", { name: "API keys" }).click();
    await page.getByRole("heading", { name: "API keys" }).waitFor();
    expect(await app.accessibilityViolations()).toEqual([]);

    // The sign-in was 6 minutes ago as far as step-up goes: the password is asked again.
    await db.database.query(sql.unsafe`
      UPDATE sessions SET password_verified_at = now() - interval '6 minutes' WHERE merchant_id = ${shop.id}`);
    await page.getByRole("button", { name: "Create live key" }).click();
    const stepUp = page.getByRole("dialog", { name: "Confirm your password" });
    await stepUp.waitFor();
    expect(await app.accessibilityViolations()).toEqual([]);
    await stepUp.getByLabel("Password").fill(PASSWORD);
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

    const me = await fetch(`${platform.baseUrl}/v1/me`, { headers: { authorization: `Bearer ${secret}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { livemode: boolean }).livemode).toBe(true);
    const stored = await db.database.oneFirst(sql.type(z.object({ n: z.number() }))`
      SELECT count(*)::integer AS n FROM api_keys WHERE merchant_id = ${shop.id} AND livemode AND secret_last4 = ${secret.slice(-4)}`);
    expect(stored).toBe(1);

    expect(app.consoleErrors).toEqual([]);
    // The key list is the hooks branch's GET /v1/api_keys (404 until it lands); the step-up refusal is expected.
    expect(app.refusals.filter((refusal) => !refusal.startsWith("404 GET /v1/api_keys"))).toEqual([
      "401 GET /v1/session",
      "403 POST /v1/api_keys",
    ]);
    expectOnlyOwnOrigin(app);
  } finally {
    await app.close();
  }
});

test("sign out: the page shows sign-in and the old cookie is refused by the API", async () => {
  const app = await openAppPage(browser);
  const { page, context } = app;
  try {
    await signIn(app);
    const cookie = (await context.cookies()).find((candidate) => candidate.name === "pos_session");
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe("Lax");
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("heading", { name: "Sign in to your dashboard" }).waitFor();
    const refused = await fetch(`${platform.baseUrl}/v1/me`, { headers: { cookie: `pos_session=${cookie?.value}` } });
    expect(refused.status).toBe(401);
    await page.reload();
    await page.getByRole("heading", { name: "Sign in to your dashboard" }).waitFor();
    expect(app.consoleErrors).toEqual([]);
    expectOnlyOwnOrigin(app);
  } finally {
    await app.close();
  }
});
