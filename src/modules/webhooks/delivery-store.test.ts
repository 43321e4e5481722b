import { z } from "zod";
import { testConfig } from "../../../tests/support/app.ts";
import { countingDatabase } from "../../../tests/support/counting-database.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/database.ts";
import { newMerchant } from "../../../tests/support/factories.ts";
import { sql } from "../../platform/db/pool.ts";
import * as events from "../events/service.ts";
import { createDeliveryStore } from "./delivery-store.ts";
import { createEndpoint } from "./service.ts";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.close());

test("concurrent claims and records of many deliveries go to the database as one statement each", async () => {
  const shop = await newMerchant(db.database);
  const world = { merchantId: shop.id, livemode: false };
  await createEndpoint(db.database, testConfig(db.url), world, { url: "http://127.0.0.1:9/hooks", event_types: ["*"] });
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

  // One delivery asked twice in the same batch is claimed once: the repeat gets nothing.
  const requests = [...deliveryIds, deliveryIds[0] ?? ""].map((deliveryId) => ({
    merchantId: shop.id,
    deliveryId,
    leaseMs: 60_000,
  }));
  const claimed = await Promise.all(requests.map((request) => store.claim(request)));
  expect(counting.statements()).toBe(1);
  expect(claimed.slice(0, 12).map((row) => [row?.id, row?.attempt_count, row?.event_type])).toEqual(
    deliveryIds.map((id) => [id, 1, "payment.paid"]),
  );
  expect(claimed[12]).toBeNull();
  // Held by its lease: a second claim finds nothing to do.
  expect(await store.claim({ merchantId: shop.id, deliveryId: deliveryIds[1] ?? "", leaseMs: 60_000 })).toBeNull();

  const job = { task: "deliver_webhook", maxAttempts: 5, traceparent: null };
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
        job,
      }),
    ),
  );
  expect(counting.statements()).toBe(3);
  expect(settled.map((row) => row?.status)).toEqual(
    deliveryIds.map((_, index) => (index % 2 === 0 ? "succeeded" : "pending")),
  );
  const stored = await db.database.one(sql.type(
    z.object({ attempts: z.number(), leased: z.number(), retry_jobs: z.number() }),
  )`
    SELECT
      (SELECT count(*)::int FROM webhook_delivery_attempts WHERE merchant_id = ${shop.id}) AS attempts,
      (SELECT count(*)::int FROM webhook_deliveries WHERE merchant_id = ${shop.id} AND lease_expires_at IS NOT NULL) AS leased,
      (SELECT count(*)::int FROM graphile_worker.jobs
        WHERE key = ANY(${sql.array(
          deliveryIds.map((id) => `webhook_delivery:${id}`),
          "text",
        )}) AND run_at > now() + interval '50 seconds') AS retry_jobs`);
  expect(stored).toEqual({ attempts: 12, leased: 0, retry_jobs: 6 });

  // A stale record (its attempt number was overtaken) settles nothing.
  const stale = await store.record({
    merchantId: shop.id,
    deliveryId: deliveryIds[1] ?? "",
    attempt: null,
    attemptNumber: 0,
    status: "canceled",
    nextAttemptInMs: null,
    job,
  });
  expect(stale).toBeNull();
});
