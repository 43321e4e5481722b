import { randomUUID } from "node:crypto";
import type { AppPage } from "./web-app.ts";

/** The password every factory-made merchant's dashboard user has. */
export const DASHBOARD_PASSWORD = "correct horse battery";

/**
 * Signs in on the dashboard and waits for Home's balances; returns the milliseconds from the click
 * to Home rendered (the figure the issue asks for, printed too).
 */
export async function signInToDashboard(app: AppPage, baseUrl: string, email: string): Promise<number> {
  const { page } = app;
  await page.goto(`${baseUrl}/dashboard`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(DASHBOARD_PASSWORD);
  const started = performance.now();
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.locator(".balance").first().waitFor({ state: "visible", timeout: 20_000 });
  const elapsedMs = performance.now() - started;
  process.stdout.write(`dashboard: sign-in click to Home rendered in ${elapsedMs.toFixed(0)} ms\n`);
  return elapsedMs;
}

/** Opens a page through the navigation (as a user would) and waits for its heading. */
export async function openDashboardPage(app: AppPage, link: string, heading = link): Promise<void> {
  await app.page.getByRole("navigation").getByRole("link", { name: link, exact: true }).click();
  await app.page.getByRole("heading", { name: heading, level: 1 }).waitFor();
}

/** The page's own requests all went to the platform's origin; no console error was logged. */
export function expectCleanSession(app: AppPage, baseUrl: string): void {
  expect(app.consoleErrors).toEqual([]);
  expect(app.requests.length).toBeGreaterThan(0);
  expect(app.requests.filter((url) => !url.startsWith(`${baseUrl}/`))).toEqual([]);
}

/** A test payment made with a merchant's key and paid through mockpay, as a payer would. */
export async function paidTestPayment(
  baseUrl: string,
  testKey: string,
  payment: { amountCents: number; merchantRef: string },
): Promise<{ id: string }> {
  const created = await fetch(`${baseUrl}/v1/payments`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${testKey}`,
      "idempotency-key": randomUUID(),
      "content-type": "application/json",
    },
    body: JSON.stringify({ amount_cents: payment.amountCents, merchant_ref: payment.merchantRef }),
  });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const paid = await fetch(`${baseUrl}/checkout/${id}/mockpay`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}",
  });
  expect(paid.status).toBe(200);
  return { id };
}

/** Adds an endpoint on the Webhooks page and returns the signing secret the page showed once. */
export async function addWebhookEndpoint(app: AppPage, url: string): Promise<string> {
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
