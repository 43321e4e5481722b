/// <reference lib="dom" />
import { parseArgs } from "node:util";
import type { Page } from "playwright-core";
import { createMerchant } from "../src/modules/merchants/service.ts";
import { loadConfig } from "../src/platform/config.ts";
import { freePort } from "../src/platform/db/embedded.ts";
import { createDatabase, sql } from "../src/platform/db/pool.ts";
import { closeGracefully, listen } from "../src/platform/http/server.ts";
import { createLogger } from "../src/platform/telemetry/logger.ts";
import { buildApiApp } from "../src/wiring/api.ts";
import { launchChromium } from "../tests/support/browser.ts";
import { PASSWORD, TillPage } from "../tests/support/till.ts";
import { buildWeb } from "../web/build.ts";
import { createBenchDatabase, percentile } from "./support.ts";

/**
 * npm run bench:till [-- --products 10000 --tills 4 --seconds 120 --scans 300]
 *
 * Real Chromium tills against the real API (in this process, default rate limit of 60 requests per
 * 10 s per merchant), one merchant with a catalog of `products`:
 * 1. Sign-in to ready-to-scan (the scan box focused), with an empty browser and again with the
 *    catalog kept in IndexedDB, and how long the cold catalog takes to arrive.
 * 2. Scan → cart line with the whole catalog in the browser: from the scanner's Enter to the cart's DOM
 *    changed, and to the next animation frame (p50 / p95 over `scans` scans).
 * 3. `tills` tills of one shop, each scanning an item a second and taking a wallet payment every 30 s
 *    (the customer pays some seconds after the code shows), for `seconds`: the shop's /v1 requests
 *    per 10 s window and any 429. The tills start one after another, each once the previous one's
 *    catalog has arrived (a shop's tills keep their catalog between days; the cold start is reported
 *    in part 1).
 */
const { values } = parseArgs({
  options: {
    products: { type: "string", default: "10000" },
    tills: { type: "string", default: "4" },
    seconds: { type: "string", default: "120" },
    scans: { type: "string", default: "300" },
  },
});
const productCount = Number(values.products);
const tillCount = Number(values.tills);
const trafficSeconds = Number(values.seconds);
const scanSamples = Number(values.scans);
const WINDOW_MS = 10_000;
const WALLET_EVERY_MS = 30_000;

const barcodeOf = (n: number) => String(6_000_000_000_000 + n);

const quiet = createLogger({ level: "warn", service: "bench" });
const benchDatabase = await createBenchDatabase(loadConfig().databaseUrl);
const database = await createDatabase({
  url: benchDatabase.url,
  poolSize: 10,
  statementTimeoutMs: 30_000,
  logger: quiet,
  applicationName: "bench-till",
});
const port = await freePort();
const baseUrl = `http://127.0.0.1:${port}`;
const config = loadConfig({
  ...process.env,
  DATABASE_URL: benchDatabase.url,
  PUBLIC_BASE_URL: baseUrl,
  LOG_LEVEL: "warn",
  WEBHOOK_SECRET_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
});
await buildWeb({ quiet: true });
const server = await listen(buildApiApp({ config, logger: quiet, database }), port, "127.0.0.1");
const browser = await launchChromium();

