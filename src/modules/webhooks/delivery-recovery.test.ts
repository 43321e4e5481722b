import request from "supertest";
import { z } from "zod";
import { TEST_WEBHOOK_SECRET_KEY, testApp, testConfig } from "../../../tests/support/app.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/database.ts";
import { newMerchant, type TestMerchant } from "../../../tests/support/factories.ts";
import { startDeliveryPump } from "../../../tests/support/pumps.ts";
import { startServiceProcess } from "../../../tests/support/service-process.ts";
import { startReceiver } from "../../../tests/support/webhook-receiver.ts";
import { freePort } from "../../platform/db/embedded.ts";
import { sql } from "../../platform/db/pool.ts";
import type { RunningPump } from "../../platform/queue/due-pump.ts";
import { createLogger } from "../../platform/telemetry/logger.ts";
import { verifyWebhook } from "../../sdk/verify-webhook.ts";
import * as events from "../events/service.ts";
import { createDeliveryStore } from "./delivery-store.ts";
import { createWebhookPoster } from "./post-webhook.ts";
import { attemptDelivery, claimDueDeliveries, type DeliveryDependencies, resealSecrets } from "./service.ts";
import { BlockedTargetError, guardedLookup } from "./target-guard.ts";

// No worker pool runs in this file unless a test starts one: each test decides who attempts what.
const logger = createLogger({ level: "silent", service: "test" });
let db: TestDatabase;
let shop: TestMerchant;

beforeAll(async () => {
  db = await createTestDatabase();
});
beforeEach(async () => {
  shop = await newMerchant(db.database);
});
afterAll(() => db.close());

const deliveryRowSchema = z.object({ id: z.string(), status: z.string(), attempt_count: z.number() });
const deliveriesOf = (merchantId: string) =>
  db.database.any(sql.type(deliveryRowSchema)`
    SELECT id, status, attempt_count FROM webhook_deliveries WHERE merchant_id = ${merchantId} ORDER BY created_at`);

/** The receiver's first request verifies with `secret` and carries an event of `type`. */
function expectFirstSignedBy(receiver: Awaited<ReturnType<typeof startReceiver>>, secret: string, type: string) {
  const [received] = receiver.received;
  expect(verifyWebhook(received?.body ?? "", String(received?.headers["x-pos-signature"]), secret).type).toBe(type);
}

/** Claims the merchant's next due delivery and makes its attempt (null when none is due). */
async function attemptNextDue(dependencies: DeliveryDependencies, merchantId: string) {
  const [claimed] = await claimDueDeliveries(dependencies, { limit: 1, merchantId });
  return claimed === undefined ? null : attemptDelivery(dependencies, claimed);
}

/**
 * A webhook-delivery process of its own (to be killed mid-work), the shop's endpoint at `receiver`,
 * and what a test needs to take its work over in-process afterwards. `run` gets them; whatever it
 * does, the process is killed, the takeover stopped and the connections closed at the end.
 */
async function withKillableWorker(
  receiver: Awaited<ReturnType<typeof startReceiver>>,
  processEnvironment: Record<string, string>,
  run: (world: {
    worker: ReturnType<typeof startServiceProcess>;
    takeOver: (expectedRequests: number) => Promise<void>;
  }) => Promise<void>,
): Promise<void> {
  // A long attempt timeout, so the attempt's lease (twice that, and a second) lapses only when the
  // test moves it into the past, not because the machine was slow.
  const config = testConfig(db.url, { WEBHOOK_TIMEOUT_SECONDS: "30", WORKER_POLL_INTERVAL_MS: "50" });
  const endpoint = await request(testApp({ database: db.database, config }))
    .post("/v1/webhook_endpoints")
    .set("Authorization", `Bearer ${shop.testKey}`)
    .send({ url: receiver.url });
  expect(endpoint.status).toBe(201);
  const worker = startServiceProcess("services/webhook-delivery/main.ts", {
    DATABASE_URL: db.url,
    WEBHOOK_SECRET_ENCRYPTION_KEY: TEST_WEBHOOK_SECRET_KEY,
    WEBHOOK_TIMEOUT_SECONDS: "30",
    WORKER_POLL_INTERVAL_MS: "50",
    WORKER_HTTP_PORT: String(await freePort()),
    LOG_LEVEL: "warn",
    ...processEnvironment,
  });
  let pump: RunningPump | undefined;
  // An in-process pool delivers what fell due again, until the receiver has had that many requests.
  const takeOver = async (expectedRequests: number) => {
    pump = startDeliveryPump({ config, database: db.database, databaseUrl: db.url, logger });
    // Generous for a loaded machine; when it is not met, the deliveries' state says where they are.
    await receiver.waitFor(expectedRequests, 120_000).catch(async (error: Error) => {
      const rows = await db.database.any(sql.unsafe`
        SELECT id, status, attempt_count, next_attempt_at, lease_expires_at FROM webhook_deliveries
        WHERE merchant_id = ${shop.id}`);
      throw new Error(`${error.message}; the deliveries: ${JSON.stringify(rows)}`);
    });
    await pump.stop();
    pump = undefined;
  };
  try {
    await run({ worker, takeOver });
  } finally {
    await worker.kill();
    await pump?.stop();
    await receiver.close();
  }
}

