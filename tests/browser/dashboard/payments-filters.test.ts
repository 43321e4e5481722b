/// <reference lib="dom" />
import { randomUUID } from "node:crypto";
import { servedBrowserWorld } from "../../support/browser-world.ts";
import {
  expectCleanSession,
  openDashboardPage,
  paidTestPayment,
  signInToDashboard,
} from "../../support/dashboard-page.ts";
import { newMerchant } from "../../support/factories.ts";
import { readUntil } from "../../support/time.ts";
import { openAppPage } from "../../support/web-app.ts";

const world = servedBrowserWorld();

const day = (date: Date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, "0")}-${String(date.getDate()).padStart(2, "0")}`;

test("Payments: filters and page survive opening a payment and Back; a From after To says so and asks nothing", async () => {
  const shop = await newMerchant(world.db.database);
  // 22 pending payments (two pages of 20) and one paid one the Pending filter leaves out.
  for (let index = 0; index < 22; index += 1) {
    const created = await fetch(`${world.platform.baseUrl}/v1/payments`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${shop.testKey}`,
        "idempotency-key": randomUUID(),
        "content-type": "application/json",
      },
      body: JSON.stringify({ amount_cents: 100 + index, merchant_ref: `order-${index}` }),
    });
    expect(created.status).toBe(201);
  }
  await paidTestPayment(world.platform.baseUrl, shop.testKey, { amountCents: 999, merchantRef: "paid-one" });
  const app = await openAppPage(world.browser);
  const { page } = app;
  try {
    await signInToDashboard(app, world.platform.baseUrl, shop.email);
    await openDashboardPage(app, "Payments");
    const today = day(new Date());
    await page.getByLabel("Status").selectOption("pending");
    await page.getByLabel("From").fill(today);
    await page.getByRole("button", { name: "Next page" }).click();
    const secondPage = page.getByRole("table", { name: "Payments, page 2" });
    // The two oldest pending payments are page 2 (read until its load shows: the caption alone is no sign).
    const oldestTwo = ["order-1", "order-0"];
    const references = () => secondPage.locator("tbody tr td:nth-child(4)").allTextContents();
    expect(await readUntil(references, oldestTwo)).toEqual(oldestTwo);

    // Open a payment, then Back: the same filters and page.
    await secondPage.getByRole("link").first().click();
    await page.getByRole("heading", { name: /^Payment pay_/, level: 1 }).waitFor();
    await page.goBack();
    await page.getByRole("table", { name: "Payments, page 2" }).getByRole("cell", { name: "order-0" }).waitFor();
    expect(await page.getByLabel("Status").inputValue()).toBe("pending");
    expect(await page.getByLabel("From").inputValue()).toBe(today);
    // A reload keeps them too (they are in the URL).
    await page.reload();
    await page.getByRole("table", { name: "Payments, page 2" }).getByRole("cell", { name: "order-0" }).waitFor();
    expect(await page.getByLabel("Status").inputValue()).toBe("pending");
    expect(await app.accessibilityViolations()).toEqual([]);

    // To before From: the page says so and sends no request for it.
    const listRequests = () => app.requests.filter((url) => new URL(url).pathname === "/v1/payments").length;
    const before = listRequests();
    const yesterday = new Date();
    yesterday.setDate(yesterday.getDate() - 1);
    await page.getByLabel("To").fill(day(yesterday));
    await page.getByText("To is before From").waitFor();
    expect(await page.getByLabel("To").getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByRole("table").count()).toBe(0);
    expect(listRequests()).toBe(before);
    expect(await app.accessibilityViolations()).toEqual([]);

    // Putting To right lists again, from the first page.
    await page.getByLabel("To").fill(today);
    // Its newest pending payment shown: the list is loaded, so the paid one's absence means something.
    await page.getByRole("table", { name: "Payments, page 1" }).getByRole("cell", { name: "order-21" }).waitFor();
    expect(await page.getByRole("cell", { name: "paid-one" }).count()).toBe(0);
    expect(app.refusals).toEqual(["401 GET /v1/session"]);
    expectCleanSession(app, world.platform.baseUrl);
  } finally {
    await app.close();
  }
});
