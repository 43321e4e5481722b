import request from "supertest";
import { z } from "zod";
import { as, developerApiTestWorld } from "../../../tests/support/developer-api.ts";
import { newMerchant } from "../../../tests/support/factories.ts";
import { startScriptedReceiver } from "../../../tests/support/scripted-receiver.ts";
import { sql } from "../../platform/db/pool.ts";

/** The developer API: keys, the delivery log, recovering failed deliveries. */

const world = developerApiTestWorld();
const { registered, emit, deliveriesOf, deliverAll, waitForDatabaseClockPast } = world;

describe("GET /v1/api_keys", () => {
  test("lists the calling world's keys with prefix, last 4 and last use, never a secret", async () => {
    const { createApiKey, revokeApiKey } = await import("../merchants/service.ts");
    const spare = await createApiKey(world.db.database, world.shop.id, false);
    const revoked = await createApiKey(world.db.database, world.shop.id, false);
    await revokeApiKey(world.db.database, { merchantId: world.shop.id, id: revoked.key.id, livemode: false });
    const lastUsed = new Date("2026-01-02T03:04:05.000Z");
    await world.db.database.query(sql.unsafe`
      UPDATE api_keys SET last_used_at = ${lastUsed.toISOString()} WHERE merchant_id = ${world.shop.id} AND id = ${revoked.key.id}`);

    const response = await request(world.app).get("/v1/api_keys").set(as(world.shop.testKey));
    expect(response.status).toBe(200);
    expect(response.body.data.map((key: { id: string }) => key.id)).toEqual([
      revoked.key.id,
      spare.key.id,
      world.shop.testKeyId,
    ]);
    const [revokedKey, spareKey, callingKey] = response.body.data;
    expect(Object.keys(callingKey).sort()).toEqual(
      ["created_at", "expires_at", "id", "last4", "last_used_at", "livemode", "object", "prefix", "revoked_at"].sort(),
    );
    expect(callingKey).toMatchObject({
      object: "api_key",
      livemode: false,
      prefix: "sk_test_",
      last4: world.shop.testKey.slice(-4),
      expires_at: null,
      revoked_at: null,
    });
    // The calling key was used by this very request; the spare key never was.
    const stored = await world.db.database.oneFirst(sql.type(z.object({ last_used_at: z.date() }))`
      SELECT last_used_at FROM api_keys WHERE merchant_id = ${world.shop.id} AND id = ${world.shop.testKeyId}`);
    expect(callingKey.last_used_at).toBe(stored.toISOString());
    expect(spareKey).toMatchObject({ last4: spare.secretKey.slice(-4), last_used_at: null, revoked_at: null });
    expect(revokedKey.last_used_at).toBe(lastUsed.toISOString());
    expect(revokedKey.revoked_at).not.toBeNull();
    const text = JSON.stringify(response.body);
    for (const secret of [world.shop.testKey, world.shop.liveKey, spare.secretKey, revoked.secretKey]) {
      expect(text).not.toContain(secret.slice(8, 20));
    }
    expect(text).not.toMatch(/hash/);

    // The live key sees the live world's key only; another merchant sees only its own.
    const live = await request(world.app).get("/v1/api_keys").set(as(world.shop.liveKey));
    expect(live.body.data.map((key: { id: string; prefix: string }) => [key.id, key.prefix])).toEqual([
      [world.shop.liveKeyId, "sk_live_"],
    ]);
    const other = await newMerchant(world.db.database);
    const theirs = await request(world.app).get("/v1/api_keys").set(as(other.testKey));
    expect(theirs.body.data.map((key: { id: string }) => key.id)).toEqual([other.testKeyId]);
  });

  test("pages with limit and cursor; a foreign cursor is a 400", async () => {
    const { createApiKey } = await import("../merchants/service.ts");
    await createApiKey(world.db.database, world.shop.id, false);
    await createApiKey(world.db.database, world.shop.id, false);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 5; page += 1) {
      const response = await request(world.app)
        .get("/v1/api_keys")
        .query({ limit: 1, ...(cursor === undefined ? {} : { cursor }) })
        .set(as(world.shop.testKey));
      expect(response.status).toBe(200);
      seen.push(...response.body.data.map((key: { id: string }) => key.id));
      if (!response.body.has_more) {
        break;
      }
      cursor = response.body.next_cursor;
    }
    expect(seen).toHaveLength(3);
    expect(new Set(seen).size).toBe(3);
    expect((await request(world.app).get("/v1/api_keys?cursor=bogus").set(as(world.shop.testKey))).status).toBe(400);
    expect((await request(world.app).get("/v1/api_keys?limit=101").set(as(world.shop.testKey))).status).toBe(400);
  });
});

