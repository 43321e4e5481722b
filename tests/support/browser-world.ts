import type { Browser } from "playwright-core";
import { launchChromium } from "./browser.ts";
import { createTestDatabase, type TestDatabase } from "./database.ts";
import { type ServedPlatform, servePlatform } from "./served-platform.ts";

/** What a browser test file runs against: its database, Chromium, and the platform served over the database. */
export type BrowserWorld = { db: TestDatabase; browser: Browser; platform: ServedPlatform };

/**
 * A test file's database, Chromium and served platform, for every test of the file. Call it at the
 * top of the file: it registers the `beforeAll` that fills the returned world's fields (read them in
 * tests and hooks, not when the file loads) and the `afterAll` that closes the browser, the platform
 * and the database, skipping what a failed setup never made. A file's own `beforeAll` declared after
 * the call runs after this one (Jest runs hooks in the order declared); a file's own `afterAll` that
 * must run before the closing is declared before the call.
 */
export function servedBrowserWorld(): BrowserWorld {
  const world = {
    db: undefined as unknown as TestDatabase,
    browser: undefined as unknown as Browser,
    platform: undefined as unknown as ServedPlatform,
  };
  beforeAll(async () => {
    world.db = await createTestDatabase();
    world.browser = await launchChromium();
    world.platform = await servePlatform(world.db.database, world.db.url);
  });
  afterAll(async () => {
    await world.browser?.close();
    await world.platform?.close();
    await world.db?.close();
  });
  return world;
}
