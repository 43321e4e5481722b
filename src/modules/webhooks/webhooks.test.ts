import Stripe from "stripe";
import request from "supertest";
import { z } from "zod";
import { testApp, testConfig } from "../../../tests/support/app.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/database.ts";
import { newMerchant, type TestMerchant } from "../../../tests/support/factories.ts";
import { sampleValue } from "../../../tests/support/metrics.ts";
import { startDeliveryPump } from "../../../tests/support/pumps.ts";
import { waitUntil } from "../../../tests/support/time.ts";
import { endpointRegistrar } from "../../../tests/support/webhook-deliveries.ts";
import { startReceiver } from "../../../tests/support/webhook-receiver.ts";
import type { Config } from "../../platform/config.ts";
import { sql } from "../../platform/db/pool.ts";
import type { RunningPump } from "../../platform/queue/due-pump.ts";
import { createLogger } from "../../platform/telemetry/logger.ts";
import { verifyWebhook, WebhookVerificationError } from "../../sdk/verify-webhook.ts";
import type { EventType } from "../events/event-types.ts";
import * as events from "../events/service.ts";

// Seconds before attempts 2..8: distinct, so the order of attempts shows in their spacing.
const SCHEDULE_SECONDS = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7];
const logger = createLogger({ level: "silent", service: "test" });

let db: TestDatabase;
let config: Config;
let app: ReturnType<typeof testApp>;
let pump: RunningPump;
let shop: TestMerchant;

beforeAll(async () => {
  db = await createTestDatabase();
  config = testConfig(db.url, {
    WEBHOOK_RETRY_SCHEDULE_SECONDS: SCHEDULE_SECONDS.join(","),
    // No receiver here hangs: a loaded machine must not turn a slow answer into a failed attempt.
    WEBHOOK_TIMEOUT_SECONDS: "30",
    WORKER_POLL_INTERVAL_MS: "50",
    WORKER_CONCURRENCY: "10",
  });
  app = testApp({ database: db.database, config });
  pump = startDeliveryPump({ config, database: db.database, databaseUrl: db.url, logger });
});
beforeEach(async () => {
  shop = await newMerchant(db.database);
});
afterAll(async () => {
  await pump.stop();
  await db.close();
});

const { registered } = endpointRegistrar(() => app);

function emit(merchantId: string, livemode: boolean, type: EventType, data: Record<string, unknown> = {}) {
  return db.database.transaction((transaction) => events.emit(transaction, { merchantId, livemode, type, data }));
}

const deliveryRowSchema = z.object({
  id: z.string(),
  endpoint_id: z.string(),
  status: z.string(),
  attempt_count: z.number(),
});
function deliveriesOf(merchantId: string) {
  return db.database.any(sql.type(deliveryRowSchema)`
    SELECT id, endpoint_id, status, attempt_count FROM webhook_deliveries WHERE merchant_id = ${merchantId} ORDER BY created_at`);
}

