/// <reference lib="dom" />
import { z } from "zod";
import { sql } from "../../../src/platform/db/pool.ts";
import { servedBrowserWorld } from "../../support/browser-world.ts";
import { expectCleanSession, openDashboardPage, signInToDashboard } from "../../support/dashboard-page.ts";
import { newMerchant } from "../../support/factories.ts";
import { deviceSignIn, openTill, ownerSession, tillSession } from "../../support/shop-http.ts";
import { openAppPage } from "../../support/web-app.ts";

const world = servedBrowserWorld();

test("Till devices: paired tills listed with when they were last opened; unpairing one refuses its token and its session at once", async () => {
  const shop = await newMerchant(world.db.database);
  const owner = await ownerSession(world.platform.baseUrl, shop.email);
  const front = await openTill(owner, "Front counter");
  const back = await openTill(owner, "Back office");
  const till = await tillSession(world.platform.baseUrl, front.token);
  expect((await till.call("GET", "/v1/cashiers")).status).toBe(200);

  const app = await openAppPage(world.browser);
  const { page } = app;
  try {
    await signInToDashboard(app, world.platform.baseUrl, shop.email);
    await openDashboardPage(app, "Till devices");
    const frontRow = page.getByRole("row").filter({ hasText: "Front counter" });
    const backRow = page.getByRole("row").filter({ hasText: "Back office" });
    await frontRow.getByRole("cell", { name: "paired", exact: true }).waitFor();
    // How to pair is explained with this platform's own till address; no token is ever on the page.
    await page.getByText(`${world.platform.baseUrl}/till`).waitFor();
    expect(await page.locator("body").textContent()).not.toContain("tdv_");
    // Front counter opened a session with its token; Back office never did.
    expect(await frontRow.getByRole("cell").nth(3).textContent()).not.toBe("—");
    expect(await backRow.getByRole("cell").nth(3).textContent()).toBe("—");
    expect(await app.accessibilityViolations()).toEqual([]);

    await page.getByRole("button", { name: "Unpair Front counter" }).click();
    const confirm = page.getByRole("dialog", { name: "Unpair this till?" });
    await confirm.waitFor();
    expect(await app.accessibilityViolations()).toEqual([]);
    await confirm.getByRole("button", { name: "Unpair till" }).click();
    await frontRow.getByRole("cell", { name: "unpaired", exact: true }).waitFor();
    await backRow.getByRole("cell", { name: "paired", exact: true }).waitFor();
    expect(await page.getByRole("button", { name: "Unpair Front counter" }).count()).toBe(0);

    const devices = await world.db.database.any(sql.type(z.object({ id: z.string(), revoked: z.boolean() }))`
      SELECT id, revoked_at IS NOT NULL AS revoked FROM till_devices WHERE merchant_id = ${shop.id} ORDER BY name`);
    expect(devices).toEqual([
      { id: back.id, revoked: false },
      { id: front.id, revoked: true },
    ]);
    // At once: the token opens no session, and the session it opened is refused.
    const again = await deviceSignIn(world.platform.baseUrl, front.token);
    expect([again.status, ((await again.json()) as { error: { code: string } }).error.code]).toEqual([
      401,
      "device_invalid",
    ]);
    expect((await till.call("GET", "/v1/cashiers")).status).toBe(401);
    expect((await deviceSignIn(world.platform.baseUrl, back.token)).status).toBe(201);

    expect(app.refusals).toEqual(["401 GET /v1/session"]);
    expectCleanSession(app, world.platform.baseUrl);
  } finally {
    await app.close();
  }
});