describe("the delivery log", () => {
  test("shows every attempt with its time, status, latency and a bounded response excerpt, and the next attempt", async () => {
    const receiver = await startScriptedReceiver((count) =>
      count === 1 ? { status: 503, body: `busy ${"é".repeat(600)}` } : { status: 200, body: "thanks" },
    );
    try {
      const endpoint = await registered(world.shop.testKey, receiver.urlOf("/log"));
      const event = await emit(world.shop.id);
      const [delivery] = await deliveriesOf(world.shop.id);
      const before = await request(world.app).get(`/v1/webhook_deliveries/${delivery?.id}`).set(as(world.shop.testKey));
      expect(before.body).toMatchObject({ status: "pending", attempt_count: 0, attempts: [], event_id: event.id });
      expect(before.body.next_attempt_at).not.toBeNull();

      await deliverAll(world.shop.id);
      const log = await request(world.app)
        .get(`/v1/webhook_endpoints/${endpoint.id}/deliveries`)
        .set(as(world.shop.testKey));
      expect(log.status).toBe(200);
      const [logged] = log.body.data;
      expect(logged).toMatchObject({ id: delivery?.id, status: "succeeded", attempt_count: 2, next_attempt_at: null });
      const [first, second] = logged.attempts;
      expect(first).toMatchObject({ attempt: 1, response_status: 503, succeeded: false, error: null });
      expect(second).toMatchObject({ attempt: 2, response_status: 200, succeeded: true, response_excerpt: "thanks" });
      // 512 bytes: "busy " and 253 two-byte characters; the character the limit cut in half is dropped.
      expect(first.response_excerpt).toBe(`busy ${"é".repeat(253)}`);
      expect(Buffer.byteLength(first.response_excerpt)).toBeLessThanOrEqual(512);
      for (const attempt of logged.attempts) {
        expect(attempt.duration_ms).toBeGreaterThanOrEqual(0);
        expect(Date.parse(attempt.started_at)).toBeGreaterThanOrEqual(Date.parse(logged.created_at));
      }
      expect(Date.parse(second.started_at)).toBeGreaterThanOrEqual(Date.parse(first.started_at));
    } finally {
      await receiver.close();
    }
  });

  test("pages newest first with limit and cursor", async () => {
    const endpoint = await registered(world.shop.testKey, "http://127.0.0.1:9/hooks");
    const emitted = [await emit(world.shop.id), await emit(world.shop.id), await emit(world.shop.id)];
    const page = (query: Record<string, string>) =>
      request(world.app)
        .get(`/v1/webhook_endpoints/${endpoint.id}/deliveries`)
        .query(query)
        .set(as(world.shop.testKey));
    const first = await page({ limit: "2" });
    expect(first.body.has_more).toBe(true);
    const second = await page({ limit: "2", cursor: first.body.next_cursor });
    expect(second.body).toMatchObject({ has_more: false, next_cursor: null });
    const eventIds = [...first.body.data, ...second.body.data].map(
      (delivery: { event_id: string }) => delivery.event_id,
    );
    expect(eventIds).toEqual(emitted.map((event) => event.id).reverse());
  });

  test("a refused connection is an attempt with an error and no status or excerpt", async () => {
    const receiver = await startScriptedReceiver();
    const url = receiver.urlOf("/gone");
    await receiver.close();
    const endpoint = await registered(world.shop.testKey, url);
    await emit(world.shop.id);
    await deliverAll(world.shop.id);
    const log = await request(world.app)
      .get(`/v1/webhook_endpoints/${endpoint.id}/deliveries`)
      .query({ status: "dead" })
      .set(as(world.shop.testKey));
    expect(log.body.data).toHaveLength(1);
    expect(log.body.data[0].attempts).toHaveLength(2);
    for (const attempt of log.body.data[0].attempts) {
      expect(attempt).toMatchObject({ response_status: null, response_excerpt: null, succeeded: false });
      expect(attempt.error).toMatch(/ECONNREFUSED/);
    }
  });
});

