import pg from "pg";
import { z } from "zod";
import { testConfig } from "../../../tests/support/app.ts";
import { countingDatabase } from "../../../tests/support/counting-database.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/database.ts";
import { newMerchant } from "../../../tests/support/factories.ts";
import { waitUntil } from "../../../tests/support/time.ts";
import { sql } from "../../platform/db/pool.ts";
import * as events from "../events/service.ts";
import { createDeliveryStore } from "./delivery-store.ts";
import { DELIVERIES_DUE_CHANNEL } from "./queries.ts";
import { createEndpoint } from "./service.ts";

/** The changer the audit log records for endpoints made here. */
const byTestKey = {
  actor: { kind: "api_key", id: "key_test" },
  client: { address: undefined, userAgent: undefined },
} as const;

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.close());

test("a claim takes due deliveries in one statement, and concurrent records go to the database as one statement", async () => {
  const shop = await newMerchant(db.database);
  const world = { merchantId: shop.id, livemode: false };
  await createEndpoint(
    db.database,
    testConfig(db.url),
    world,
    { url: "http://127.0.0.1:9/hooks", event_types: ["*"] },
    byTestKey,
  );
  await db.database.transaction(async (transaction) => {
    for (let index = 0; index < 12; index += 1) {
      await events.emit(transaction, { ...world, type: "payment.paid", data: { index } });
    }
  });
  const deliveryIds = await db.database.anyFirst(sql.type(z.object({ id: z.string() }))`
    SELECT id FROM webhook_deliveries WHERE merchant_id = ${shop.id} ORDER BY id`);
  expect(deliveryIds).toHaveLength(12);
  const counting = countingDatabase(db.database);
  const store = createDeliveryStore(counting.database);

  // Two claims side by side take disjoint deliveries (SKIP LOCKED), together all twelve, in one transaction
  // each (the claim statement, planned in due order: claimInDueOrder).
  const [first, second] = await Promise.all([
    store.claimDue({ limit: 8, leaseMs: 60_000, merchantId: shop.id }),
    store.claimDue({ limit: 8, leaseMs: 60_000, merchantId: shop.id }),
  ]);
  expect(counting.statements()).toBe(2);
  const claimed = [...(first ?? []), ...(second ?? [])];
  expect(claimed.map((row) => row.id).sort()).toEqual(deliveryIds);
  expect(new Set(claimed.map((row) => [row.attempt_count, row.event_type].join()))).toEqual(
    new Set(["1,payment.paid"]),
  );
  // Held by their leases: a third claim finds nothing to do.
  expect(await store.claimDue({ limit: 8, leaseMs: 60_000, merchantId: shop.id })).toEqual([]);

  const settled = await Promise.all(
    deliveryIds.map((deliveryId, index) =>
      store.record({
        merchantId: shop.id,
        deliveryId,
        attempt: {
          attempt: 1,
          started_at: new Date(),
          duration_ms: 3,
          response_status: index % 2 === 0 ? 200 : 500,
          response_excerpt: index % 2 === 0 ? "ok" : "busy",
          error: null,
          succeeded: index % 2 === 0,
        },
        attemptNumber: 1,
        status: index % 2 === 0 ? "succeeded" : "pending",
        nextAttemptInMs: index % 2 === 0 ? null : 60_000,
      }),
    ),
  );
  expect(counting.statements()).toBe(4);
  expect(settled.map((row) => row?.status)).toEqual(
    deliveryIds.map((_, index) => (index % 2 === 0 ? "succeeded" : "pending")),
  );
  const stored = await db.database.one(sql.type(
    z.object({ attempts: z.number(), leased: z.number(), retries_later: z.number() }),
  )`
    SELECT
      (SELECT count(*)::int FROM webhook_delivery_attempts WHERE merchant_id = ${shop.id}) AS attempts,
      (SELECT count(*)::int FROM webhook_deliveries WHERE merchant_id = ${shop.id} AND lease_expires_at IS NOT NULL) AS leased,
      (SELECT count(*)::int FROM webhook_deliveries
        WHERE merchant_id = ${shop.id} AND status = 'pending' AND next_attempt_at > now() + interval '50 seconds') AS retries_later`);
  expect(stored).toEqual({ attempts: 12, leased: 0, retries_later: 6 });
  // The retries are not due yet; once their time has come, a claim finds them.
  expect(await store.claimDue({ limit: 20, leaseMs: 60_000, merchantId: shop.id })).toEqual([]);
  await db.database.query(sql.unsafe`
    UPDATE webhook_deliveries SET next_attempt_at = now() - interval '1 millisecond'
    WHERE merchant_id = ${shop.id} AND status = 'pending'`);
  const retried = await store.claimDue({ limit: 20, leaseMs: 60_000, merchantId: shop.id });
  expect(retried.map((row) => [row.id, row.attempt_count]).sort()).toEqual(
    deliveryIds.filter((_, index) => index % 2 === 1).map((id) => [id, 2]),
  );

  // A stale record (its attempt number was overtaken) settles nothing.
  const stale = await store.record({
    merchantId: shop.id,
    deliveryId: deliveryIds[1] ?? "",
    attempt: null,
    attemptNumber: 1,
    status: "canceled",
    nextAttemptInMs: null,
  });
  expect(stale).toBeNull();
});

