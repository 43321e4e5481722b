/// <reference lib="dom" />
import { randomUUID } from "node:crypto";
import type { Page } from "playwright-core";
import { startMerchantSite } from "../../web/examples/merchant-server.ts";
import { servedBrowserWorld } from "../support/browser-world.ts";
import { newMerchant, type TestMerchant } from "../support/factories.ts";

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
  const payment = (await response.json()) as { id: string; code: string; checkout_url: string; expires_at: string };
  return { ...payment, pageUrl: payment.checkout_url };
}
const mockpay = (id: string, body: Record<string, unknown> = {}) =>
  fetch(`${world.platform.baseUrl}/checkout/${id}/mockpay`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

async function newPage(): Promise<{ page: Page; violations: string[]; close: () => Promise<void> }> {
  const context = await world.browser.newContext();
  const page = await context.newPage();
  const violations: string[] = [];
  page.on("console", (message) => {
    if (message.text().includes("Content Security Policy")) violations.push(message.text());
  });
  return { page, violations, close: () => context.close() };
}

test("the checkout page shows the code and QR, counts down, flips to paid and goes to success_url", async () => {
  const site = await startMerchantSite({ platformUrl: world.platform.baseUrl, secretKey: shop.testKey });
  const payment = await createPayment({ success_url: `${site.url}/thanks` });
  const { page, violations, close } = await newPage();
  try {
    const response = await page.goto(payment.pageUrl);
    expect(response?.status()).toBe(200);
    expect(response?.headers()["content-security-policy"]).toContain("script-src 'self'");
    expect((await page.getByTestId("code").textContent())?.replaceAll(" ", "")).toBe(payment.code);
    const qrWidth = await page.locator("img.qr").evaluate((image: HTMLImageElement) => image.naturalWidth);
    expect(qrWidth).toBeGreaterThan(50);
    const readingStarted = Date.now();
    const first = await page.getByTestId("countdown").textContent();
    const readingEnded = Date.now();
    await page.waitForFunction((before) => document.getElementById("countdown")?.textContent !== before, first, {
      timeout: 30_000,
    });
    // The time left until expires_at (10 minutes at creation), whenever the page got to show it: not
    // less than was left when we read it, and at most a few ticks behind (a loaded machine's timers).
    const [minutes, seconds] = (first?.match(/^(\d+):([0-5]\d)$/)?.slice(1) ?? []).map(Number);
    const shownSeconds = (minutes ?? Number.NaN) * 60 + (seconds ?? Number.NaN);
    const expiresAt = Date.parse(payment.expires_at);
    expect(shownSeconds).toBeGreaterThanOrEqual(Math.floor((expiresAt - readingEnded) / 1000) - 1);
    expect(shownSeconds).toBeLessThanOrEqual(Math.min(600, Math.ceil((expiresAt - readingStarted) / 1000) + 5));
    await mockpay(payment.id);
    await page.waitForURL(`${site.url}/thanks?payment_id=${payment.id}`, { timeout: 30_000 });
    expect(await page.locator("#thanks").textContent()).toContain(payment.id);
    expect(violations).toEqual([]);
  } finally {
    await close();
    await site.close();
  }
});

test("an expired payment shows expiry; an unknown id is an HTML 404 page", async () => {
  const payment = await createPayment();
  const { page, close } = await newPage();
  try {
    await page.goto(payment.pageUrl);
    await mockpay(payment.id, { outcome: "expired" });
    await page.waitForFunction(() => document.getElementById("checkout")?.dataset.status === "expired", null, {
      timeout: 30_000,
    });
    expect(await page.locator("#state").textContent()).toContain("expired");
    expect(await page.locator(".qr").isVisible()).toBe(false);
    const missing = await page.goto(`${world.platform.baseUrl}/checkout/pay_doesnotexist`);
    expect(missing?.status()).toBe(404);
    expect(missing?.headers()["content-type"]).toContain("text/html");
    expect(await page.locator("h1").textContent()).toBe("Payment not found");
  } finally {
    await close();
  }
});

test("pos.js drop-in: the merchant's server creates the payment, the popup pays, the page goes to data-success", async () => {
  const site = await startMerchantSite({ platformUrl: world.platform.baseUrl, secretKey: shop.testKey });
  const { page, close } = await newPage();
  try {
    await page.goto(site.url);
    const [popup] = await Promise.all([page.waitForEvent("popup"), page.click("#drop-in")]);
    await popup.waitForLoadState();
    const paymentId = await popup.locator("#checkout").getAttribute("data-payment-id");
    expect(paymentId).toMatch(/^pay_/);
    await mockpay(paymentId ?? "");
    await popup.waitForEvent("close", { timeout: 30_000 });
    await page.waitForURL(`${site.url}/thanks?payment_id=${paymentId}`, { timeout: 30_000 });
  } finally {
    await close();
    await site.close();
  }
});

test("POS.pay reports onSuccess with the payment id, and onCancel when the payer closes the popup", async () => {
  const site = await startMerchantSite({ platformUrl: world.platform.baseUrl, secretKey: shop.testKey });
  const { page, close } = await newPage();
  try {
    const paid = await createPayment();
    await page.goto(`${site.url}/?checkout_url=${encodeURIComponent(paid.pageUrl)}`);
    const [popup] = await Promise.all([page.waitForEvent("popup"), page.click("#scripted")]);
    await popup.waitForLoadState();
    await mockpay(paid.id);
    await page.waitForFunction(() => document.getElementById("result")?.textContent?.startsWith("paid"), null, {
      timeout: 30_000,
    });
    expect(await page.locator("#result").textContent()).toBe(`paid ${paid.id}`);

    const abandoned = await createPayment();
    await page.goto(`${site.url}/?checkout_url=${encodeURIComponent(abandoned.pageUrl)}`);
    const [second] = await Promise.all([page.waitForEvent("popup"), page.click("#scripted")]);
    await second.waitForLoadState();
    await second.close();
    await page.waitForFunction(() => document.getElementById("result")?.textContent?.startsWith("cancelled"), null, {
      timeout: 30_000,
    });
    expect(await page.locator("#result").textContent()).toBe("cancelled closed");
  } finally {
    await close();
    await site.close();
  }
});

test("a blocked popup falls back to a full-page redirect to the checkout", async () => {
  const site = await startMerchantSite({ platformUrl: world.platform.baseUrl, secretKey: shop.testKey });
  const { page, close } = await newPage();
  try {
    await page.addInitScript(() => {
      window.open = () => null;
    });
    const payment = await createPayment();
    await page.goto(`${site.url}/?checkout_url=${encodeURIComponent(payment.pageUrl)}`);
    await page.click("#scripted");
    await page.waitForURL(payment.pageUrl, { timeout: 30_000 });
    expect((await page.getByTestId("code").textContent())?.replaceAll(" ", "")).toBe(payment.code);
  } finally {
    await close();
    await site.close();
  }
});

test("on a phone-sized screen pos.js goes to the checkout page instead of a popup", async () => {
  const site = await startMerchantSite({ platformUrl: world.platform.baseUrl, secretKey: shop.testKey });
  const context = await world.browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    userAgent:
      "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Mobile Safari/537.36",
  });
  try {
    const page = await context.newPage();
    const payment = await createPayment();
    await page.goto(`${site.url}/?checkout_url=${encodeURIComponent(payment.pageUrl)}`);
    await page.click("#scripted");
    await page.waitForURL(payment.pageUrl, { timeout: 30_000 });
    expect(context.pages()).toHaveLength(1);
  } finally {
    await context.close();
    await site.close();
  }
});

