import type { Config } from "../../src/platform/config.ts";
import { freePort } from "../../src/platform/db/embedded.ts";
import type { Database } from "../../src/platform/db/pool.ts";
import { closeGracefully, listen } from "../../src/platform/http/server.ts";
import { testApp, testConfig } from "./app.ts";
import { createTestDatabase, type TestDatabase } from "./database.ts";

export type ServedPlatform = { baseUrl: string; config: Config; close: () => Promise<void> };

/**
 * The API listening on its own loopback port, which is also its public base URL, for tests that drive
 * a browser: pages and links point back at it, and its origin differs from any other site's. Test
 * payments do not settle by themselves (a browser test settles them by mockpay), and the rate limit is
 * out of the way of a page's requests. `environment` adds settings (a test that drives webhook
 * deliveries itself uses the returned config for them). `port` serves again on an origin a browser
 * already knows (another build of the apps behind the same origin: a deploy).
 */
export async function servePlatform(
  database: Database,
  databaseUrl: string,
  environment: Record<string, string> = {},
  options: { port?: number } = {},
): Promise<ServedPlatform> {
  const port = options.port ?? (await freePort());
  const baseUrl = `http://127.0.0.1:${port}`;
  const config = testConfig(databaseUrl, {
    PUBLIC_BASE_URL: baseUrl,
    SANDBOX_AUTO_SETTLE_SECONDS: "3600",
    RATE_LIMIT_REQUESTS: "10000",
    ...environment,
  });
  const app = testApp({ database, config });
  const server = await listen(app, port, "127.0.0.1");
  return { baseUrl, config, close: () => closeGracefully(server, 1000) };
}

/** A test file's database and the platform served over it, for every test of the file. */
export function servedPlatformWorld() {
  const world = { db: undefined as unknown as TestDatabase, platform: undefined as unknown as ServedPlatform };
  beforeAll(async () => {
    world.db = await createTestDatabase();
    world.platform = await servePlatform(world.db.database, world.db.url);
  });
  afterAll(async () => {
    await world.platform?.close();
    await world.db?.close();
  });
  return world;
}