try {
  const created = await createMerchant(database, {
    name: "Bench Grocer",
    type: "business",
    email: "till-bench@example.com",
    password: PASSWORD,
    status: "active",
    fee_bps: 150,
    fee_fixed_cents: 0,
    payout_verified: false,
    timezone: "Africa/Harare",
  });
  const merchantId = created.merchant.id;
  await database.query(
    sql.unsafe`
      INSERT INTO products (merchant_id, id, name, barcode, category, price_cents, currency, track_stock, stock_qty)
      SELECT ${merchantId}, 'prod_till_bench_' || n, 'Item ' || lpad(n::text, 5, '0'), (6000000000000 + n)::text,
        'Aisle ' || (n % 20), 100 + n % 900, 'USD', true, 1000000
      FROM generate_series(1, ${productCount}::int) AS n`,
  );
  const world = { browser, platform: { baseUrl } };

  // 1. Sign-in to ready-to-scan, cold and warm, and the cold catalog's arrival.
  const till = await TillPage.open(world);
  const catalogArrived = catalogArrival(till.page);
  const coldSignInMs = await till.signIn("till-bench@example.com");
  const coldCatalogMs = await catalogArrived;
  await till.page.getByRole("button", { name: "Sign out" }).click();
  await till.page.getByRole("heading", { name: "Sign in to the till" }).waitFor();
  const warmArrived = catalogArrival(till.page);
  const warmSignInMs = await till.signIn("till-bench@example.com");
  const warmCatalogMs = await warmArrived;
  process.stdout.write(
    `sign-in click → ready to scan: ${coldSignInMs.toFixed(0)} ms with an empty browser, ` +
      `${warmSignInMs.toFixed(0)} ms with the catalog kept\n` +
      `catalog of ${productCount} products in the browser after: ${coldCatalogMs.toFixed(0)} ms cold, ` +
      `${warmCatalogMs.toFixed(0)} ms warm (change feed only)\n`,
  );

  // 2. Scan → cart line.
  await installScanTimer(till.page);
  for (let index = 0; index < scanSamples; index += 1) {
    if (index % 25 === 0) await emptyCart(till.page);
    const before = await till.page.evaluate(() => (window as unknown as BenchWindow).scanTimes.length);
    await till.scan(barcodeOf(1 + Math.floor(Math.random() * productCount)));
    await till.page.waitForFunction((count) => (window as unknown as BenchWindow).scanTimes.length > count, before);
  }
  const times = await till.page.evaluate(() => (window as unknown as BenchWindow).scanTimes);
  process.stdout.write(
    `scan → cart line (${times.length} scans, ${productCount} products cached): ` +
      `DOM updated p50 ${percentile(
        times.map((t) => t[0]),
        0.5,
      ).toFixed(2)} ms, p95 ${percentile(
        times.map((t) => t[0]),
        0.95,
      ).toFixed(2)} ms; ` +
      `next frame p50 ${percentile(
        times.map((t) => t[1]),
        0.5,
      ).toFixed(1)} ms, p95 ${percentile(
        times.map((t) => t[1]),
        0.95,
      ).toFixed(1)} ms\n`,
  );
  await till.close();

  // 3. A shop of `tillCount` tills within the rate limit.
  const requests: number[] = [];
  const refusals: string[] = [];
  const tills: TillPage[] = [];
  for (let index = 0; index < tillCount; index += 1) {
    const page = await TillPage.open(world);
    const arrived = catalogArrival(page.page);
    await page.signIn("till-bench@example.com");
    await arrived;
    page.page.on("request", (request) => {
      if (new URL(request.url()).pathname.startsWith("/v1/")) requests.push(Date.now());
    });
    page.page.on("response", (response) => {
      if (response.status() === 429) refusals.push(response.url());
    });
    tills.push(page);
  }
  const started = Date.now();
  const deadline = started + trafficSeconds * 1000;
  let walletSales = 0;
  await Promise.all(
    tills.map(async (shopTill, index) => {
      // The tills' payments spread over the 30 s, as customers arrive.
      let nextPayment = started + WALLET_EVERY_MS * ((index + 1) / tills.length);
      while (Date.now() < deadline) {
        if (Date.now() >= nextPayment) {
          await payByWallet(shopTill.page);
          walletSales += 1;
          nextPayment += WALLET_EVERY_MS;
          continue;
        }
        await shopTill.scan(barcodeOf(1 + Math.floor(Math.random() * productCount)));
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }),
  );
  const windows = new Map<number, number>();
  for (const at of requests) {
    if (at < started || at >= deadline) continue;
    const window = Math.floor((at - started) / WINDOW_MS);
    windows.set(window, (windows.get(window) ?? 0) + 1);
  }
  const counts = Array.from({ length: Math.floor(trafficSeconds / 10) }, (_, window) => windows.get(window) ?? 0);
  process.stdout.write(
    `${tillCount} tills, a scan a second each and a wallet payment every 30 s (${walletSales} paid), ` +
      `${trafficSeconds} s: /v1 requests per 10 s for the merchant: ${counts.join(" ")} ` +
      `(max ${Math.max(...counts)}, limit 60); 429 answers: ${refusals.length}\n`,
  );
  for (const shopTill of tills) await shopTill.close();
} finally {
  await browser.close();
  await closeGracefully(server, 1000);
  await database.end();
  await benchDatabase.dispose();
}

type BenchWindow = { scanTimes: [number, number][] };

/** Resolves with the ms until the catalog feed's last page arrived (a page with no next cursor). */
function catalogArrival(page: Page): Promise<number> {
  const started = performance.now();
  return new Promise((resolve) => {
    const onResponse = async (response: import("playwright-core").Response) => {
      const url = new URL(response.url());
      if (url.pathname !== "/v1/products" || !url.searchParams.has("updated_since")) return;
      const body = (await response.json().catch(() => ({}))) as { next_cursor?: string | null };
      if (body.next_cursor === null) {
        page.off("response", onResponse);
        resolve(performance.now() - started);
      }
    };
    page.on("response", onResponse);
  });
}

/** Times each scan in the page: from its Enter to the cart's DOM changed, and to the next frame. */
async function installScanTimer(page: Page): Promise<void> {
  await page.evaluate(() => {
    const bench = window as unknown as BenchWindow & { scanStarted?: number };
    bench.scanTimes = [];
    // On window, capture: before the till's own listener on the document.
    window.addEventListener(
      "keydown",
      (event) => {
        if (event.key === "Enter") bench.scanStarted = performance.now();
      },
      { capture: true },
    );
    const cart = document.querySelector(".cart");
    if (cart === null) throw new Error("no cart on screen");
    new MutationObserver(() => {
      const started = bench.scanStarted;
      if (started === undefined) return;
      bench.scanStarted = undefined;
      const changed = performance.now() - started;
      requestAnimationFrame(() => bench.scanTimes.push([changed, performance.now() - started]));
    }).observe(cart, { subtree: true, childList: true, characterData: true, attributes: true });
  });
}

async function emptyCart(page: Page): Promise<void> {
  await page.evaluate(() => {
    for (const button of document.querySelectorAll<HTMLButtonElement>('button[aria-label^="Remove "]')) button.click();
  });
  await page.waitForFunction(() => document.querySelectorAll(".cart-line").length === 0);
}

/** Pay wallet, the customer pays a few seconds later (mockpay, as their wallet would), the screen flips. */
async function payByWallet(page: Page): Promise<void> {
  if ((await page.locator(".cart-line").count()) === 0) return;
  await page.getByRole("button", { name: "Pay wallet" }).click();
  await page.getByTestId("payment-code").waitFor({ timeout: 30_000 });
  await new Promise((resolve) => setTimeout(resolve, 3000 + Math.random() * 4000));
  await page.getByRole("button", { name: "Simulate customer paid (TEST)" }).click();
  await page.getByRole("dialog", { name: "Pay by wallet" }).waitFor({ state: "hidden", timeout: 30_000 });
}
