/// <reference lib="dom" />
import { randomUUID } from "node:crypto";
import { servedBrowserWorld } from "../support/browser-world.ts";
import { newMerchant, type TestMerchant } from "../support/factories.ts";
import { openAppPage } from "../support/web-app.ts";

/**
 * The hosted checkout's Cancel cancels the payment (its code can no longer be paid) before it goes to
 * cancel_url; a payment no longer payable shows its state and offers neither paying nor simulating.
 */

const world = servedBrowserWorld();
let shop: TestMerchant;

beforeAll(async () => {
  shop = await newMerchant(world.db.database);
});

async function createPayment(body: Record<string, unknown> = {}) {
  const response = await fetch(`${world.platform.baseUrl}/v1/payments`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${shop.testKey}`,
      "idempotency-key": randomUUID(),
      "content-type": "application/json",
    },
    body: JSON.stringify({ amount_cents: 1250, ...body }),
  });
  return (await response.json()) as { id: string; checkout_url: string };
}
const post = (path: string, body?: unknown) =>
  fetch(`${world.platform.baseUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
const statusOf = async (id: string) =>
  ((await (await fetch(`${world.platform.baseUrl}/checkout/${id}/status`)).json()) as { status: string }).status;

test("Cancel cancels the payment, then goes to cancel_url; the code can no longer be paid", async () => {
  // cancel_url on the platform's own origin: the page's requests stay on one origin.
  const payment = await createPayment({ cancel_url: `${world.platform.baseUrl}/healthz` });
  const app = await openAppPage(world.browser);
  try {
    await app.page.goto(payment.checkout_url);
    await app.page.getByRole("button", { name: "Cancel" }).click();
    await app.page.waitForURL(`${world.platform.baseUrl}/healthz?payment_id=${payment.id}`, { timeout: 30_000 });
    expect(await statusOf(payment.id)).toBe("cancelled");
    const refused = await post(`/checkout/${payment.id}/mockpay`, {});
    expect(refused.status).toBe(409);
    // Cancelling again (a second click, a retry) answers the same.
    expect((await (await post(`/checkout/${payment.id}/cancel`)).json()).status).toBe("cancelled");
    expect((await post("/checkout/pay_doesnotexist/cancel")).status).toBe(404);
    expect(app.consoleErrors).toEqual([]);
  } finally {
    await app.close();
  }
});

test.each([
  ["expired", "This payment code has expired."],
  ["cancelled", "This payment was cancelled."],
])("an %s checkout shows its state, no code, no Simulate payment, no Cancel", async (ending, text) => {
  const payment = await createPayment();
  const ended =
    ending === "expired"
      ? await post(`/checkout/${payment.id}/mockpay`, { outcome: "expired" })
      : await post(`/checkout/${payment.id}/cancel`);
  expect(ended.status).toBe(200);
  const app = await openAppPage(world.browser);
  try {
    await app.page.goto(payment.checkout_url);
    await app.page.getByRole("status").filter({ hasText: text }).waitFor();
    expect(await app.page.getByRole("button").count()).toBe(0);
    expect(await app.page.getByTestId("code").isVisible()).toBe(false);
    expect(await app.accessibilityViolations()).toEqual([]);
    expect(app.consoleErrors).toEqual([]);
  } finally {
    await app.close();
  }
});

test("a payment that expires while the page is open: Simulate payment and Cancel go away", async () => {
  const payment = await createPayment();
  const app = await openAppPage(world.browser);
  try {
    await app.page.goto(payment.checkout_url);
    await app.page.getByRole("button", { name: "Simulate payment" }).waitFor();
    expect((await post(`/checkout/${payment.id}/mockpay`, { outcome: "expired" })).status).toBe(200);
    await app.page.getByRole("status").filter({ hasText: "expired" }).waitFor({ timeout: 30_000 });
    await app.page.getByRole("button", { name: "Simulate payment" }).waitFor({ state: "hidden" });
    expect(await app.page.getByRole("button", { name: "Cancel" }).isVisible()).toBe(false);
  } finally {
    await app.close();
  }
});
