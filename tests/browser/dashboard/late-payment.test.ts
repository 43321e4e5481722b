/// <reference lib="dom" />
import { randomUUID } from "node:crypto";
import { getPaymentById, settlePayment } from "../../../src/modules/payments/service.ts";
import { servedBrowserWorld } from "../../support/browser-world.ts";
import { expectCleanSession, signInToDashboard } from "../../support/dashboard-page.ts";
import { newMerchant, type TestMerchant } from "../../support/factories.ts";
import { openAppPage } from "../../support/web-app.ts";

/** A payment that arrived after its code was cancelled: the merchant sees it and refunds it in one click. */

const world = servedBrowserWorld();
let shop: TestMerchant;

beforeAll(async () => {
  shop = await newMerchant(world.db.database);
});

test("the payment's page shows a late payment and refunds it to the payer's wallet in one click", async () => {
  const created = await fetch(`${world.platform.baseUrl}/v1/payments`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${shop.testKey}`,
      "idempotency-key": randomUUID(),
      "content-type": "application/json",
    },
    body: JSON.stringify({ amount_cents: 4000, currency: "ZWG" }),
  });
  const { id } = (await created.json()) as { id: string };
  const cancelled = await fetch(`${world.platform.baseUrl}/checkout/${id}/cancel`, { method: "POST" });
  expect(cancelled.status).toBe(200);
  // The network reports the cancelled code paid after all (a void it did not honour in time).
  const late = await settlePayment(
    { database: world.db.database, paymentHooks: [] },
    await getPaymentById(world.db.database, id),
    {
      paidAt: new Date(),
      payerMsisdn: "263771234567",
    },
  );
  expect(late.late_refund).toBe("due");

  const app = await openAppPage(world.browser);
  try {
    await signInToDashboard(app, world.platform.baseUrl, shop.email);
    await app.page.goto(`${world.platform.baseUrl}/dashboard/payments/${id}`);
    const card = app.page.getByTestId("late-payment");
    await card.filter({ hasText: "after this payment was cancelled" }).waitFor();
    expect(await card.textContent()).toContain("263771234567");
    expect(await app.page.locator(".timeline").textContent()).toContain("Cancelled");
    expect(await app.accessibilityViolations()).toEqual([]);
    await card.getByRole("button", { name: "Refund the payer" }).click();
    await card.getByRole("status").filter({ hasText: "Refunded to the payer's wallet" }).waitFor();
    const shown = (await (
      await fetch(`${world.platform.baseUrl}/v1/payments/${id}`, {
        headers: { authorization: `Bearer ${shop.testKey}` },
      })
    ).json()) as { late_payment: { refund: string } };
    expect(shown.late_payment.refund).toBe("wallet");
    expectCleanSession(app, world.platform.baseUrl);
  } finally {
    await app.close();
  }
});
