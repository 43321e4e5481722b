/// <reference lib="dom" />
import type { Page } from "playwright-core";
import { signInToDashboard } from "../../support/dashboard-page.ts";
import { DASHBOARD_SCREENS, TILL_SCREENS } from "../../support/layout.ts";
import { shopDay } from "../../support/shop-http.ts";
import { addProduct, startTillWorld, TillPage, type TillWorld } from "../../support/till.ts";
import { smallTouchTargets } from "../../support/touch-targets.ts";
import { openAppPage } from "../../support/web-app.ts";

/**
 * Touch targets (issue 46: "the 'Pair this till' checkbox is about 13 px; every control a finger uses
 * is at least 44 px"): every visible control of every till screen at 1024×768 (a counter tablet on its
 * side) and of every dashboard screen at 1280×800 measures at least 44 × 44 CSS px.
 */
let world: TillWorld;

beforeAll(async () => {
  world = await startTillWorld();
  await addProduct(world, { name: "Cola 330ml", price_cents: 150, barcode: "5000112637922", stock_qty: 10 });
});
afterAll(() => world?.close());

/** Waits until no "Loading" is left on the screen. */
const settled = (page: Page) =>
  page.waitForFunction(() => !(document.body.textContent ?? "").includes("Loading"), undefined, { timeout: 30_000 });

test("the measure finds a bare 13 px checkbox and a short button, and takes a checkbox's label as its target", async () => {
  const app = await openAppPage(world.browser);
  try {
    await app.page.setContent(`
      <input type="checkbox" aria-label="Pair this till">
      <label style="display:block;padding:12px"><input type="checkbox"> Remember</label>
      <button style="height:30px;width:120px">Short</button>
      <p>Read <a href="#terms">the terms</a> first.</p>`);
    expect(await smallTouchTargets(app.page)).toEqual([
      'input[checkbox] "Pair this till": 13×13',
      'button "Short": 120×30',
    ]);
  } finally {
    await app.close();
  }
});

test("every till screen at 1024×768: each control is at least 44 × 44 px", async () => {
  const till = await TillPage.open(world, { viewport: { width: 1024, height: 768 } });
  const { page } = till;
  try {
    const found: string[] = [];
    await page.goto(`${world.platform.baseUrl}/till`);
    await page.getByRole("button", { name: "Pair this till", exact: true }).waitFor();
    for (const problem of await smallTouchTargets(page)) found.push(`Pair: ${problem}`);
    await till.signIn(world.shop.email);
    await till.scan("5000112637922");
    await till.waitForCart([{ name: "Cola 330ml", qty: "1" }]);
    for (const screen of TILL_SCREENS) {
      await page.getByRole("link", { name: screen, exact: true }).click();
      await settled(page);
      for (const problem of await smallTouchTargets(page)) found.push(`${screen}: ${problem}`);
    }
    expect(found).toEqual([]);
  } finally {
    await till.close();
  }
});

test("every dashboard screen at 1280×800: each control is at least 44 × 44 px", async () => {
  const day = await shopDay(world.platform.baseUrl, world.shop.email);
  const app = await openAppPage(world.browser);
  const { page } = app;
  try {
    const found: string[] = [];
    await page.goto(`${world.platform.baseUrl}/dashboard`);
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    for (const problem of await smallTouchTargets(page)) found.push(`Sign in: ${problem}`);
    await signInToDashboard(app, world.platform.baseUrl, world.shop.email);
    for (const link of DASHBOARD_SCREENS) {
      await page.getByRole("navigation").getByRole("link", { name: link, exact: true }).click();
      await page.getByRole("heading", { level: 1 }).first().waitFor();
      await settled(page);
      for (const problem of await smallTouchTargets(page)) found.push(`${link}: ${problem}`);
    }
    for (const detail of [`sales/${day.saleIds[0]}`, `shifts/${day.shiftId}`]) {
      await page.goto(`${world.platform.baseUrl}/dashboard/${detail}`);
      await page.getByRole("heading", { level: 1 }).first().waitFor();
      await settled(page);
      for (const problem of await smallTouchTargets(page)) found.push(`${detail}: ${problem}`);
    }
    expect(found).toEqual([]);
  } finally {
    await app.close();
  }
});
