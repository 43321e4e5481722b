import { Registry } from "prom-client";
import request from "supertest";
import { z } from "zod";
import { TEST_WEBHOOK_SECRET_KEY, testApp, testConfig } from "../../../tests/support/app.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/database.ts";
import { newMerchant, type TestMerchant } from "../../../tests/support/factories.ts";
import { startServiceProcess } from "../../../tests/support/service-process.ts";
import { startReceiver } from "../../../tests/support/webhook-receiver.ts";
import { freePort } from "../../platform/db/embedded.ts";
import { sql } from "../../platform/db/pool.ts";
import { createWorkerPgPool } from "../../platform/queue/pg-pool.ts";
import { startWorkerPool } from "../../platform/queue/worker-pool.ts";
import { createLogger } from "../../platform/telemetry/logger.ts";
import { verifyWebhook } from "../../sdk/verify-webhook.ts";
import * as events from "../events/service.ts";
import { createDeliveryStore } from "./delivery-store.ts";
import { createWebhookPoster } from "./post-webhook.ts";
import { attemptDelivery, requeueStalledDeliveries, resealSecrets } from "./service.ts";
import { BlockedTargetError, guardedLookup } from "./target-guard.ts";
import { deliverWebhook } from "./tasks/deliver-webhook.ts";

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
  const pgPool = createWorkerPgPool({ url: db.url, size: 4, applicationName: "test", logger });
  let runner: Awaited<ReturnType<typeof startWorkerPool>> | undefined;
  // An in-process pool delivers what the sweeper re-enqueued, until the receiver has had that many requests.
  const takeOver = async (expectedRequests: number) => {
    runner = await startWorkerPool({
      pool: "webhook-delivery",
      tasks: [deliverWebhook],
      dependencies: { config, database: db.database, logger },
      pgPool,
      registry: new Registry(),
    });
    // Generous for a loaded machine; when it is not met, the queue's state says where the job is.
    await receiver.waitFor(expectedRequests, 120_000).catch(async (error: Error) => {
      const jobs = await pgPool.query(
        "SELECT task_identifier, key, run_at, locked_at, locked_by, attempts, max_attempts, last_error FROM graphile_worker.jobs",
      );
      throw new Error(`${error.message}; the queue: ${JSON.stringify(jobs.rows)}`);
    });
    await runner.stop();
    runner = undefined;
  };
  try {
    await run({ worker, takeOver });
  } finally {
    await worker.kill();
    // A runner left running would hold the pool's connections (its end() would wait for ever) and keep
    // this test file's worker from exiting.
    await runner?.stop();
    await pgPool.end();
    await receiver.close();
  }
}

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
    // Its job stays locked by the dead worker; once the attempt's lease lapses the sweeper re-enqueues it.
    expect(await requeueStalledDeliveries(db.database, { overdueMs: 0 })).toBe(0);
    await db.database.query(sql.unsafe`
      UPDATE webhook_deliveries SET lease_expires_at = now() - interval '1 millisecond' WHERE merchant_id = ${shop.id}`);
    expect(await requeueStalledDeliveries(db.database, { overdueMs: 0 })).toBe(1);

    await takeOver(2);
    expect(receiver.received.map((received) => received.headers["x-pos-event-id"])).toEqual([event.id, event.id]);
    expect(await deliveriesOf(shop.id)).toEqual([{ id: delivery?.id, status: "succeeded", attempt_count: 2 }]);
  });
}, 300_000);

test("a worker killed with deliveries waiting in its local queue: the sweeper re-enqueues them and each is made", async () => {
  // The chart's webhook-delivery fetches jobs in batches (WORKER_LOCAL_QUEUE_SIZE): a crash leaves the
  // fetched but unstarted ones locked too, with no attempt and no lease.
  const receiver = await startReceiver((count) => (count === 1 ? "hang" : 200));
  const oneAtATime = { WORKER_CONCURRENCY: "1", WORKER_LOCAL_QUEUE_SIZE: "5" };
  await withKillableWorker(receiver, oneAtATime, async ({ worker, takeOver }) => {
    // Three events committed at once: one fetch takes all three jobs; the one worker starts the first.
    const emitted = await db.database.transaction(async (transaction) => [
      await events.emit(transaction, { merchantId: shop.id, livemode: false, type: "payment.paid", data: { n: 1 } }),
      await events.emit(transaction, { merchantId: shop.id, livemode: false, type: "payment.paid", data: { n: 2 } }),
      await events.emit(transaction, { merchantId: shop.id, livemode: false, type: "payment.paid", data: { n: 3 } }),
    ]);
    await receiver.waitFor(1, 120_000);
    const lockedJobs = () =>
      db.database.oneFirst(sql.type(z.object({ count: z.number() }))`
        SELECT count(*)::int AS count FROM graphile_worker.jobs
        WHERE task_identifier = 'deliver_webhook' AND locked_at IS NOT NULL`);
    const deadline = Date.now() + 120_000;
    while ((await lockedJobs()) < 3) {
      if (Date.now() > deadline) throw new Error(`only ${await lockedJobs()} of 3 delivery jobs were fetched`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await worker.kill();
    expect((await deliveriesOf(shop.id)).map((delivery) => delivery.attempt_count).sort()).toEqual([0, 0, 1]);

    // The attempt's lease lapses and the waiting ones fall overdue (both moved into the past here).
    await db.database.query(sql.unsafe`
      UPDATE webhook_deliveries
      SET lease_expires_at = CASE WHEN lease_expires_at IS NULL THEN NULL ELSE now() - interval '1 millisecond' END,
        next_attempt_at = now() - interval '1 millisecond'
      WHERE merchant_id = ${shop.id}`);
    expect(await requeueStalledDeliveries(db.database, { overdueMs: 0 })).toBe(3);

    await takeOver(4);
    const delivered = receiver.received.slice(1).map((received) => String(received.headers["x-pos-event-id"]));
    expect(delivered.sort()).toEqual(emitted.map((event) => event.id).sort());
    expect((await deliveriesOf(shop.id)).map((delivery) => delivery.status)).toEqual([
      "succeeded",
      "succeeded",
      "succeeded",
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
      const [delivery] = await deliveriesOf(shop.id);
      const settled = await attemptDelivery(
        { store: createDeliveryStore(db.database), config: testConfig(db.url), post: poster.post },
        { merchantId: shop.id, deliveryId: delivery?.id ?? "" },
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
    const [delivery] = await deliveriesOf(shop.id);
    const newKeyOnly = testConfig(db.url, { WEBHOOK_SECRET_ENCRYPTION_KEY: newKey });
    const settled = await attemptDelivery(
      { store: createDeliveryStore(db.database), config: newKeyOnly, post: poster.post },
      { merchantId: shop.id, deliveryId: delivery?.id ?? "" },
    );
    expect(settled?.status).toBe("succeeded");
    const [received] = receiver.received;
    expect(
      verifyWebhook(received?.body ?? "", String(received?.headers["x-pos-signature"]), endpoint.body.secret).type,
    ).toBe("payment.paid");
  } finally {
    poster.close();
    await receiver.close();
  }
});
