/// <reference lib="dom" />
import type { Browser } from "playwright-core";
import { launchChromium } from "../../support/browser.ts";
import { createTestDatabase, type TestDatabase } from "../../support/database.ts";
import { newMerchant } from "../../support/factories.ts";
import { type ServedPlatform, servePlatform } from "../../support/served-platform.ts";
import { openAppPage } from "../../support/web-app.ts";

let db: TestDatabase;
let browser: Browser;
let platform: ServedPlatform;

beforeAll(async () => {
  db = await createTestDatabase();
  browser = await launchChromium();
  platform = await servePlatform(db.database, db.url);
});
afterAll(async () => {
  await browser?.close();
  await platform?.close();
  await db?.close();
});

test("sign-in: an old error goes as soon as the form changes", async () => {
  const shop = await newMerchant(db.database);
  const app = await openAppPage(browser);
  const { page } = app;
  try {
    await page.goto(`${platform.baseUrl}/dashboard`);
    await page.getByLabel("Email").fill(shop.email);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    const error = page.getByRole("alert").filter({ hasText: "The email or password is not correct." });
    await error.waitFor();
    await page.getByLabel("Password").fill("correct horse");
    await error.waitFor({ state: "detached" });
    expect(await app.accessibilityViolations()).toEqual([]);
  } finally {
    await app.close();
  }
});
