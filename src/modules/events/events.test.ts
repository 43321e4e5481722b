import request from "supertest";
import { z } from "zod";
import { testApp, testConfig } from "../../../tests/support/app.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/database.ts";
import { newMerchant, type TestMerchant } from "../../../tests/support/factories.ts";
import { sql } from "../../platform/db/pool.ts";
import * as events from "./service.ts";

let db: TestDatabase;
let app: ReturnType<typeof testApp>;
let shop: TestMerchant;

beforeAll(async () => {
  db = await createTestDatabase({ poolSize: 30 });
  app = testApp({ database: db.database, config: testConfig(db.url) });
});
beforeEach(async () => {
  shop = await newMerchant(db.database);
});
afterAll(() => db.close());

function emit(merchantId: string, livemode: boolean, data: Record<string, unknown>) {
  return db.database.transaction((transaction) =>
    events.emit(transaction, { merchantId, livemode, type: "payment.paid", data }),
  );
}

async function poll(key: string, since?: string, limit?: number) {
  const response = await request(app)
    .get("/v1/events")
    .query({ ...(since === undefined ? {} : { since }), ...(limit === undefined ? {} : { limit }) })
    .set("Authorization", `Bearer ${key}`);
  return response;
}

/**
 * Polls until the page holds `count` events. The feed exposes an event once every older transaction
 * on the database server has ended, and other test files run transactions on the same server.
 */
