/// <reference lib="dom" />
import type { Route } from "playwright-core";
import { servedBrowserWorld } from "../../support/browser-world.ts";
import { expectCleanSession, signInToDashboard } from "../../support/dashboard-page.ts";
import { newMerchant } from "../../support/factories.ts";
import { type AppPage, openAppPage } from "../../support/web-app.ts";

const world = servedBrowserWorld();

/** The pages that came out of the dashboard's first load (web/dashboard/app.tsx): each its own chunk. */
const LAZY_PAGES = ["Balance", "Payouts", "Cashiers", "Till devices"] as const;

/** A script the shell did not load first: a chunk of a page loaded on demand (web/build.ts). */
const CHUNKS = "**/assets/dashboard-chunk-*.js";

const navigationLink = (app: AppPage, name: string) =>
  app.page.getByRole("navigation").getByRole("link", { name, exact: true });

test("Balance, Payouts, Cashiers and Till devices load on first visit: Loading… until their script arrives, then the page", async () => {
  const shop = await newMerchant(world.db.database);
  const app = await openAppPage(world.browser);
  const { page } = app;
  try {
    await signInToDashboard(app, world.platform.baseUrl, shop.email);
    for (const name of LAZY_PAGES) {
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      const hold = async (route: Route) => {
        await released;
        await route.continue();
      };
      await page.route(CHUNKS, hold);
      const requested = page.waitForRequest((request) => request.url().includes("/assets/dashboard-chunk-"));
      await navigationLink(app, name).click();
      await requested;
      // The page's script is on its way: the loading state, and not yet the page.
      await page.getByRole("main").getByText("Loading…").waitFor();
      expect(await page.getByRole("heading", { name, level: 1 }).count()).toBe(0);
      expect(await app.accessibilityViolations()).toEqual([]);
      release();
      await page.getByRole("heading", { name, level: 1 }).waitFor();
      await page.unroute(CHUNKS, hold);
    }
    expect(app.refusals).toEqual(["401 GET /v1/session"]);
    expectCleanSession(app, world.platform.baseUrl);
  } finally {
    await app.close();
  }
});

test("a page whose script cannot be fetched says so, as the other pages loaded on demand do", async () => {
  const shop = await newMerchant(world.db.database);
  const app = await openAppPage(world.browser);
  const { page } = app;
  try {
    await signInToDashboard(app, world.platform.baseUrl, shop.email);
    await page.route(CHUNKS, (route) => route.abort("internetdisconnected"));
    for (const name of LAZY_PAGES) {
      await navigationLink(app, name).click();
      await page
        .getByRole("alert")
        .filter({ hasText: "This page could not be loaded. Check the connection and reload." })
        .waitFor();
      expect(await page.getByRole("heading", { name, level: 1 }).count()).toBe(0);
      expect(await app.accessibilityViolations()).toEqual([]);
    }
    expectCleanSession(app, world.platform.baseUrl);
  } finally {
    await app.close();
  }
});