async function waitForStatus(merchantId: string, deliveryId: string, status: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = (await deliveriesOf(merchantId)).find((delivery) => delivery.id === deliveryId);
    if (row?.status === status) {
      return row;
    }
    if (Date.now() > deadline) {
      throw new Error(`delivery ${deliveryId} is ${row?.status}, expected ${status}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Waits until none of the merchant's deliveries is pending (due, waiting for a retry or being
 * attempted): from then on nothing more can reach a receiver for them, so what arrived is final (a
 * condition, not a guessed pause).
 */
async function untilNoDeliveryInFlight(merchantId: string) {
  await waitUntil(`no delivery of ${merchantId} is pending`, async () => {
    const inFlight = await db.database.oneFirst(sql.type(z.object({ count: z.number() }))`
      SELECT count(*)::int AS count FROM webhook_deliveries WHERE merchant_id = ${merchantId} AND status = 'pending'`);
    return inFlight === 0;
  });
}

describe("delivering events", () => {
  test("a delivery carries the event, its id header and a signature that independent verifiers accept", async () => {
    const receiver = await startReceiver();
    try {
      const endpoint = await registered(shop.testKey, { url: receiver.url });
      const event = await emit(shop.id, false, "payment.paid", { payment_id: "pay_1", amount_cents: 1250 });
      await receiver.waitFor(1);
      const [delivery] = receiver.received;
      if (delivery === undefined) {
        throw new Error("no delivery");
      }
      expect(JSON.parse(delivery.body)).toEqual({
        id: event.id,
        type: "payment.paid",
        livemode: false,
        created_at: event.created_at.toISOString(),
        data: { payment_id: "pay_1", amount_cents: 1250 },
      });
      expect(delivery.headers["x-pos-event-id"]).toBe(event.id);
      expect(delivery.headers["content-type"]).toBe("application/json");
      const header = String(delivery.headers["x-pos-signature"]);
      expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);

      // 1. Stripe's own verifier, given our header as its Stripe-Signature.
      const stripe = new Stripe("sk_test_unused");
      const verified = stripe.webhooks.constructEvent(delivery.body, header, endpoint.secret, 300);
      expect(verified.id).toBe(event.id);
      // 2. WebCrypto HMAC over `<t>.<raw body>`, keyed with the whole secret string.
      const [, timestamp, digest] = /^t=(\d+),v1=([0-9a-f]+)$/.exec(header) ?? [];
      const key = await crypto.subtle.importKey(
        "raw",
        new TextEncoder().encode(endpoint.secret),
        { name: "HMAC", hash: "SHA-256" },
        false,
        ["sign"],
      );
      const expected = Buffer.from(
        await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${timestamp}.${delivery.body}`)),
      ).toString("hex");
      expect(digest).toBe(expected);
      // 3. Our exported helper.
      expect(verifyWebhook(delivery.body, header, endpoint.secret).id).toBe(event.id);
      expect(() => verifyWebhook(delivery.body, header, `${endpoint.secret}x`)).toThrow(WebhookVerificationError);

      // The receiver has answered; the worker records the outcome just after.
      const [row] = await deliveriesOf(shop.id);
      expect(await waitForStatus(shop.id, row?.id ?? "", "succeeded")).toMatchObject({ attempt_count: 1 });
    } finally {
      await receiver.close();
    }
  });

  test("a receiver that fails twice then succeeds gets the same event three times, then the delivery succeeds", async () => {
    const receiver = await startReceiver((count) => (count <= 2 ? 503 : 204));
    try {
      await registered(shop.testKey, { url: receiver.url });
      const event = await emit(shop.id, false, "payout.confirmed", { payout_id: "po_1" });
      await receiver.waitFor(3);
      const [delivery] = await deliveriesOf(shop.id);
      if (delivery === undefined) {
        throw new Error("no delivery row");
      }
      await waitForStatus(shop.id, delivery.id, "succeeded");
      expect(receiver.received.map((received) => received.headers["x-pos-event-id"])).toEqual([
        event.id,
        event.id,
        event.id,
      ]);
      const log = await request(app)
        .get(`/v1/webhook_endpoints/${delivery.endpoint_id}/deliveries`)
        .set("Authorization", `Bearer ${shop.testKey}`);
      expect(log.body.data[0]).toMatchObject({ status: "succeeded", attempt_count: 3 });
      expect(
        log.body.data[0].attempts.map((attempt: { response_status: number; succeeded: boolean }) => [
          attempt.response_status,
          attempt.succeeded,
        ]),
      ).toEqual([
        [503, false],
        [503, false],
        [204, true],
      ]);
    } finally {
      await receiver.close();
    }
  });

  test("the full schedule: 8 attempts spaced by the configured delays in order, then dead; a manual retry revives it", async () => {
    const receiver = await startReceiver(() => 500);
    const deadBefore = await sampleValue("pos_webhook_dead_deliveries_total");
    const failedEighthBefore = await sampleValue("pos_webhook_delivery_attempts_total", {
      outcome: "failed",
      attempt: "8",
    });
    try {
      const endpoint = await registered(shop.testKey, { url: receiver.url });
      await emit(shop.id, false, "payment.failed", { payment_id: "pay_dead" });
      await receiver.waitFor(8);
      const [delivery] = await deliveriesOf(shop.id);
      if (delivery === undefined) {
        throw new Error("no delivery row");
      }
      await waitForStatus(shop.id, delivery.id, "dead");
      // No ninth attempt arrives on its own: none is scheduled.
      await untilNoDeliveryInFlight(shop.id);
      expect(receiver.received).toHaveLength(8);
      const gapsMs = receiver.received.slice(1).map((received, index) => {
        const previous = receiver.received[index];
        return received.receivedAtMs - (previous?.receivedAtMs ?? 0);
      });
      gapsMs.forEach((gap, index) => {
        expect(gap).toBeGreaterThanOrEqual((SCHEDULE_SECONDS[index] ?? 0) * 1000 - 20);
      });
      const dead = await request(app)
        .get(`/v1/webhook_endpoints/${endpoint.id}/deliveries`)
        .query({ status: "dead" })
        .set("Authorization", `Bearer ${shop.testKey}`);
      expect(dead.body.data).toHaveLength(1);
      expect(dead.body.data[0].attempts.map((attempt: { attempt: number }) => attempt.attempt)).toEqual([
        1, 2, 3, 4, 5, 6, 7, 8,
      ]);
      expect(dead.body.data[0].next_attempt_at).toBeNull();
      expect(await sampleValue("pos_webhook_dead_deliveries_total")).toBe(deadBefore + 1);
      expect(await sampleValue("pos_webhook_delivery_attempts_total", { outcome: "failed", attempt: "8" })).toBe(
        failedEighthBefore + 1,
      );

      receiver.answerWith(() => 200);
      const retried = await request(app)
        .post(`/v1/webhook_deliveries/${delivery.id}/retry`)
        .set("Authorization", `Bearer ${shop.testKey}`);
      expect(retried.status).toBe(200);
      expect(retried.body.status).toBe("pending");
      await receiver.waitFor(9);
      const revived = await waitForStatus(shop.id, delivery.id, "succeeded");
      expect(revived.attempt_count).toBe(9);
    } finally {
      await receiver.close();
    }
  });

  test("endpoints receive only the event types they subscribed to", async () => {
    const receiver = await startReceiver();
    try {
      const paid = await registered(shop.testKey, { url: `${receiver.url}?paid`, event_types: ["payment.paid"] });
      const all = await registered(shop.testKey, { url: `${receiver.url}?all` });
      await registered(shop.testKey, { url: `${receiver.url}?payouts`, event_types: ["payout.failed"] });
      await emit(shop.id, false, "payment.paid");
      await receiver.waitFor(2);
      await untilNoDeliveryInFlight(shop.id);
      expect(receiver.received).toHaveLength(2);
      expect(new Set((await deliveriesOf(shop.id)).map((delivery) => delivery.endpoint_id))).toEqual(
        new Set([paid.id, all.id]),
      );
    } finally {
      await receiver.close();
    }
  });

  test("test endpoints never receive live events, nor live endpoints test events", async () => {
    const testReceiver = await startReceiver();
    const liveReceiver = await startReceiver();
    const onPremises = testApp({
      database: db.database,
      config: testConfig(db.url, { WEBHOOK_PRIVATE_TARGETS: "allow" }),
    });
    try {
      await registered(shop.testKey, { url: testReceiver.url });
      const live = await request(onPremises)
        .post("/v1/webhook_endpoints")
        .set("Authorization", `Bearer ${shop.liveKey}`)
        .send({ url: `https://127.0.0.1:${liveReceiver.port}/hooks` });
      expect(live.status).toBe(201);
      const liveEvent = await emit(shop.id, true, "payment.paid");
      const testEvent = await emit(shop.id, false, "payment.paid");
      await testReceiver.waitFor(1);
      await untilNoDeliveryInFlight(shop.id);
      expect(testReceiver.received.map((received) => received.headers["x-pos-event-id"])).toEqual([testEvent.id]);
      // The live endpoint got a delivery for the live event only (https to a plain receiver fails, which is fine here).
      const rows = await deliveriesOf(shop.id);
      const liveRows = rows.filter((row) => row.endpoint_id === live.body.id);
      expect(liveRows).toHaveLength(1);
      const liveDelivery = await db.database.oneFirst(sql.type(z.object({ event_id: z.string() }))`
        SELECT event_id FROM webhook_deliveries WHERE merchant_id = ${shop.id} AND endpoint_id = ${live.body.id}`);
      expect(liveDelivery).toBe(liveEvent.id);
    } finally {
      await testReceiver.close();
      await liveReceiver.close();
    }
  });

  test("a deactivated endpoint receives nothing, not even the retries it had pending", async () => {
    const receiver = await startReceiver(() => 500);
    try {
      const endpoint = await registered(shop.testKey, {
        url: receiver.url,
      });
      await emit(shop.id, false, "payment.paid");
      await receiver.waitFor(1);
      const removed = await request(app)
        .delete(`/v1/webhook_endpoints/${endpoint.id}`)
        .set("Authorization", `Bearer ${shop.testKey}`);
      expect(removed.status).toBe(200);
      expect(removed.body).toMatchObject({ active: false });
      const [pending] = await deliveriesOf(shop.id);
      if (pending === undefined) {
        throw new Error("no delivery row");
      }
      await waitForStatus(shop.id, pending.id, "canceled");
      const secondEvent = await emit(shop.id, false, "payment.paid");
      await untilNoDeliveryInFlight(shop.id);
      // An attempt claimed before the deactivation may still have been sent (the test schedule retries
      // within a tenth of a second), but every request that arrived is an attempt the delivery recorded
      // (the claim after the deactivation cancels it without sending), and the later event made no
      // delivery at all.
      const recordedAttempts = await db.database.oneFirst(sql.type(z.object({ count: z.number() }))`
        SELECT count(*)::int AS count FROM webhook_delivery_attempts
        WHERE merchant_id = ${shop.id} AND delivery_id = ${pending.id}`);
      expect(receiver.received).toHaveLength(recordedAttempts);
      expect(receiver.received.map((received) => received.headers["x-pos-event-id"])).not.toContain(secondEvent.id);
      expect(await deliveriesOf(shop.id)).toHaveLength(1);
      const retry = await request(app)
        .post(`/v1/webhook_deliveries/${pending.id}/retry`)
        .set("Authorization", `Bearer ${shop.testKey}`);
      expect(retry.body.error?.code).toBe("endpoint_inactive");
    } finally {
      await receiver.close();
    }
  });

  test("another merchant can neither see nor retry this merchant's endpoints and deliveries", async () => {
    const endpoint = await registered(shop.testKey, { url: "http://127.0.0.1:9/hooks" });
    const other = await newMerchant(db.database);
    const auth = `Bearer ${other.testKey}`;
    expect((await request(app).get(`/v1/webhook_endpoints/${endpoint.id}`).set("Authorization", auth)).status).toBe(
      404,
    );
    expect((await request(app).delete(`/v1/webhook_endpoints/${endpoint.id}`).set("Authorization", auth)).status).toBe(
      404,
    );
    expect(
      (await request(app).get(`/v1/webhook_endpoints/${endpoint.id}/deliveries`).set("Authorization", auth)).status,
    ).toBe(404);
    expect((await request(app).post("/v1/webhook_deliveries/whd_x/retry").set("Authorization", auth)).status).toBe(404);
  });
});
