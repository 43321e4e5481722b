/// <reference lib="dom" />
import { z } from "zod";
import { sql } from "../../../src/platform/db/pool.ts";
import { newMerchant } from "../../support/factories.ts";
import {
  addProduct,
  externalRequests,
  PASSWORD,
  startTillWorld,
  TillPage,
  type TillWorld,
} from "../../support/till.ts";

let world: TillWorld;

beforeAll(async () => {
  world = await startTillWorld();
  await addProduct(world, { name: "Cola 330ml", price_cents: 150, barcode: "5000112637922" });
});
afterAll(() => world?.close());

test("paired with the owner's credentials the till opens a till session (a shift), TEST loud, scan box focused; it reaches no owner page or route", async () => {
  const till = await TillPage.open(world);
  const { page } = till;
  try {
    const shell = await page.goto(`${world.platform.baseUrl}/till`);
    expect(shell?.status()).toBe(200);
    expect(shell?.headers()["content-security-policy"]).toContain("script-src 'self'");
    expect(shell?.headers()["cache-control"]).toBe("no-cache");
    await page.getByRole("heading", { name: "Pair this till", exact: true }).waitFor();
    expect(await till.app.accessibilityViolations()).toEqual([]);

    await page.getByLabel("Email").fill(world.shop.email);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Pair this till", exact: true }).click();
    await page.getByRole("alert").filter({ hasText: "not correct" }).waitFor();

    const elapsedMs = await till.signIn(world.shop.email);
    process.stdout.write(`till: sign-in click to ready-to-scan (scan box focused) in ${elapsedMs.toFixed(0)} ms\n`);
    await page.getByRole("button", { name: /Cola 330ml/ }).waitFor();
    expect(await page.locator(".test-banner").textContent()).toContain("TEST");
    expect(await page.locator(".world-badge").textContent()).toBe("TEST");
    expect(await till.app.accessibilityViolations()).toEqual([]);

    const kinds = await world.db.database.any(sql.type(z.object({ kind: z.string(), hours: z.number() }))`
      SELECT kind, extract(epoch FROM expires_at - created_at)::int / 3600 AS hours
      FROM sessions WHERE merchant_id = ${world.shop.id} AND revoked_at IS NULL`);
    expect(kinds).toEqual([{ kind: "till", hours: 12 }]);

    // The till's session reaches no owner route: keys, sessions, audit, payouts are refused.
    const cookie = (await till.app.context.cookies()).find((candidate) => candidate.name === "pos_session");
    expect(cookie?.httpOnly).toBe(true);
    for (const path of ["/v1/api_keys", "/v1/sessions", "/v1/audit_log", "/v1/balance", "/v1/payouts"]) {
      const refused = await fetch(`${world.platform.baseUrl}${path}`, {
        headers: { cookie: `pos_session=${cookie?.value}` },
      });
      expect([path, refused.status]).toEqual([path, 403]);
    }
    // Nor an owner page: the dashboard in the till's browser asks for the owner's sign-in.
    await page.goto(`${world.platform.baseUrl}/dashboard/api-keys`);
    await page.getByRole("heading", { name: "Sign in to your dashboard" }).waitFor();
    await page.getByText("This browser is a till").waitFor();
    expect(await page.getByRole("navigation").count()).toBe(0);
    await page.goto(`${world.platform.baseUrl}/till`);
    await page.waitForFunction(() => document.activeElement?.id === "scan-input", undefined, { timeout: 30_000 });

    expect(till.app.consoleErrors).toEqual([]);
    // No session on the first visit, the wrong password, no session when signIn opens the page again.
    expect(till.app.refusals).toEqual(["401 GET /v1/session", "401 POST /v1/session", "401 GET /v1/session"]);
    expect(externalRequests(till, world.platform.baseUrl)).toEqual([]);
  } finally {
    await till.close();
  }
});

test("LIVE is unavailable while the merchant is not active", async () => {
  const pending = await newMerchant(world.db.database, { status: "pending" });
  const till = await TillPage.open(world);
  try {
    await till.signIn(pending.email, PASSWORD);
    const live = till.page.getByRole("button", { name: "Live" });
    expect(await live.isDisabled()).toBe(true);
    await till.page.getByText("LIVE opens once your account is active").waitFor();
    expect(await till.page.locator(".world-badge").textContent()).toBe("TEST");
    expect(till.app.consoleErrors).toEqual([]);
  } finally {
    await till.close();
  }
});
