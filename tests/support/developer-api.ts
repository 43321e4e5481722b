import Stripe from "stripe";
import request from "supertest";
import { z } from "zod";
import type { EventType } from "../../src/modules/events/event-types.ts";
import * as events from "../../src/modules/events/service.ts";
import { createDeliveryStore } from "../../src/modules/webhooks/delivery-store.ts";
import { createWebhookPoster } from "../../src/modules/webhooks/post-webhook.ts";
import { attemptDelivery, claimDueDeliveries } from "../../src/modules/webhooks/service.ts";
import type { Config } from "../../src/platform/config.ts";
import { sql } from "../../src/platform/db/pool.ts";
import { testApp, testConfig } from "./app.ts";
import { createTestDatabase, type TestDatabase } from "./database.ts";
import { newMerchant, type TestMerchant } from "./factories.ts";

export const as = (key: string) => ({ Authorization: `Bearer ${key}` });
export const stripe = new Stripe("sk_test_unused");

const deliveryRowSchema = z.object({
  id: z.string(),
  endpoint_id: z.string(),
  event_id: z.string(),
  status: z.string(),
  attempt_count: z.number(),
  created_at: z.date(),
});

/**
 * What the developer API's test files share: a test database and an app for the file, a fresh shop
 * for each test, and its endpoints, events and deliveries. No worker pool runs here: the tests
 * attempt deliveries themselves, step by step (`deliverAll`). One retry, right away: a delivery to a
 * failing receiver is dead after its second attempt.
 */
export function developerApiTestWorld() {
  const poster = createWebhookPoster({ timeoutMs: 2000 });
  const world = {
    db: undefined as unknown as TestDatabase,
    config: undefined as unknown as Config,
    app: undefined as unknown as ReturnType<typeof testApp>,
    shop: undefined as unknown as TestMerchant,
    /** The webhook poster the deliveries go out through (closed after the file). */
    poster,
    registered: async (key: string, url: string) => {
      const response = await request(world.app).post("/v1/webhook_endpoints").set(as(key)).send({ url });
      expect(response.status).toBe(201);
      return response.body as { id: string; secret: string };
    },
    emit: (merchantId: string, type: EventType = "payment.paid", data: Record<string, unknown> = {}) =>
      world.db.database.transaction((transaction) =>
        events.emit(transaction, { merchantId, livemode: false, type, data }),
      ),
    deliveriesOf: (merchantId: string) =>
      world.db.database.any(sql.type(deliveryRowSchema)`
        SELECT id, endpoint_id, event_id, status, attempt_count, created_at FROM webhook_deliveries
        WHERE merchant_id = ${merchantId} ORDER BY created_at, id`),
    /** Attempts the merchant's due deliveries until none is pending, as the delivery worker would. */
    deliverAll: (merchantId: string) => deliverAll(world, merchantId),
    waitForFeed: (merchantId: string, done: (ids: string[]) => boolean) => waitForFeed(world.db, merchantId, done),
    /** Waits until the database clock has passed `time`, so rows created next are created after it. */
    waitForDatabaseClockPast: (time: Date) => waitForDatabaseClockPast(world.db, time),
  };
  beforeAll(async () => {
    world.db = await createTestDatabase();
    world.config = testConfig(world.db.url, { WEBHOOK_RETRY_SCHEDULE_SECONDS: "0.001" });
    world.app = testApp({ database: world.db.database, config: world.config });
  });
  beforeEach(async () => {
    world.shop = await newMerchant(world.db.database);
  });
  afterAll(async () => {
    poster.close();
    await world.db.close();
  });
  return world;
}

async function deliverAll(
  world: {
    db: TestDatabase;
    config: Config;
    poster: ReturnType<typeof createWebhookPoster>;
    deliveriesOf: (merchantId: string) => Promise<readonly { status: string }[]>;
  },
  merchantId: string,
): Promise<void> {
  const dependencies = { store: createDeliveryStore(world.db.database), config: world.config, post: world.poster.post };
  const deadline = Date.now() + 30_000;
  for (;;) {
    const claimed = await claimDueDeliveries(dependencies, { limit: 100, merchantId });
    for (const delivery of claimed) {
      await attemptDelivery(dependencies, delivery);
    }
    if (claimed.length > 0) {
      continue;
    }
    const pending = (await world.deliveriesOf(merchantId)).filter((delivery) => delivery.status === "pending");
    if (pending.length === 0) {
      return;
    }
    if (Date.now() > deadline) {
      throw new Error(`${pending.length} deliveries still pending`);
    }
    // A retry not yet due: look again shortly (the deadline bounds it).
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Waits until the feed's ids satisfy `done`: the feed exposes an event once every older transaction on
 * the server has ended, and other test files share the server. It polls through the service (the HTTP
 * rate limit would throttle a tight loop); the tests then read the feed over HTTP once.
 */
async function waitForFeed(db: TestDatabase, merchantId: string, done: (ids: string[]) => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const page = await events.listEventsSince(db.database, {
      merchantId,
      livemode: false,
      since: undefined,
      limit: 100,
    });
    if (done(page.data.map((event) => event.id))) {
      return;
    }
    if (Date.now() > deadline) {
      throw new Error("the feed did not show the expected events in time");
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function waitForDatabaseClockPast(db: TestDatabase, time: Date): Promise<void> {
  for (;;) {
    const now = await db.database.oneFirst(sql.type(z.object({ now: z.date() }))`SELECT clock_timestamp() AS now`);
    if (now.getTime() > time.getTime()) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}