test("messages from any other origin than the checkout's are ignored", async () => {
  const site = await startMerchantSite({ platformUrl: world.platform.baseUrl, secretKey: shop.testKey });
  const { page, close } = await newPage();
  try {
    const payment = await createPayment();
    await page.goto(`${site.url}/?checkout_url=${encodeURIComponent(payment.pageUrl)}`);
    const [popup] = await Promise.all([page.waitForEvent("popup"), page.click("#scripted")]);
    await popup.waitForLoadState();
    // The merchant page itself (another origin than the checkout) forges a success, then posts a
    // marker: messages are dispatched in order, so once the marker arrives pos.js's listener (which
    // acts synchronously) has seen the forgery.
    await page.evaluate(
      (id) =>
        new Promise<void>((resolve) => {
          window.addEventListener("message", function afterForgery(event) {
            if (event.data === "test:after-forgery") {
              window.removeEventListener("message", afterForgery);
              resolve();
            }
          });
          window.postMessage({ type: "pos:paid", payment_id: id }, "*");
          window.postMessage("test:after-forgery", "*");
        }),
      payment.id,
    );
    expect(await page.locator("#result").textContent()).toBe("");
    await mockpay(payment.id);
    await page.waitForFunction(() => document.getElementById("result")?.textContent?.startsWith("paid"), null, {
      timeout: 30_000,
    });
  } finally {
    await close();
    await site.close();
  }
});