test("deliveries made due are announced once per transaction, at its commit, on the pool's channel", async () => {
  const shop = await newMerchant(db.database);
  const world = { merchantId: shop.id, livemode: false };
  const config = testConfig(db.url);
  await createEndpoint(
    db.database,
    config,
    world,
    { url: "http://127.0.0.1:9/paid", event_types: ["payment.paid"] },
    byTestKey,
  );
  const listener = new pg.Client({ connectionString: db.url });
  await listener.connect();
  const heard: string[] = [];
  listener.on("notification", (message) => heard.push(message.channel));
  try {
    await listener.query(`LISTEN ${DELIVERIES_DUE_CHANNEL}`);
    // An event no endpoint wants makes no delivery and announces nothing.
    await db.database.transaction((transaction) =>
      events.emit(transaction, { ...world, type: "payout.failed", data: {} }),
    );
    await createEndpoint(db.database, config, world, { url: "http://127.0.0.1:9/all", event_types: ["*"] }, byTestKey);
    // Three events to two endpoints in one transaction: six deliveries, one announcement.
    await db.database.transaction(async (transaction) => {
      for (let index = 0; index < 3; index += 1) {
        await events.emit(transaction, { ...world, type: "payment.paid", data: { index } });
      }
    });
    await waitUntil("the announcement arrives", async () => heard.length > 0);
    // A round trip on the listening connection: anything else sent to it before would have arrived first.
    await listener.query("SELECT 1");
    expect(
      await db.database.oneFirst(sql.type(z.object({ count: z.number() }))`
      SELECT count(*)::int AS count FROM webhook_deliveries WHERE merchant_id = ${shop.id}`),
    ).toBe(6);
    expect(heard).toEqual([DELIVERIES_DUE_CHANNEL]);
  } finally {
    await listener.end();
  }
});

test("the events of one statement fan out once: each to every active endpoint that wants it, a test event to none", async () => {
  const shop = await newMerchant(db.database);
  const world = { merchantId: shop.id, livemode: false };
  const config = testConfig(db.url);
  const { endpoint: all } = await createEndpoint(
    db.database,
    config,
    world,
    {
      url: "http://127.0.0.1:9/all",
      event_types: ["*"],
    },
    byTestKey,
  );
  const { endpoint: sales } = await createEndpoint(
    db.database,
    config,
    world,
    {
      url: "http://127.0.0.1:9/sales",
      event_types: ["sale.completed"],
    },
    byTestKey,
  );
  const prepared = [
    ...(["sale.completed", "payment.paid", "sale.completed"] as const).map((type) =>
      events.prepareEvent({ ...world, type, data: {} }),
    ),
    // The test-event route makes its event's one delivery itself.
    { ...events.prepareEvent({ ...world, type: "payment.paid", data: {} }), type: "webhook.test" as const },
  ];
  const counting = countingDatabase(db.database);
  await counting.database.query(sql.unsafe`
    WITH inserted AS (${events.emitEachWhen(
      prepared.map((event) => ({ event, subject: event.id })),
      () => sql.fragment`TRUE`,
    )}) SELECT 1`);
  expect(counting.statements()).toBe(1);
  const pairs = await db.database.anyFirst(sql.type(z.object({ pair: z.string() }))`
    SELECT event_id || ' ' || endpoint_id AS pair FROM webhook_deliveries WHERE merchant_id = ${shop.id}`);
  const [firstSale, paid, secondSale] = prepared;
  expect([...pairs].sort()).toEqual(
    [
      `${firstSale?.id} ${all.id}`,
      `${firstSale?.id} ${sales.id}`,
      `${paid?.id} ${all.id}`,
      `${secondSale?.id} ${all.id}`,
      `${secondSale?.id} ${sales.id}`,
    ].sort(),
  );
});