describe("recovering failed deliveries", () => {
  test("a failing receiver, fixed: recover since T delivers each dead delivery since T exactly once", async () => {
    const receiver = await startScriptedReceiver(() => ({ status: 500, body: "down" }));
    try {
      const endpoint = await registered(world.shop.testKey, receiver.urlOf("/recover"));
      const early = [await emit(world.shop.id), await emit(world.shop.id)];
      await deliverAll(world.shop.id);
      // T: just after the early deliveries were created (timestamps here have millisecond precision).
      const earlyRows = await deliveriesOf(world.shop.id);
      const since = new Date(Math.max(...earlyRows.map((row) => row.created_at.getTime())) + 1);
      await waitForDatabaseClockPast(since);
      const late = [await emit(world.shop.id), await emit(world.shop.id), await emit(world.shop.id)];
      await deliverAll(world.shop.id);
      expect((await deliveriesOf(world.shop.id)).map((row) => row.status)).toEqual(Array(5).fill("dead"));
      const failedAttempts = receiver.received.length;
      expect(failedAttempts).toBe(10);

      receiver.answerWith(() => ({ status: 200, body: "fixed" }));
      const recover = () =>
        request(world.app)
          .post(`/v1/webhook_endpoints/${endpoint.id}/recover`)
          .set(as(world.shop.testKey))
          .send({ since: since.toISOString() });
      // Two recoveries at once, then a third: together they schedule each delivery once.
      const concurrent = await Promise.all([recover(), recover()]);
      for (const response of concurrent) {
        expect(response.status).toBe(200);
        expect(response.body).toMatchObject({
          object: "webhook_recovery",
          endpoint_id: endpoint.id,
          since: since.toISOString(),
          has_more: false,
        });
      }
      expect(concurrent.reduce((sum, response) => sum + response.body.recovered_count, 0)).toBe(3);
      expect((await recover()).body.recovered_count).toBe(0);
      // The recovered deliveries are due now, whoever recovered them (each is attempted once below).
      const due = await world.db.database.oneFirst(sql.type(z.object({ count: z.number() }))`
        SELECT count(*)::int AS count FROM webhook_deliveries
        WHERE merchant_id = ${world.shop.id} AND status = 'pending' AND next_attempt_at <= now() AND lease_expires_at IS NULL`);
      expect(due).toBe(3);

      await deliverAll(world.shop.id);
      const redelivered = receiver.received.slice(failedAttempts).map((received) => received.headers["x-pos-event-id"]);
      expect(redelivered.sort()).toEqual(late.map((event) => event.id).sort());
      const rows = await deliveriesOf(world.shop.id);
      for (const row of rows) {
        const isLate = late.some((event) => event.id === row.event_id);
        expect([row.status, row.attempt_count]).toEqual(isLate ? ["succeeded", 3] : ["dead", 2]);
      }
      expect(rows.filter((row) => early.some((event) => event.id === row.event_id))).toHaveLength(2);
    } finally {
      await receiver.close();
    }
  });

  test("since is bounded to 30 days back and must be a time; a deactivated endpoint is refused", async () => {
    const endpoint = await registered(world.shop.testKey, "http://127.0.0.1:9/hooks");
    const recover = (body: Record<string, unknown>) =>
      request(world.app).post(`/v1/webhook_endpoints/${endpoint.id}/recover`).set(as(world.shop.testKey)).send(body);
    const thirtyOneDaysAgo = new Date(Date.now() - 31 * 24 * 3600 * 1000).toISOString();
    expect((await recover({ since: thirtyOneDaysAgo })).body.error).toMatchObject({ code: "parameter_invalid" });
    expect((await recover({ since: "yesterday" })).status).toBe(400);
    expect((await recover({})).status).toBe(400);
    const ok = await recover({ since: new Date(Date.now() - 29 * 24 * 3600 * 1000).toISOString() });
    expect(ok.body).toMatchObject({ recovered_count: 0, has_more: false });
    await request(world.app).delete(`/v1/webhook_endpoints/${endpoint.id}`).set(as(world.shop.testKey));
    expect((await recover({ since: new Date().toISOString() })).body.error).toMatchObject({
      code: "endpoint_inactive",
    });
  });
});
