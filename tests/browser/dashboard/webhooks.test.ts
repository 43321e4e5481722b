/// <reference lib="dom" />
import type { Browser } from "playwright-core";
import { z } from "zod";
import { sql } from "../../../src/platform/db/pool.ts";
import { verifyWebhook } from "../../../src/sdk/verify-webhook.ts";
import { launchChromium } from "../../support/browser.ts";
import {
  DASHBOARD_PASSWORD,
  expectCleanSession,
  openDashboardPage,
  paidTestPayment,
  signInToDashboard,
} from "../../support/dashboard-page.ts";
import { createTestDatabase, type TestDatabase } from "../../support/database.ts";
import { newMerchant, type TestMerchant } from "../../support/factories.ts";
import { startScriptedReceiver } from "../../support/scripted-receiver.ts";
import { type ServedPlatform, servePlatform } from "../../support/served-platform.ts";
import { waitUntil } from "../../support/time.ts";
import { type AppPage, openAppPage } from "../../support/web-app.ts";
import { webhookDeliverer } from "../../support/webhook-deliveries.ts";

// Deliveries are attempted by the test (no worker pool), with one immediate retry: a delivery to a
// failing receiver is dead after its second attempt.
let db: TestDatabase;
let browser: Browser;
let platform: ServedPlatform;
let receiver: Awaited<ReturnType<typeof startScriptedReceiver>>;
let deliverer: ReturnType<typeof webhookDeliverer>;

beforeAll(async () => {
  db = await createTestDatabase();
  browser = await launchChromium();
  platform = await servePlatform(db.database, db.url, { WEBHOOK_RETRY_SCHEDULE_SECONDS: "0.001" });
  receiver = await startScriptedReceiver();
  deliverer = webhookDeliverer(db.database, platform.config);
});
afterAll(async () => {
  deliverer?.close();
  await receiver?.close();
  await browser?.close();
  await platform?.close();
  await db?.close();
});

const deliveryStatuses = (merchantId: string) =>
  db.database.anyFirst(sql.type(z.object({ status: z.string() }))`
    SELECT status FROM webhook_deliveries WHERE merchant_id = ${merchantId} ORDER BY created_at, id`);

/** Adds an endpoint on the Webhooks page and returns the signing secret the page showed once. */
async function addEndpoint(app: AppPage, url: string): Promise<string> {
  const { page } = app;
  await page.getByLabel("Endpoint URL").fill(url);
  await page.getByRole("button", { name: "Add endpoint" }).click();
  const shown = page.getByRole("dialog", { name: "Your signing secret" });
  await shown.waitFor();
  const secret = (await shown.getByTestId("new-secret").textContent()) ?? "";
  expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
  expect(await app.accessibilityViolations()).toEqual([]);
  await shown.getByRole("button", { name: "Done" }).click();
  return secret;
}

/** The delivery log's rows as "event type: status" after a refresh, once `expected` shows. */
async function deliveryLogShows(app: AppPage, expected: string[]): Promise<void> {
  const { page } = app;
  await page.getByRole("button", { name: "Refresh log" }).click();
  const wanted = JSON.stringify([...expected].sort());
  let shown: string[] = [];
  await waitUntil(`the delivery log shows ${wanted} (it shows ${JSON.stringify(shown)})`, async () => {
    shown = (await page.getByTestId("delivery-status").allTextContents()).sort();
    return JSON.stringify(shown) === wanted;
  });
}

