/// <reference lib="dom" />
import { z } from "zod";
import { sql } from "../../../src/platform/db/pool.ts";
import { verifyWebhook } from "../../../src/sdk/verify-webhook.ts";
import { servedBrowserWorld } from "../../support/browser-world.ts";
import {
  addWebhookEndpoint,
  DASHBOARD_PASSWORD,
  expectCleanSession,
  openDashboardPage,
  signInToDashboard,
} from "../../support/dashboard-page.ts";
import { newMerchant } from "../../support/factories.ts";
import { startScriptedReceiver } from "../../support/scripted-receiver.ts";
import { openAppPage } from "../../support/web-app.ts";
import { webhookDeliverer } from "../../support/webhook-deliveries.ts";

// Deliveries are attempted by the test (no worker pool).
let receiver: Awaited<ReturnType<typeof startScriptedReceiver>>;
let deliverer: ReturnType<typeof webhookDeliverer>;

// Declared before servedBrowserWorld(): Jest runs afterAll hooks in the order declared, so these close
// before its browser, platform and database.
afterAll(async () => {
  deliverer?.close();
  await receiver?.close();
});
const world = servedBrowserWorld();
beforeAll(async () => {
  receiver = await startScriptedReceiver();
  deliverer = webhookDeliverer(world.db.database, world.platform.config);
});

test("roll the signing secret with a 1 h overlap (step-up): a delivery carries both signatures, each verifies", async () => {
  const shop = await newMerchant(world.db.database);
  const app = await openAppPage(world.browser);
  const { page } = app;
  try {
    await signInToDashboard(app, world.platform.baseUrl, shop.email);
    await openDashboardPage(app, "Webhooks");
    const url = receiver.urlOf("/roll");
    const oldSecret = await addWebhookEndpoint(app, url);
    receiver.answerWith(() => ({ status: 200, body: "ok" }));

    // The password was entered 6 minutes ago as far as step-up goes: rolling asks for it again.
    await world.db.database.query(sql.unsafe`
      UPDATE sessions SET password_verified_at = now() - interval '6 minutes' WHERE merchant_id = ${shop.id}`);
    await page.getByRole("button", { name: `Roll secret of ${url}` }).click();
    const roll = page.getByRole("dialog", { name: "Roll signing secret" });
    await roll.waitFor();
    expect(await app.accessibilityViolations()).toEqual([]);
    await roll.getByLabel("Old secret stops signing").selectOption({ label: "In 1 hour" });
    await roll.getByRole("button", { name: "Roll secret" }).click();
    const stepUp = page.getByRole("dialog", { name: "Confirm your password" });
    await stepUp.getByLabel("Password").fill(DASHBOARD_PASSWORD);
    await stepUp.getByRole("button", { name: "Confirm" }).click();
    const shown = page.getByRole("dialog", { name: "Your signing secret" });
    await shown.waitFor();
    const newSecret = (await shown.getByTestId("new-secret").textContent()) ?? "";
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(oldSecret);
    await shown.getByRole("button", { name: "Done" }).click();
    await page.getByRole("cell", { name: /previous one signs too until/ }).waitFor();
    const overlapEnds = await world.db.database.oneFirst(sql.type(z.object({ ends: z.date() }))`
      SELECT previous_secret_expires_at AS ends FROM webhook_endpoints WHERE merchant_id = ${shop.id}`);
    expect(Math.abs(overlapEnds.getTime() - (Date.now() + 3600_000))).toBeLessThan(120_000);

    await page.getByRole("button", { name: `Send test event to ${url}` }).click();
    await page.getByText("Test event sent.").waitFor();
    await deliverer.deliverDue(shop.id);
    const [delivered] = receiver.receivedOn("/roll");
    const header = String(delivered?.headers["x-pos-signature"]);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    for (const secret of [oldSecret, newSecret]) {
      expect(verifyWebhook(delivered?.body ?? "", header, secret).type).toBe("webhook.test");
    }
    expect(() => verifyWebhook(delivered?.body ?? "", header, "whsec_neither")).toThrow();
    await page.getByRole("button", { name: "Refresh log" }).click();
    await page.getByRole("cell", { name: /webhook\.test/ }).waitFor();

    // The secrets are nowhere in the page once their dialog is closed and the page reloaded.
    await page.reload();
    await page.getByRole("heading", { name: "Webhooks" }).waitFor();
    const html = await page.content();
    expect(html).not.toContain(oldSecret);
    expect(html).not.toContain(newSecret);

    expect(app.refusals).toEqual([
      "401 GET /v1/session",
      `403 POST /v1/webhook_endpoints/${await endpointIdOf(shop.id)}/roll_secret`,
    ]);
    expectCleanSession(app, world.platform.baseUrl);
  } finally {
    await app.close();
  }
});

const endpointIdOf = (merchantId: string) =>
  world.db.database.oneFirst(sql.type(z.object({ id: z.string() }))`
    SELECT id FROM webhook_endpoints WHERE merchant_id = ${merchantId}`);
