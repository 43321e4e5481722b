/// <reference lib="dom" />
import { servedBrowserWorld } from "../../support/browser-world.ts";
import { addWebhookEndpoint, paidTestPayment, signInToDashboard } from "../../support/dashboard-page.ts";
import { newMerchant, type TestMerchant } from "../../support/factories.ts";
import { contentOutsideItsBox, DASHBOARD_SCREENS, SUPPORTED_SIZES } from "../../support/layout.ts";
import { type ShopDay, shopDay } from "../../support/shop-http.ts";
import { type AppPage, openAppPage } from "../../support/web-app.ts";

const world = servedBrowserWorld();
let shop: TestMerchant;
let day: ShopDay;
let paymentId: string;

beforeAll(async () => {
  shop = await newMerchant(world.db.database);
  day = await shopDay(world.platform.baseUrl, shop.email);
  // A merchant reference as long as real ones get, so a table with it must still fit.
  paymentId = (
    await paidTestPayment(world.platform.baseUrl, shop.testKey, {
      amountCents: 42_850,
      merchantRef: "order-2026-11-000481-web",
    })
  ).id;
});

/**
 * Waits for the page's heading, for every "Loading…" to be gone and for the answers that come without
 * one (the names of cashiers and tills shown in place of their ids) to be on screen.
 */
async function settled(app: AppPage): Promise<void> {
  await app.page.getByRole("heading", { level: 1 }).first().waitFor();
  await app.page.waitForFunction(() => !(document.body.textContent ?? "").includes("Loading…"), undefined, {
    timeout: 30_000,
  });
  await app.apiSettled();
}

test("every dashboard screen keeps its content inside its box at 1280×800, 1024×768 and 768×1024", async () => {
  const app = await openAppPage(world.browser);
  const { page } = app;
  try {
    await signInToDashboard(app, world.platform.baseUrl, shop.email);
    // The webhooks page with an endpoint of every event type and its delivery log open (a test event).
    await page.getByRole("navigation").getByRole("link", { name: "Webhooks", exact: true }).click();
    await addWebhookEndpoint(app, "https://merchant.example/hooks/pos-platform/deliveries/receiver");
    await page.getByRole("button", { name: /^Send test event to / }).click();
    await page.getByRole("heading", { name: "Delivery log" }).waitFor();
    await page.getByTestId("delivery-status").first().waitFor();

    const found: string[] = [];
    for (const size of SUPPORTED_SIZES) {
      await page.setViewportSize(size);
      for (const link of DASHBOARD_SCREENS) {
        await page.getByRole("navigation").getByRole("link", { name: link, exact: true }).click();
        await settled(app);
        if (link === "Webhooks") {
          await page.getByRole("button", { name: /^Deliveries to / }).click();
          await page.getByTestId("delivery-status").first().waitFor();
        }
        for (const problem of await contentOutsideItsBox(page))
          found.push(`${size.width}×${size.height} ${link}: ${problem}`);
      }
      for (const detail of [`payments/${paymentId}`, `sales/${day.saleIds[0]}`, `shifts/${day.shiftId}`]) {
        await page.goto(`${world.platform.baseUrl}/dashboard/${detail}`);
        await settled(app);
        for (const problem of await contentOutsideItsBox(page))
          found.push(`${size.width}×${size.height} ${detail}: ${problem}`);
      }
    }
    expect(found).toEqual([]);
    expect(app.consoleErrors).toEqual([]);
  } finally {
    await app.close();
  }
});