test("a delivery and its attempts in the log and the payment's timeline; a failing receiver; recover since T", async () => {
  const shop: TestMerchant = await newMerchant(db.database);
  const app = await openAppPage(browser);
  const { page } = app;
  try {
    await signInToDashboard(app, platform.baseUrl, shop.email);
    await openDashboardPage(app, "Webhooks");
    expect(await app.accessibilityViolations()).toEqual([]);
    const secret = await addEndpoint(app, receiver.urlOf("/log"));

    // The receiver is busy once, then takes it: one delivery, two attempts.
    receiver.answerWith((count) =>
      count === 1 ? { status: 503, body: "busy, try later" } : { status: 200, body: "thanks" },
    );
    const first = await paidTestPayment(platform.baseUrl, shop.testKey, { amountCents: 1500, merchantRef: "hook-1" });
    await deliverer.deliverDue(shop.id);
    await deliveryLogShows(app, ["succeeded"]);
    await page.getByText("2 attempts").click();
    const attempts = page.getByTestId("attempt");
    expect(await attempts.count()).toBe(2);
    expect(await attempts.nth(0).textContent()).toMatch(/HTTP 503 · \d+ ms.*busy, try later/);
    expect(await attempts.nth(1).textContent()).toMatch(/HTTP 200 · \d+ ms.*thanks/);
    const delivered = receiver.receivedOn("/log")[1];
    expect(verifyWebhook(delivered?.body ?? "", String(delivered?.headers["x-pos-signature"]), secret)).toMatchObject({
      type: "payment.paid",
      data: expect.objectContaining({ payment_id: first.id }),
    });
    expect(await app.accessibilityViolations()).toEqual([]);

    // The receiver goes down: two more payments' deliveries die after their two attempts.
    receiver.answerWith(() => ({ status: 500, body: "down" }));
    const since = await page.evaluate(() => {
      const now = new Date();
      const pad = (value: number) => String(value).padStart(2, "0");
      return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}T${pad(now.getHours())}:${pad(now.getMinutes())}`;
    });
    await paidTestPayment(platform.baseUrl, shop.testKey, { amountCents: 2500, merchantRef: "hook-2" });
    await paidTestPayment(platform.baseUrl, shop.testKey, { amountCents: 3500, merchantRef: "hook-3" });
    await deliverer.deliverDue(shop.id);
    expect(await deliveryStatuses(shop.id)).toEqual(["succeeded", "dead", "dead"]);
    await deliveryLogShows(app, ["succeeded", "dead", "dead"]);

    // Fixed: one action recovers every dead delivery since T, and they are delivered.
    receiver.answerWith(() => ({ status: 200, body: "back" }));
    await page.getByLabel("Recover failed deliveries since").fill(since);
    await page.getByRole("button", { name: "Recover", exact: true }).click();
    await page.getByText("2 failed deliveries scheduled again.").waitFor();
    await deliverer.deliverDue(shop.id);
    expect(await deliveryStatuses(shop.id)).toEqual(["succeeded", "succeeded", "succeeded"]);
    await deliveryLogShows(app, ["succeeded", "succeeded", "succeeded"]);
    for (const summary of await page.getByText("3 attempts").all()) {
      await summary.click();
    }
    expect(await page.getByTestId("attempt").filter({ hasText: "HTTP 500" }).count()).toBe(4);
    // Each of the three events reached the receiver with a 200 exactly once.
    const acceptedEventIds = receiver
      .receivedOn("/log")
      .map((received) => (JSON.parse(received.body) as { id: string }).id);
    expect(new Set(acceptedEventIds).size).toBe(3);

    // The payment's detail: its states, its event and that event's delivery with both attempts.
    await openDashboardPage(app, "Payments");
    await page.getByRole("link", { name: first.id }).click();
    await page.getByRole("heading", { name: `Payment ${first.id}` }).waitFor();
    const event = page.getByTestId("timeline-event");
    await event.first().waitFor();
    expect(await event.count()).toBe(1);
    expect(await event.textContent()).toContain("payment.paid");
    expect(await page.getByTestId("timeline-delivery").textContent()).toMatch(/succeeded.*2 attempts/);
    expect(await page.locator(".timeline").textContent()).toContain("Paid");
    expect(await app.accessibilityViolations()).toEqual([]);
    // A reload lands on the same detail (the shell serves /dashboard/payments/<id>).
    await page.reload();
    await page.getByRole("heading", { name: `Payment ${first.id}` }).waitFor();

    // The event log: by type, and by id.
    await openDashboardPage(app, "Events");
    const eventRows = page.getByRole("table").locator("tbody tr");
    // The feed shows an event once every older transaction on the server has ended.
    await waitUntil("the event log shows the three payments' events", async () => (await eventRows.count()) === 3);
    await page.getByLabel("Event type").fill("payment.expired");
    await page.getByRole("button", { name: "Search type" }).click();
    await page.getByRole("cell", { name: "No events." }).waitFor();
    const eventId = JSON.parse(delivered?.body ?? "{}").id as string;
    await page.getByLabel("Event id").fill(eventId);
    await page.getByRole("button", { name: "Find event" }).click();
    await page.getByRole("cell", { name: eventId }).waitFor();
    expect(await eventRows.count()).toBe(1);
    expect(await app.accessibilityViolations()).toEqual([]);

    expect(app.refusals).toEqual(["401 GET /v1/session"]);
    expectCleanSession(app, platform.baseUrl);
  } finally {
    await app.close();
  }
});

test("roll the signing secret with a 1 h overlap (step-up): a delivery carries both signatures, each verifies", async () => {
  const shop = await newMerchant(db.database);
  const app = await openAppPage(browser);
  const { page } = app;
  try {
    await signInToDashboard(app, platform.baseUrl, shop.email);
    await openDashboardPage(app, "Webhooks");
    const url = receiver.urlOf("/roll");
    const oldSecret = await addEndpoint(app, url);
    receiver.answerWith(() => ({ status: 200, body: "ok" }));

    // The password was entered 6 minutes ago as far as step-up goes: rolling asks for it again.
    await db.database.query(sql.unsafe`
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
    const overlapEnds = await db.database.oneFirst(sql.type(z.object({ ends: z.date() }))`
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
      "403 POST /v1/webhook_endpoints/" + (await endpointIdOf(shop.id)) + "/roll_secret",
    ]);
    expectCleanSession(app, platform.baseUrl);
  } finally {
    await app.close();
  }
});

const endpointIdOf = (merchantId: string) =>
  db.database.oneFirst(sql.type(z.object({ id: z.string() }))`
    SELECT id FROM webhook_endpoints WHERE merchant_id = ${merchantId}`);
