/// <reference lib="dom" />
import { readFile } from "node:fs/promises";
import path from "node:path";
import { WEB_BUILD_DIRECTORY, type WebManifest } from "../../../web/build.ts";
import { externalRequests, startTillWorld, TillPage, type TillWorld } from "../../support/till.ts";
import { waitUntil } from "../../support/time.ts";

/**
 * The screens a cashier opens now and then (the drawer, Today with its returns, stock, this till) are
 * a chunk loaded on demand (web/build.ts). The service worker caches every file of the till's build,
 * chunks included, so a till that lost the network still opens them.
 */

let world: TillWorld;

beforeAll(async () => {
  world = await startTillWorld();
});
afterAll(() => world?.close());

/** The paths the till's service worker has cached, in every till cache. */
const cachedPaths = (till: TillPage) =>
  till.page.evaluate(async () => {
    const names = (await caches.keys()).filter((name) => name.startsWith("till-shell-"));
    const requests = await Promise.all(names.map(async (name) => (await caches.open(name)).keys()));
    return requests.flatMap((list) => list.map((request) => new URL(request.url).pathname)).sort();
  });

test("offline, after a reload, the drawer, Today, Stock and This till open: their chunk comes from the service worker's cache", async () => {
  // The build the platform serves (tests' global setup): the till's files are its script, style and chunks.
  const manifest = JSON.parse(await readFile(path.join(WEB_BUILD_DIRECTORY, "manifest.json"), "utf8")) as WebManifest;
  const tillAssets = Object.keys(manifest.files)
    .filter((name) => name.startsWith("till-"))
    .map((name) => `/assets/${name}`);
  expect(tillAssets.some((asset) => /^\/assets\/till-chunk-\w+\.js$/.test(asset))).toBe(true);

  const till = await TillPage.open(world);
  const { page, context } = till.app;
  try {
    await till.signIn(world.shop.email);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
    const expected = ["/till", ...tillAssets].sort();
    await waitUntil("the service worker cached the whole build", async () => {
      const cached = await cachedPaths(till);
      return cached.length === expected.length;
    });
    expect(await cachedPaths(till)).toEqual(expected);

    // Offline, and a fresh page (the reload): no chunk is loaded yet, only the cache can answer.
    await context.setOffline(true);
    await page.reload();
    await page.waitForFunction(() => document.activeElement?.id === "scan-input", undefined, { timeout: 30_000 });
    const chunks: { path: string; status: number; fromServiceWorker: boolean }[] = [];
    page.on("response", (response) => {
      const { pathname } = new URL(response.url());
      if (pathname.startsWith("/assets/till-chunk-")) {
        chunks.push({ path: pathname, status: response.status(), fromServiceWorker: response.fromServiceWorker() });
      }
    });

    await page.getByRole("link", { name: "Drawer" }).click();
    await page.getByRole("heading", { name: "Drawer", exact: true }).waitFor();
    await page.getByRole("link", { name: "Today" }).click();
    await page.getByRole("heading", { name: "Today", exact: true }).waitFor();
    await page.getByRole("heading", { name: "Returns" }).waitFor();
    await page.getByRole("link", { name: "Stock" }).click();
    await page.getByRole("heading", { name: "Stock", exact: true }).waitFor();
    await page.getByRole("link", { name: "This till" }).click();
    await page.getByRole("heading", { name: /^This till: / }).waitFor();
    expect(await page.getByText("This page could not be loaded").count()).toBe(0);

    expect(chunks.length).toBeGreaterThan(0);
    expect(chunks.every((chunk) => chunk.status === 200 && chunk.fromServiceWorker)).toBe(true);
    expect(chunks.every((chunk) => tillAssets.includes(chunk.path))).toBe(true);
    await context.setOffline(false);
    expect(externalRequests(till, world.platform.baseUrl)).toEqual([]);
  } finally {
    await till.close();
  }
});
