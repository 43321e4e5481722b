/// <reference lib="dom" />
import { sql } from "../../../src/platform/db/pool.ts";
import { servedBrowserWorld } from "../../support/browser-world.ts";
import { expectCleanSession, openDashboardPage, signInToDashboard } from "../../support/dashboard-page.ts";
import { fundMerchant, newMerchant } from "../../support/factories.ts";
import { openAppPage } from "../../support/web-app.ts";

// The served platform runs no payout processor: the test moves a payout on, as the processor would.
const world = servedBrowserWorld();

test("Payouts: the available amount first; a refusal stays under the field until it changes; the status updates without a reload", async () => {
  const shop = await newMerchant(world.db.database, { payout_msisdn: "263771234567", payout_verified: true });
  await fundMerchant(world.db.database, { merchantId: shop.id, livemode: false, currency: "USD", amountCents: 10_000 });
  const app = await openAppPage(world.browser);
  const { page } = app;
  try {
    await signInToDashboard(app, world.platform.baseUrl, shop.email);
    await openDashboardPage(app, "Payouts");
    const available = page.getByRole("region", { name: "Available to pay out" });
    await available.getByText("USD 100.00").waitFor();
    expect(await app.accessibilityViolations()).toEqual([]);

    // More than is available: the API's refusal stays under the field (not a toast that vanishes).
    const amount = page.getByLabel("Amount");
    await amount.fill("150");
    await page.getByRole("button", { name: "Request payout" }).click();
    const refusal = page.locator(".field-error, [id$='-error']").filter({ hasText: /.+/ });
    await refusal.first().waitFor();
    expect(await amount.getAttribute("aria-invalid")).toBe("true");
    expect(await app.accessibilityViolations()).toEqual([]);
    // Typing again clears it.
    await amount.fill("25.50");
    await refusal.first().waitFor({ state: "detached" });
    expect(await amount.getAttribute("aria-invalid")).not.toBe("true");

    await page.getByRole("button", { name: "Request payout" }).click();
    await page.getByRole("cell", { name: "requested" }).waitFor();
    await available.getByText("USD 74.50").waitFor();

    // The processor ends it (here: the wallet refused it): the page shows it without a reload, as it
    // asks again while a payout is not final.
    const navigations: string[] = [];
    page.on("framenavigated", (frame) => navigations.push(frame.url()));
    await world.db.database.query(sql.unsafe`
      UPDATE payouts SET status = 'failed', failure_reason = 'The wallet refused it.', failed_at = now()
      WHERE merchant_id = ${shop.id}`);
    await page.getByRole("cell", { name: "failed" }).waitFor({ timeout: 30_000 });
    await page.getByRole("cell", { name: "The wallet refused it." }).waitFor();
    expect(navigations).toEqual([]);

    expect(app.refusals).toEqual(["401 GET /v1/session", "402 POST /v1/payouts"]);
    expectCleanSession(app, world.platform.baseUrl);
  } finally {
    await app.close();
  }
});