/** Claims the shop's due deliveries as a pool would, posting nothing: what it finds due now. */
const claimDueNow = (config: ReturnType<typeof testConfig>) =>
  claimDueDeliveries({ store: createDeliveryStore(db.database), config }, { limit: 10, merchantId: shop.id });

test("a worker killed mid-delivery: the delivery is made again, with the same event id to deduplicate on", async () => {
  const receiver = await startReceiver((count) => (count === 1 ? "hang" : 200));
  await withKillableWorker(receiver, {}, async ({ worker, takeOver }) => {
    const event = await db.database.transaction((transaction) =>
      events.emit(transaction, { merchantId: shop.id, livemode: false, type: "payment.paid", data: { n: 1 } }),
    );
    // The worker process posts and the receiver holds the request open: the worker dies mid-attempt.
    await receiver.waitFor(1);
    await worker.kill();

    const [delivery] = await deliveriesOf(shop.id);
    expect(delivery).toMatchObject({ status: "pending", attempt_count: 1 });
    // The dead worker's lease holds it: no pool finds it due until the lease lapses.
    expect(await claimDueNow(testConfig(db.url))).toEqual([]);
    await db.database.query(sql.unsafe`
      UPDATE webhook_deliveries SET lease_expires_at = now() - interval '1 millisecond' WHERE merchant_id = ${shop.id}`);

    await takeOver(2);
    expect(receiver.received.map((received) => received.headers["x-pos-event-id"])).toEqual([event.id, event.id]);
    expect(await deliveriesOf(shop.id)).toEqual([{ id: delivery?.id, status: "succeeded", attempt_count: 2 }]);
  });
}, 300_000);

test("a worker killed with several claimed attempts in flight: each falls due again and is made", async () => {
  // One claim takes the three deliveries announced together; the receiver holds all three attempts open.
  const receiver = await startReceiver((count) => (count <= 3 ? "hang" : 200));
  await withKillableWorker(receiver, { WORKER_CONCURRENCY: "3" }, async ({ worker, takeOver }) => {
    const emitted = await db.database.transaction(async (transaction) => [
      await events.emit(transaction, { merchantId: shop.id, livemode: false, type: "payment.paid", data: { n: 1 } }),
      await events.emit(transaction, { merchantId: shop.id, livemode: false, type: "payment.paid", data: { n: 2 } }),
      await events.emit(transaction, { merchantId: shop.id, livemode: false, type: "payment.paid", data: { n: 3 } }),
    ]);
    await receiver.waitFor(3, 120_000);
    await worker.kill();
    expect((await deliveriesOf(shop.id)).map((delivery) => [delivery.status, delivery.attempt_count])).toEqual([
      ["pending", 1],
      ["pending", 1],
      ["pending", 1],
    ]);
    expect(await claimDueNow(testConfig(db.url))).toEqual([]);

    // The attempts' leases lapse (moved into the past here).
    await db.database.query(sql.unsafe`
      UPDATE webhook_deliveries SET lease_expires_at = now() - interval '1 millisecond' WHERE merchant_id = ${shop.id}`);

    await takeOver(6);
    const delivered = receiver.received.slice(3).map((received) => String(received.headers["x-pos-event-id"]));
    expect(delivered.sort()).toEqual(emitted.map((event) => event.id).sort());
    expect((await deliveriesOf(shop.id)).map((delivery) => [delivery.status, delivery.attempt_count])).toEqual([
      ["succeeded", 2],
      ["succeeded", 2],
      ["succeeded", 2],
    ]);
  });
}, 300_000);