async function pollFor(count: number, key: string, since?: string, limit?: number) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const response = await poll(key, since, limit);
    if (response.body.data?.length >= count || Date.now() > deadline) {
      return response;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A gate that a test opens later: holds a transaction open until then. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

test("events come oldest first in the specification's shape, per merchant and world", async () => {
  const first = await emit(shop.id, false, { payment_id: "pay_1", amount_cents: 100 });
  const second = await emit(shop.id, false, { payment_id: "pay_2", amount_cents: 200 });
  await emit(shop.id, true, { payment_id: "pay_live" });
  const other = await newMerchant(db.database);
  await emit(other.id, false, { payment_id: "pay_other" });

  const response = await pollFor(2, shop.testKey);
  expect(response.status).toBe(200);
  expect(response.body).toEqual({
    data: [
      {
        id: first.id,
        type: "payment.paid",
        livemode: false,
        created_at: first.created_at.toISOString(),
        data: { payment_id: "pay_1", amount_cents: 100 },
      },
      expect.objectContaining({ id: second.id, data: { payment_id: "pay_2", amount_cents: 200 } }),
    ],
    has_more: false,
    next_cursor: null,
  });
  expect(first.id).toMatch(/^evt_/);
  const live = await pollFor(1, shop.liveKey);
  expect(live.body.data.map((event: { data: { payment_id: string } }) => event.data.payment_id)).toEqual(["pay_live"]);
  expect((await poll(shop.testKey, second.id)).body.data).toEqual([]);
});

test("since and limit page through the feed; an unknown since is a 404", async () => {
  const emitted = [];
  for (let index = 0; index < 5; index += 1) {
    emitted.push((await emit(shop.id, false, { index })).id);
  }
  const page = await pollFor(2, shop.testKey, undefined, 2);
  expect(page.body.data.map((event: { id: string }) => event.id)).toEqual(emitted.slice(0, 2));
  expect(page.body).toMatchObject({ has_more: true, next_cursor: emitted[1] });
  const rest = await pollFor(3, shop.testKey, page.body.next_cursor);
  expect(rest.body.data.map((event: { id: string }) => event.id)).toEqual(emitted.slice(2));
  expect((await poll(shop.testKey, "evt_unknown")).status).toBe(404);
  // Another world's event id is unknown in this world.
  expect((await poll(shop.liveKey, emitted[0])).status).toBe(404);
  expect((await poll(shop.testKey, undefined, 101)).status).toBe(400);
  expect(
    (await request(app).get(`/v1/events/${emitted[0]}`).set("Authorization", `Bearer ${shop.testKey}`)).body.id,
  ).toBe(emitted[0]);
});

test("order=newest_first lists newest first and pages on to older ones; a bad order is a 400", async () => {
  const other = await newMerchant(db.database);
  const emitted = [];
  for (let index = 0; index < 3; index += 1) {
    emitted.push((await emit(other.id, false, { index })).id);
  }
  // Oldest first shows all three once the feed's horizon has passed them.
  await pollFor(3, other.testKey);
  const newest = (since?: string) =>
    request(app)
      .get("/v1/events")
      .query({ order: "newest_first", limit: 2, ...(since === undefined ? {} : { since }) })
      .set("Authorization", `Bearer ${other.testKey}`);
  const first = await newest();
  expect(first.body.data.map((event: { id: string }) => event.id)).toEqual([emitted[2], emitted[1]]);
  expect(first.body).toMatchObject({ has_more: true, next_cursor: emitted[1] });
  const rest = await newest(first.body.next_cursor);
  expect(rest.body.data.map((event: { id: string }) => event.id)).toEqual([emitted[0]]);
  expect(rest.body.has_more).toBe(false);
  const bad = await request(app)
    .get("/v1/events")
    .query({ order: "sideways" })
    .set("Authorization", `Bearer ${other.testKey}`);
  expect(bad.status).toBe(400);
});

test("an event is written with its change or not at all", async () => {
  await expect(
    db.database.transaction(async (transaction) => {
      await events.emit(transaction, { merchantId: shop.id, livemode: false, type: "payment.paid", data: {} });
      throw new Error("the change failed");
    }),
  ).rejects.toThrow("the change failed");
  // A later committed event shows the feed has caught up past the rolled-back one.
  const marker = await emit(shop.id, false, { marker: true });
  const feed = await pollFor(1, shop.testKey);
  expect(feed.body.data.map((event: { id: string }) => event.id)).toEqual([marker.id]);
});

test("a transaction that took its id first but commits last is not skipped by a poller", async () => {
  // A takes a transaction id, then B emits and commits, then A emits and commits. Ordered by
  // insertion, A's event would come after B's but become visible after the poller had moved past B.
  const holdA = gate();
  const aHasId = gate();
  const transactionA = db.database.transaction(async (transaction) => {
    await transaction.query(sql.unsafe`SELECT pg_current_xact_id()`);
    aHasId.open();
    await holdA.opened;
    return events.emit(transaction, { merchantId: shop.id, livemode: false, type: "payment.paid", data: { who: "A" } });
  });
  await aHasId.opened;
  const eventB = await emit(shop.id, false, { who: "B" });

  // While A runs, B is committed but not yet exposed: A could still add an event ahead of it.
  const early = await poll(shop.testKey);
  expect(early.body.data).toEqual([]);

  holdA.open();
  const eventA = await transactionA;
  const seen = (await pollFor(2, shop.testKey)).body.data.map((event: { id: string }) => event.id);
  expect(seen).toEqual([eventA.id, eventB.id]);
});

test("concurrent producers committing out of order: a poller sees every event exactly once", async () => {
  const producers = 12;
  const eventsPerProducer = 15;
  const seen: string[] = [];
  let since: string | undefined;
  const total = producers * eventsPerProducer;

  // Polls the feed as fast as it can (through the service: the HTTP rate limit would throttle it),
  // until it has seen as many events as were produced or a deadline passes.
  const poller = (async () => {
    const deadline = Date.now() + 30_000;
    while (seen.length < total && Date.now() < deadline) {
      const page = await events.listEventsSince(db.database, {
        merchantId: shop.id,
        livemode: false,
        since,
        limit: 7,
      });
      seen.push(...page.data.map((event) => event.id));
      since = page.data.at(-1)?.id ?? since;
    }
  })();

  const emitted: string[] = [];
  await Promise.all(
    Array.from({ length: producers }, async (_, producer) => {
      for (let index = 0; index < eventsPerProducer; index += 1) {
        const event = await db.database.transaction(async (transaction) => {
          if ((producer + index) % 2 === 0) {
            // Take a transaction id early, so ids and insertion order disagree.
            await transaction.query(sql.unsafe`SELECT pg_current_xact_id()`);
            await new Promise((resolve) => setTimeout(resolve, Math.random() * 15));
          }
          const inserted = await events.emit(transaction, {
            merchantId: shop.id,
            livemode: false,
            type: "payment.paid",
            data: { producer, index },
          });
          // Hold the commit for a while: commits land in a different order than inserts.
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 15));
          return inserted;
        });
        emitted.push(event.id);
      }
    }),
  );
  await poller;
  // Nothing more arrives after the last one.
  const after = await events.listEventsSince(db.database, { merchantId: shop.id, livemode: false, since, limit: 7 });
  expect(after.data).toEqual([]);

  expect(seen).toHaveLength(total);
  expect(new Set(seen).size).toBe(seen.length);
  expect(new Set(seen)).toEqual(new Set(emitted));
});

test("the feed orders transaction ids as numbers: an id with more digits comes after one with fewer", async () => {
  // Transaction ids long past (every transaction that could still commit has a larger one), written as
  // an older release's rows would be: 9 sorts before 10 as a number, after it as text.
  const inserted = await db.database.any(sql.type(z.object({ id: z.string() }))`
    INSERT INTO events (merchant_id, id, livemode, type, data, transaction_xid)
    VALUES (${shop.id}, 'evt_xid10', false, 'payment.paid', '{}', '10'::xid8),
      (${shop.id}, 'evt_xid9', false, 'payment.paid', '{}', '9'::xid8),
      (${shop.id}, 'evt_xid100', false, 'payment.paid', '{}', '100'::xid8)
    RETURNING id`);
  expect(inserted).toHaveLength(3);
  const feed = async (since?: string) =>
    (await events.listEventsSince(db.database, { merchantId: shop.id, livemode: false, since, limit: 2 })).data.map(
      (event) => event.id,
    );
  expect(await feed()).toEqual(["evt_xid9", "evt_xid10"]);
  expect(await feed("evt_xid10")).toEqual(["evt_xid100"]);
  expect(await feed("evt_xid100")).toEqual([]);
});
