/// <reference lib="dom" />
import { randomUUID } from "node:crypto";
import { servedBrowserWorld } from "../../support/browser-world.ts";
import { expectCleanSession, signInToDashboard } from "../../support/dashboard-page.ts";
import { fundMerchant, newMerchant, type TestMerchant } from "../../support/factories.ts";
import { openAppPage } from "../../support/web-app.ts";

const world = servedBrowserWorld();
let shop: TestMerchant;

beforeAll(async () => {
  shop = await newMerchant(world.db.database);
  await fundMerchant(world.db.database, { merchantId: shop.id, livemode: false, currency: "USD", amountCents: 12_345 });
  await fundMerchant(world.db.database, { merchantId: shop.id, livemode: true, currency: "ZWG", amountCents: 67_890 });
  await fetch(`${world.platform.baseUrl}/v1/payments`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${shop.testKey}`,
      "idempotency-key": randomUUID(),
      "content-type": "application/json",
    },
    body: JSON.stringify({ amount_cents: 1250, merchant_ref: "order-42" }),
  });
});

test("sign in, Home shows balances per world and recent payments, every page passes axe, nothing leaves the origin", async () => {
  const app = await openAppPage(world.browser);
  const { page } = app;
  try {
    const shell = await page.goto(`${world.platform.baseUrl}/dashboard`);
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

    await signInToDashboard(app, world.platform.baseUrl, shop.email);
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

    // Only the expected refusals: no session yet, the wrong password, no session on the second visit.
    expect(app.refusals).toEqual(["401 GET /v1/session", "401 POST /v1/session", "401 GET /v1/session"]);
    expectCleanSession(app, world.platform.baseUrl);
  } finally {
    await app.close();
  }
});

test("sign out: the page shows sign-in and the old cookie is refused by the API", async () => {
  const app = await openAppPage(world.browser);
  const { page, context } = app;
  try {
    await signInToDashboard(app, world.platform.baseUrl, shop.email);
    const cookie = (await context.cookies()).find((candidate) => candidate.name === "pos_session");
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe("Lax");
    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await page.getByRole("heading", { name: "Sign in to your dashboard" }).waitFor();
    const refused = await fetch(`${world.platform.baseUrl}/v1/me`, {
      headers: { cookie: `pos_session=${cookie?.value}` },
    });
    expect(refused.status).toBe(401);
    await page.reload();
    await page.getByRole("heading", { name: "Sign in to your dashboard" }).waitFor();
    expectCleanSession(app, world.platform.baseUrl);
  } finally {
    await app.close();
  }
});

test("sign out everywhere, from Settings: every session ends (another browser's too) and every till is unpaired", async () => {
  const app = await openAppPage(world.browser);
  const other = await openAppPage(world.browser);
  const { page } = app;
  try {
    await signInToDashboard(other, world.platform.baseUrl, shop.email);
    await signInToDashboard(app, world.platform.baseUrl, shop.email);
    const otherCookie = (await other.context.cookies()).find((candidate) => candidate.name === "pos_session");
    await page.getByRole("link", { name: "Settings" }).click();
    await page.getByRole("button", { name: "Sign out everywhere" }).click();
    const dialog = page.getByRole("dialog", { name: "Sign out everywhere?" });
    await dialog.getByText("every till is unpaired").waitFor();
    expect(await app.accessibilityViolations()).toEqual([]);
    await dialog.getByRole("button", { name: "Sign out everywhere" }).click();
    await page.getByRole("heading", { name: "Sign in to your dashboard" }).waitFor();
    const refused = await fetch(`${world.platform.baseUrl}/v1/me`, {
      headers: { cookie: `pos_session=${otherCookie?.value}` },
    });
    expect(refused.status).toBe(401);
  } finally {
    await other.close();
    await app.close();
  }
});