describe("server-side request forgery at delivery time", () => {
  test("a live target that now resolves to a private address is refused without connecting", async () => {
    const receiver = await startReceiver();
    const poster = createWebhookPoster({ timeoutMs: 1000 });
    try {
      // Registered under an on-premises policy; delivered under the default one, which denies private
      // targets in live: the same situation as a public name re-pointed at loopback (DNS rebinding).
      const onPremises = testApp({
        database: db.database,
        config: testConfig(db.url, { WEBHOOK_PRIVATE_TARGETS: "allow" }),
      });
      const endpoint = await request(onPremises)
        .post("/v1/webhook_endpoints")
        .set("Authorization", `Bearer ${shop.liveKey}`)
        .send({ url: `https://localhost:${receiver.port}/hooks` });
      expect(endpoint.status).toBe(201);
      await db.database.transaction((transaction) =>
        events.emit(transaction, { merchantId: shop.id, livemode: true, type: "payment.paid", data: {} }),
      );
      const settled = await attemptNextDue(
        { store: createDeliveryStore(db.database), config: testConfig(db.url), post: poster.post },
        shop.id,
      );
      expect(receiver.received).toHaveLength(0);
      expect(settled).toMatchObject({ status: "pending", attempt_count: 1 });
      const attempt = await db.database.one(sql.type(
        z.object({ error: z.string().nullable(), response_status: z.number().nullable() }),
      )`
        SELECT error, response_status FROM webhook_delivery_attempts WHERE merchant_id = ${shop.id}`);
      expect(attempt.response_status).toBeNull();
      expect(attempt.error).toContain("not a public address");
    } finally {
      poster.close();
      await receiver.close();
    }
  });

  test("the connection's own lookup refuses names that resolve to private addresses", async () => {
    const failure = await new Promise<Error | null>((resolve) =>
      guardedLookup("localhost", { all: true }, (error) => resolve(error)),
    );
    expect(failure).toBeInstanceOf(BlockedTargetError);
  });
});

test("rotating the encryption key: secrets are resealed under the new key and keep signing", async () => {
  const receiver = await startReceiver();
  const poster = createWebhookPoster({ timeoutMs: 1000 });
  const oldKey = TEST_WEBHOOK_SECRET_KEY;
  const newKey = Buffer.alloc(32, 9).toString("base64");
  try {
    const endpoint = await request(testApp({ database: db.database, config: testConfig(db.url) }))
      .post("/v1/webhook_endpoints")
      .set("Authorization", `Bearer ${shop.testKey}`)
      .send({ url: receiver.url });
    const rotating = testConfig(db.url, {
      WEBHOOK_SECRET_ENCRYPTION_KEY: newKey,
      WEBHOOK_SECRET_ENCRYPTION_KEY_PREVIOUS: oldKey,
    });
    expect((await resealSecrets(db.database, rotating)).resealed).toBeGreaterThanOrEqual(1);
    expect(await resealSecrets(db.database, rotating)).toEqual({ resealed: 0 });

    await db.database.transaction((transaction) =>
      events.emit(transaction, { merchantId: shop.id, livemode: false, type: "payment.paid", data: {} }),
    );
    const newKeyOnly = testConfig(db.url, { WEBHOOK_SECRET_ENCRYPTION_KEY: newKey });
    const settled = await attemptNextDue(
      { store: createDeliveryStore(db.database), config: newKeyOnly, post: poster.post },
      shop.id,
    );
    expect(settled?.status).toBe("succeeded");
    expectFirstSignedBy(receiver, endpoint.body.secret, "payment.paid");
  } finally {
    poster.close();
    await receiver.close();
  }
});

