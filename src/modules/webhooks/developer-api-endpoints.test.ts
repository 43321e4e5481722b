import request from "supertest";
import { z } from "zod";
import { TEST_WEBHOOK_SECRET_KEY, testConfig } from "../../../tests/support/app.ts";
import { as, developerApiTestWorld, stripe } from "../../../tests/support/developer-api.ts";
import { newMerchant } from "../../../tests/support/factories.ts";
import { startScriptedReceiver } from "../../../tests/support/scripted-receiver.ts";
import { sql } from "../../platform/db/pool.ts";
import { verifyWebhook } from "../../sdk/verify-webhook.ts";
import { createDeliveryStore } from "./delivery-store.ts";
import { attemptDelivery, claimDueDeliveries, resealSecrets } from "./service.ts";

/** The developer API: rolling a signing secret, test events, events search, a payment's timeline, tenancy. */

const world = developerApiTestWorld();
const { registered, emit, deliveriesOf, deliverAll, waitForFeed } = world;

describe("rolling the signing secret", () => {
  const signaturesOf = (header: string) => header.split(",").filter((part) => part.startsWith("v1="));

  test("during the overlap both secrets sign (v1= twice); after it only the new one", async () => {
    const receiver = await startScriptedReceiver();
    try {
      const endpoint = await registered(world.shop.testKey, receiver.urlOf("/roll"));
      const rolled = await request(world.app)
        .post(`/v1/webhook_endpoints/${endpoint.id}/roll_secret`)
        .set(as(world.shop.testKey))
        .send({ expires_in_seconds: 3600 });
      expect(rolled.status).toBe(200);
      expect(rolled.body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
      expect(rolled.body.secret).not.toBe(endpoint.secret);
      expect(rolled.body.secret_last4).toBe(rolled.body.secret.slice(-4));
      const overlapEndsMs = Date.parse(rolled.body.previous_secret_expires_at);
      expect(Math.abs(overlapEndsMs - (Date.now() + 3600_000))).toBeLessThan(60_000);
      // Both secrets rest encrypted.
      const stored = await world.db.database.one(sql.type(
        z.object({ secret_ciphertext: z.instanceof(Buffer), previous_secret_ciphertext: z.instanceof(Buffer) }),
      )`SELECT secret_ciphertext, previous_secret_ciphertext FROM webhook_endpoints
        WHERE merchant_id = ${world.shop.id} AND id = ${endpoint.id}`);
      for (const secret of [endpoint.secret, rolled.body.secret]) {
        expect(
          Buffer.concat([stored.secret_ciphertext, stored.previous_secret_ciphertext]).includes(secret.slice(6)),
        ).toBe(false);
      }
      const shown = await request(world.app).get(`/v1/webhook_endpoints/${endpoint.id}`).set(as(world.shop.testKey));
      expect(shown.body.secret).toBeUndefined();
      expect(shown.body.previous_secret_expires_at).toBe(rolled.body.previous_secret_expires_at);

      await emit(world.shop.id);
      await deliverAll(world.shop.id);
      const [during] = receiver.received;
      const duringHeader = String(during?.headers["x-pos-signature"]);
      expect(duringHeader).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
      for (const secret of [rolled.body.secret, endpoint.secret]) {
        expect(verifyWebhook(during?.body ?? "", duringHeader, secret).type).toBe("payment.paid");
        expect(stripe.webhooks.constructEvent(during?.body ?? "", duringHeader, secret, 300).type).toBe("payment.paid");
      }
      expect(() => verifyWebhook(during?.body ?? "", duringHeader, "whsec_neither")).toThrow(
        expect.objectContaining({ reason: "signature_mismatch" }),
      );

      // The overlap ends (moved in the database, not waited for).
      await world.db.database.query(sql.unsafe`
        UPDATE webhook_endpoints SET previous_secret_expires_at = now() - interval '1 second'
        WHERE merchant_id = ${world.shop.id} AND id = ${endpoint.id}`);
      await emit(world.shop.id);
      await deliverAll(world.shop.id);
      const after = receiver.received[1];
      const afterHeader = String(after?.headers["x-pos-signature"]);
      expect(signaturesOf(afterHeader)).toHaveLength(1);
      expect(verifyWebhook(after?.body ?? "", afterHeader, rolled.body.secret).type).toBe("payment.paid");
      expect(stripe.webhooks.constructEvent(after?.body ?? "", afterHeader, rolled.body.secret, 300).type).toBe(
        "payment.paid",
      );
      expect(() => verifyWebhook(after?.body ?? "", afterHeader, endpoint.secret)).toThrow(
        expect.objectContaining({ reason: "signature_mismatch" }),
      );
      expect(() => stripe.webhooks.constructEvent(after?.body ?? "", afterHeader, endpoint.secret, 300)).toThrow();
      const ended = await request(world.app).get(`/v1/webhook_endpoints/${endpoint.id}`).set(as(world.shop.testKey));
      expect(ended.body.previous_secret_expires_at).toBeNull();
    } finally {
      await receiver.close();
    }
  });

  test("no overlap ends the old secret at once; the overlap is 0 to 7 days; a second roll drops the oldest", async () => {
    const receiver = await startScriptedReceiver();
    try {
      const endpoint = await registered(world.shop.testKey, receiver.urlOf("/roll-now"));
      const roll = (body: Record<string, unknown>) =>
        request(world.app)
          .post(`/v1/webhook_endpoints/${endpoint.id}/roll_secret`)
          .set(as(world.shop.testKey))
          .send(body);
      expect((await roll({ expires_in_seconds: 7 * 24 * 3600 + 1 })).status).toBe(400);
      expect((await roll({ expires_in_seconds: -1 })).status).toBe(400);
      const defaulted = await roll({});
      expect(Math.abs(Date.parse(defaulted.body.previous_secret_expires_at) - (Date.now() + 86_400_000))).toBeLessThan(
        60_000,
      );
      const second = await roll({ expires_in_seconds: 600 });
      await emit(world.shop.id);
      await deliverAll(world.shop.id);
      const header = String(receiver.received[0]?.headers["x-pos-signature"]);
      expect(signaturesOf(header)).toHaveLength(2);
      const body = receiver.received[0]?.body ?? "";
      expect(verifyWebhook(body, header, second.body.secret).type).toBe("payment.paid");
      expect(verifyWebhook(body, header, defaulted.body.secret).type).toBe("payment.paid");
      expect(() => verifyWebhook(body, header, endpoint.secret)).toThrow();

      const now = await roll({ expires_in_seconds: 0 });
      expect(now.body.previous_secret_expires_at).toBeNull();
      await emit(world.shop.id);
      await deliverAll(world.shop.id);
      const single = String(receiver.received[1]?.headers["x-pos-signature"]);
      expect(signaturesOf(single)).toHaveLength(1);
      expect(verifyWebhook(receiver.received[1]?.body ?? "", single, now.body.secret).type).toBe("payment.paid");
    } finally {
      await receiver.close();
    }
  });

  test("rotating the encryption key reseals the previous secret too, which keeps signing", async () => {
    const receiver = await startScriptedReceiver();
    const newKey = Buffer.alloc(32, 11).toString("base64");
    try {
      const endpoint = await registered(world.shop.testKey, receiver.urlOf("/reseal"));
      const rolled = await request(world.app)
        .post(`/v1/webhook_endpoints/${endpoint.id}/roll_secret`)
        .set(as(world.shop.testKey))
        .send({ expires_in_seconds: 3600 });
      const rotating = testConfig(world.db.url, {
        WEBHOOK_SECRET_ENCRYPTION_KEY: newKey,
        WEBHOOK_SECRET_ENCRYPTION_KEY_PREVIOUS: TEST_WEBHOOK_SECRET_KEY,
      });
      expect((await resealSecrets(world.db.database, rotating)).resealed).toBeGreaterThanOrEqual(1);
      expect(await resealSecrets(world.db.database, rotating)).toEqual({ resealed: 0 });
      await emit(world.shop.id);
      const newKeyOnly = testConfig(world.db.url, { WEBHOOK_SECRET_ENCRYPTION_KEY: newKey });
      const dependencies = {
        store: createDeliveryStore(world.db.database),
        config: newKeyOnly,
        post: world.poster.post,
      };
      const [claimed] = await claimDueDeliveries(dependencies, { limit: 1, merchantId: world.shop.id });
      if (claimed === undefined) throw new Error("no delivery due");
      const settled = await attemptDelivery(dependencies, claimed);
      expect(settled?.status).toBe("succeeded");
      const [received] = receiver.received;
      const header = String(received?.headers["x-pos-signature"]);
      for (const secret of [rolled.body.secret, endpoint.secret]) {
        expect(verifyWebhook(received?.body ?? "", header, secret).type).toBe("payment.paid");
      }
    } finally {
      await receiver.close();
    }
  });
});

describe("test events", () => {
  test("reach only the chosen endpoint and stay out of the polling feed", async () => {
    const receiver = await startScriptedReceiver();
    try {
      const chosen = await registered(world.shop.testKey, receiver.urlOf("/chosen"));
      const bystander = await registered(world.shop.testKey, receiver.urlOf("/bystander"));
      const sent = await request(world.app).post(`/v1/webhook_endpoints/${chosen.id}/test`).set(as(world.shop.testKey));
      expect(sent.status).toBe(201);
      expect(sent.body).toMatchObject({
        object: "webhook_delivery",
        endpoint_id: chosen.id,
        event_type: "webhook.test",
        status: "pending",
        attempts: [],
      });
      await deliverAll(world.shop.id);
      expect(receiver.receivedOn("/bystander")).toEqual([]);
      const [delivered] = receiver.receivedOn("/chosen");
      const event = verifyWebhook(delivered?.body ?? "", String(delivered?.headers["x-pos-signature"]), chosen.secret);
      expect(event).toMatchObject({ id: sent.body.event_id, type: "webhook.test", livemode: false });
      expect(event.data).toMatchObject({ endpoint_id: chosen.id });
      expect((await deliveriesOf(world.shop.id)).map((row) => [row.endpoint_id, row.status])).toEqual([
        [chosen.id, "succeeded"],
      ]);
      const shown = await request(world.app).get(`/v1/webhook_deliveries/${sent.body.id}`).set(as(world.shop.testKey));
      expect(shown.body).toMatchObject({ status: "succeeded", attempt_count: 1 });

      // A money event after it: once the feed shows that one, it has passed the test event's place.
      const paid = await emit(world.shop.id, "payment.paid", { payment_id: "pay_after_test" });
      await waitForFeed(world.shop.id, (ids) => ids.includes(paid.id));
      const feed = await request(world.app).get("/v1/events").set(as(world.shop.testKey));
      expect(feed.body.data.map((event: { id: string }) => event.id)).toEqual([paid.id]);
      // Fetched by id, it is there (the delivery log links to it).
      const byId = await request(world.app).get(`/v1/events/${sent.body.event_id}`).set(as(world.shop.testKey));
      expect(byId.body).toMatchObject({ type: "webhook.test" });
      await deliverAll(world.shop.id);
      expect(receiver.receivedOn("/bystander").map((received) => received.headers["x-pos-event-id"])).toEqual([
        paid.id,
      ]);
      expect(bystander.id).not.toBe(chosen.id);
    } finally {
      await receiver.close();
    }
  });
});

describe("events search", () => {
  test("type filters exactly or by family, keeps the since contract, and refuses unknown types", async () => {
    const paid = await emit(world.shop.id, "payment.paid");
    const payout = await emit(world.shop.id, "payout.confirmed");
    const expired = await emit(world.shop.id, "payment.expired");
    const change = await emit(world.shop.id, "bank_change.completed");
    await waitForFeed(world.shop.id, (ids) => ids.includes(change.id));
    const poll = async (query: Record<string, string>) =>
      request(world.app).get("/v1/events").query(query).set(as(world.shop.testKey));
    const ids = (response: { body: { data: { id: string }[] } }) => response.body.data.map((event) => event.id);
    expect(ids(await poll({ type: "payment.*" }))).toEqual([paid.id, expired.id]);
    expect(ids(await poll({ type: "payment.expired" }))).toEqual([expired.id]);
    expect(ids(await poll({ type: "payment.*", since: paid.id }))).toEqual([expired.id]);
    expect(ids(await poll({ type: "payout.*", since: paid.id }))).toEqual([payout.id]);
    // `_` is no wildcard: bank_change.* is that family only.
    expect(ids(await poll({ type: "bank_change.*" }))).toEqual([change.id]);
    const page = await poll({ type: "payment.*", limit: "1" });
    expect(page.body).toMatchObject({ has_more: true, next_cursor: paid.id });
    for (const type of ["payment", "payment.refunded", "webhook.test", "*", "pay*"]) {
      const refused = await poll({ type });
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe("parameter_invalid");
    }
  });
});

describe("a payment's timeline", () => {
  test("payment_id filters the feed to that payment's events; event_id lists an event's deliveries to every endpoint", async () => {
    const first = await registered(world.shop.testKey, "http://127.0.0.1:9/first");
    const second = await registered(world.shop.testKey, "http://127.0.0.1:9/second");
    const paid = await emit(world.shop.id, "payment.paid", { payment_id: "pay_timeline" });
    // Only the first page is checked: an event's deliveries share one created_at, and the keyset
    // cursor keeps milliseconds of a microsecond column (a known defect of every created_at cursor).
    const other = await emit(world.shop.id, "payment.paid", { payment_id: "pay_other" });
    const expired = await emit(world.shop.id, "payment.expired", { payment_id: "pay_timeline" });
    await waitForFeed(world.shop.id, (ids) => ids.includes(expired.id));
    const feed = await request(world.app)
      .get("/v1/events")
      .query({ payment_id: "pay_timeline" })
      .set(as(world.shop.testKey));
    expect(feed.status).toBe(200);
    expect(feed.body.data.map((event: { id: string }) => event.id)).toEqual([paid.id, expired.id]);
    const typed = await request(world.app)
      .get("/v1/events")
      .query({ payment_id: "pay_timeline", type: "payment.expired" })
      .set(as(world.shop.testKey));
    expect(typed.body.data.map((event: { id: string }) => event.id)).toEqual([expired.id]);

    const deliveries = await request(world.app)
      .get("/v1/webhook_deliveries")
      .query({ event_id: paid.id })
      .set(as(world.shop.testKey));
    expect(deliveries.status).toBe(200);
    expect(deliveries.body.has_more).toBe(false);
    expect(
      deliveries.body.data.map((delivery: { endpoint_id: string; event_id: string; attempts: unknown[] }) => [
        delivery.endpoint_id,
        delivery.event_id,
        delivery.attempts,
      ]),
    ).toEqual(
      expect.arrayContaining([
        [first.id, paid.id, []],
        [second.id, paid.id, []],
      ]),
    );
    expect(deliveries.body.data).toHaveLength(2);
    const paged = await request(world.app)
      .get("/v1/webhook_deliveries")
      .query({ event_id: other.id, limit: "1" })
      .set(as(world.shop.testKey));
    expect(paged.body).toMatchObject({ has_more: true });
    expect(paged.body.data[0].event_id).toBe(other.id);

    const missing = await request(world.app).get("/v1/webhook_deliveries").set(as(world.shop.testKey));
    expect([missing.status, missing.body.error.type]).toEqual([400, "invalid_request"]);
    // Another merchant, or the other world, sees none of them.
    const stranger = await newMerchant(world.db.database);
    for (const key of [stranger.testKey, world.shop.liveKey]) {
      const foreign = await request(world.app).get("/v1/webhook_deliveries").query({ event_id: paid.id }).set(as(key));
      expect([foreign.status, foreign.body.data]).toEqual([200, []]);
      const foreignFeed = await request(world.app).get("/v1/events").query({ payment_id: "pay_timeline" }).set(as(key));
      expect(foreignFeed.body.data).toEqual([]);
    }
  });
});

describe("tenancy", () => {
  test("another merchant, or the other world, cannot see, recover, roll or test an endpoint", async () => {
    const endpoint = await registered(world.shop.testKey, "http://127.0.0.1:9/hooks");
    await emit(world.shop.id);
    const [delivery] = await deliveriesOf(world.shop.id);
    const other = await newMerchant(world.db.database);
    const since = new Date(Date.now() - 3600_000).toISOString();
    for (const key of [other.testKey, other.liveKey, world.shop.liveKey]) {
      const answers = await Promise.all([
        request(world.app).post(`/v1/webhook_endpoints/${endpoint.id}/recover`).set(as(key)).send({ since }),
        request(world.app)
          .post(`/v1/webhook_endpoints/${endpoint.id}/roll_secret`)
          .set(as(key))
          .send({ expires_in_seconds: 0 }),
        request(world.app).post(`/v1/webhook_endpoints/${endpoint.id}/test`).set(as(key)),
        request(world.app).get(`/v1/webhook_endpoints/${endpoint.id}/deliveries`).set(as(key)),
        request(world.app).get(`/v1/webhook_deliveries/${delivery?.id}`).set(as(key)),
      ]);
      expect(answers.map((answer) => [answer.status, answer.body.error?.code])).toEqual(
        Array(5).fill([404, "resource_missing"]),
      );
    }
    const unchanged = await request(world.app).get(`/v1/webhook_endpoints/${endpoint.id}`).set(as(world.shop.testKey));
    expect(unchanged.body).toMatchObject({ secret_last4: endpoint.secret.slice(-4), previous_secret_expires_at: null });
    expect((await deliveriesOf(world.shop.id)).map((row) => row.event_id)).toHaveLength(1);
    expect(await deliveriesOf(other.id)).toEqual([]);
  });
});
