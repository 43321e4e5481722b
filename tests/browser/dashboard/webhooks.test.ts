/// <reference lib="dom" />
import type { Browser } from "playwright-core";
import { z } from "zod";
import { sql } from "../../../src/platform/db/pool.ts";
import { verifyWebhook } from "../../../src/sdk/verify-webhook.ts";
import { launchChromium } from "../../support/browser.ts";
import {
  addWebhookEndpoint,
  expectCleanSession,
  openDashboardPage,
  paidTestPayment,
  signInToDashboard,
} from "../../support/dashboard-page.ts";
import { createTestDatabase, type TestDatabase } from "../../support/database.ts";
import { newMerchant, type TestMerchant } from "../../support/factories.ts";
import { startScriptedReceiver } from "../../support/scripted-receiver.ts";
import { type ServedPlatform, servePlatform } from "../../support/served-platform.ts";
import { readUntil, waitUntil } from "../../support/time.ts";
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

/**
 * Waits until the API's event feed holds `count` events for `query`: it shows an event once every
 * older transaction on the database server has ended, and other test files share the server. Once
 * shown, an event stays in the feed, so a page loaded afterwards shows it.
 */
async function feedShows(key: string, query: Record<string, string>, count: number): Promise<void> {
  const url = `${platform.baseUrl}/v1/events?${new URLSearchParams(query)}`;
  await waitUntil(`the event feed holds ${count} events for ${JSON.stringify(query)}`, async () => {
    const response = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
    return ((await response.json()) as { data: unknown[] }).data.length >= count;
  });
}

/** The delivery log's rows as "event type: status" after a refresh, once `expected` shows. */
async function deliveryLogShows(app: AppPage, expected: string[]): Promise<void> {
  const { page } = app;
  await page.getByRole("button", { name: "Refresh log" }).click();
  const wanted = [...expected].sort();
  const shown = await readUntil(
    async () => (await page.getByTestId("delivery-status").allTextContents()).sort(),
    wanted,
  );
  expect(shown).toEqual(wanted);
}

test("a delivery and its attempts in the log and the payment's timeline; a failing receiver; recover since T", async () => {
  const shop: TestMerchant = await newMerchant(db.database);
  const app = await openAppPage(browser);
  const { page } = app;
  try {
    await signInToDashboard(app, platform.baseUrl, shop.email);
    await openDashboardPage(app, "Webhooks");
    expect(await app.accessibilityViolations()).toEqual([]);
    const secret = await addWebhookEndpoint(app, receiver.urlOf("/log"));

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
    // Open each closed "3 attempts" (a re-render of the log closes them again) until the failures show.
    const failedAttempts = page.getByTestId("attempt").filter({ hasText: "HTTP 500" });
    const closed = page.locator("details.attempts:not([open]) > summary", { hasText: "3 attempts" });
    await waitUntil("the recovered deliveries' failed attempts show", async () => {
      // Each click opens one: the locator then names the next closed one.
      while ((await closed.count()) > 0) {
        await closed.first().click();
      }
      return (await failedAttempts.count()) >= 4;
    });
    expect(await failedAttempts.count()).toBe(4);
    // Each of the three events reached the receiver with a 200 exactly once.
    const acceptedEventIds = receiver
      .receivedOn("/log")
      .map((received) => (JSON.parse(received.body) as { id: string }).id);
    expect(new Set(acceptedEventIds).size).toBe(3);

    // The payment's detail: its states, its event and that event's delivery with both attempts.
    await feedShows(shop.testKey, { payment_id: first.id }, 1);
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
    await feedShows(shop.testKey, {}, 3);
    await openDashboardPage(app, "Events");
    const eventRows = page.getByRole("table").locator("tbody tr");
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