test("a secret sealed under a key no longer configured: the delivery waits without using an attempt, then goes out once the key is back", async () => {
  const receiver = await startReceiver();
  const poster = createWebhookPoster({ timeoutMs: 1000 });
  try {
    const endpoint = await request(testApp({ database: db.database, config: testConfig(db.url) }))
      .post("/v1/webhook_endpoints")
      .set("Authorization", `Bearer ${shop.testKey}`)
      .send({ url: receiver.url });
    await db.database.transaction((transaction) =>
      events.emit(transaction, { merchantId: shop.id, livemode: false, type: "payment.paid", data: {} }),
    );
    const store = createDeliveryStore(db.database);
    const wrongKeyOnly = testConfig(db.url, { WEBHOOK_SECRET_ENCRYPTION_KEY: Buffer.alloc(32, 3).toString("base64") });
    await expect(attemptNextDue({ store, config: wrongKeyOnly, post: poster.post }, shop.id)).rejects.toThrow(
      /does not decrypt with the configured keys/,
    );
    expect(receiver.received).toHaveLength(0);
    expect(await deliveriesOf(shop.id)).toMatchObject([{ status: "pending", attempt_count: 0 }]);
    const waiting = await db.database.one(sql.type(
      z.object({ waits_seconds: z.number(), leased: z.boolean(), attempts: z.number() }),
    )`
      SELECT extract(epoch FROM next_attempt_at - now())::float8 AS waits_seconds, lease_expires_at IS NOT NULL AS leased,
        (SELECT count(*)::int FROM webhook_delivery_attempts WHERE merchant_id = ${shop.id}) AS attempts
      FROM webhook_deliveries WHERE merchant_id = ${shop.id}`);
    expect(waiting.waits_seconds).toBeGreaterThan(30);
    expect(waiting.waits_seconds).toBeLessThanOrEqual(60);
    expect(waiting).toMatchObject({ leased: false, attempts: 0 });
    expect(await attemptNextDue({ store, config: testConfig(db.url), post: poster.post }, shop.id)).toBeNull();

    // The key is configured again and the delivery falls due: its first attempt goes out, signed.
    await db.database.query(sql.unsafe`
      UPDATE webhook_deliveries SET next_attempt_at = now() - interval '1 millisecond' WHERE merchant_id = ${shop.id}`);
    const settled = await attemptNextDue({ store, config: testConfig(db.url), post: poster.post }, shop.id);
    expect(settled).toMatchObject({ status: "succeeded", attempt_count: 1 });
    expectFirstSignedBy(receiver, endpoint.body.secret, "payment.paid");
  } finally {
    poster.close();
    await receiver.close();
  }
});

test("two delivery pools over 1,000 due deliveries: each is attempted once and delivered once", async () => {
  const receiver = await startReceiver();
  const config = testConfig(db.url, { WORKER_CONCURRENCY: "20", WORKER_POLL_INTERVAL_MS: "100" });
  const pumps: RunningPump[] = [];
  try {
    const endpoint = await request(testApp({ database: db.database, config }))
      .post("/v1/webhook_endpoints")
      .set("Authorization", `Bearer ${shop.testKey}`)
      .send({ url: receiver.url });
    expect(endpoint.status).toBe(201);
    // Due before either pool starts, in four transactions: the pools share the backlog from the first claim.
    const emitted: string[] = [];
    for (let batch = 0; batch < 4; batch += 1) {
      await db.database.transaction(async (transaction) => {
        for (let index = 0; index < 250; index += 1) {
          const event = await events.emit(transaction, {
            merchantId: shop.id,
            livemode: false,
            type: "payment.paid",
            data: { n: batch * 250 + index },
          });
          emitted.push(event.id);
        }
      });
    }
    for (let replica = 0; replica < 2; replica += 1) {
      pumps.push(startDeliveryPump({ config, database: db.database, databaseUrl: db.url, logger }));
    }
    await receiver.waitFor(1000, 240_000);
    await Promise.all(pumps.map((pump) => pump.stop()));
    const receivedIds = receiver.received.map((received) => String(received.headers["x-pos-event-id"]));
    expect(receivedIds).toHaveLength(1000);
    expect(new Set(receivedIds)).toEqual(new Set(emitted));
    const outcome = await db.database.one(sql.type(
      z.object({ succeeded: z.number(), attempts: z.number(), most_attempts: z.number() }),
    )`
      SELECT count(*) FILTER (WHERE status = 'succeeded')::int AS succeeded,
        (SELECT count(*)::int FROM webhook_delivery_attempts WHERE merchant_id = ${shop.id}) AS attempts,
        max(attempt_count)::int AS most_attempts
      FROM webhook_deliveries WHERE merchant_id = ${shop.id}`);
    expect(outcome).toEqual({ succeeded: 1000, attempts: 1000, most_attempts: 1 });
  } finally {
    await Promise.all(pumps.map((pump) => pump.stop()));
    await receiver.close();
  }
}, 300_000);
