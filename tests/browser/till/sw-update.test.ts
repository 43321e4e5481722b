/// <reference lib="dom" />
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildWeb, type WebManifest } from "../../../web/build.ts";
import { servePlatform } from "../../support/served-platform.ts";
import { addProduct, externalRequests, startTillWorld, TillPage, type TillWorld } from "../../support/till.ts";
import { waitUntil } from "../../support/time.ts";

/**
 * A deploy reaches a till that is open: the next load runs the new build, its service worker replaces
 * the old one and its cache, and a reload without the network then opens the new build, not the old.
 */

let world: TillWorld;
let directory: string;
let next: WebManifest;

beforeAll(async () => {
  world = await startTillWorld();
  await addProduct(world, { name: "Cola 330ml", price_cents: 150, barcode: "5000112637922" });
  directory = await mkdtemp(path.join(tmpdir(), "pos-web-next-"));
  next = await buildWeb({ outDirectory: directory, quiet: true, label: "the next release" });
});
afterAll(async () => {
  await world?.close();
  await rm(directory, { recursive: true, force: true });
});

const runningScript = (till: TillPage) =>
  till.page.evaluate(() => new URL((document.querySelector("script[type=module]") as HTMLScriptElement).src).pathname);
const tillCaches = (till: TillPage) =>
  till.page.evaluate(async () => (await caches.keys()).filter((name) => name.startsWith("till-shell-")));

test("a new build reaches an open till: the next load runs it, its worker replaces the old cache, offline it is the new build that opens", async () => {
  const nextScript = `/assets/${next.apps.till?.script}`;
  const till = await TillPage.open(world);
  const { page, context } = till.app;
  try {
    await till.signIn(world.shop.email);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
    const oldScript = await runningScript(till);
    expect(oldScript).not.toBe(nextScript);
    await waitUntil("the first build is cached", async () => (await tillCaches(till)).length === 1);
    const [oldCache] = await tillCaches(till);

    // The deploy: the same origin now serves the next build.
    const port = Number(new URL(world.platform.baseUrl).port);
    await world.platform.close();
    world.platform = await servePlatform(world.db.database, world.db.url, { WEB_BUILD_DIRECTORY: directory }, { port });

    await page.reload();
    await page.waitForFunction(() => document.activeElement?.id === "scan-input", undefined, { timeout: 30_000 });
    expect(await runningScript(till)).toBe(nextScript);
    await waitUntil("the next build's worker has replaced the old cache", async () => {
      const names = await tillCaches(till);
      return names.length === 1 && names[0] !== oldCache;
    });

    await context.setOffline(true);
    await page.reload();
    await page.waitForFunction(() => document.activeElement?.id === "scan-input", undefined, { timeout: 30_000 });
    expect(await runningScript(till)).toBe(nextScript);
    await till.scan("5000112637922");
    await till.waitForCart([{ name: "Cola 330ml", qty: "1" }]);
    await context.setOffline(false);
    expect(till.app.consoleErrors).toEqual([]);
    expect(externalRequests(till, world.platform.baseUrl)).toEqual([]);
  } finally {
    await till.close();
  }
});
