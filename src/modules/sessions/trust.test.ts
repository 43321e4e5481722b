import { randomUUID } from "node:crypto";
import request from "supertest";
import { z } from "zod";
import { testApp, testConfig } from "../../../tests/support/app.ts";
import { fund, newMerchant } from "../../../tests/support/factories.ts";
import { openTill, ownerTestWorld, PASSWORD, signIn } from "../../../tests/support/sessions.ts";
import { sql } from "../../platform/db/pool.ts";

/**
 * Issue 43's reproductions, each refused now: what a till on a shop counter, a stale dashboard session
 * or a test key could do that only the owner (with a password typed just now) may.
 */
const world = ownerTestWorld({
  merchant: { payout_verified: true, payout_msisdn: "263771234567" },
  // Every request here comes from one address: the bursts below must not lock the next test out.
  beforeEach: async (db) => {
    await db.database.query(sql.unsafe`DELETE FROM auth_attempts WHERE subject LIKE 'address:%'`);
  },
});

const count = (query: ReturnType<typeof sql.unsafe>) =>
  world.db.database.oneFirst(
    sql.type(z.object({ count: z.number().int() }))`SELECT count(*)::integer AS count FROM (${query}) AS q`,
  );

const codeOf = (response: request.Response) => [response.status, response.body?.error?.code];

describe("a till holds none of the owner's powers", () => {
  test("a device session mints no key, rolls none, pays nothing out; opening it again changes nothing", async () => {
    const till = await openTill(world.app, world.owner);
    await fund(world.db.database, world.shop, 10_000, true);
    const again = await openTill(world.app, world.owner, "Counter 2");
    for (const session of [till, again]) {
      const minted = await session.send("post", "/v1/api_keys", { world: "live" }).send({ livemode: true });
      expect(codeOf(minted)).toEqual([403, "principal_not_allowed"]);
      const rolled = await session.send("post", `/v1/api_keys/${world.shop.liveKeyId}/roll`, { world: "live" }).send({
        expires_in_seconds: 0,
      });
      expect(codeOf(rolled)).toEqual([403, "principal_not_allowed"]);
      const payout = await session
        .send("post", "/v1/payouts", { world: "live" })
        .set("Idempotency-Key", randomUUID())
        .send({ amount_cents: 100, currency: "USD" });
      expect(codeOf(payout)).toEqual([403, "principal_not_allowed"]);
    }
    const session = await till.send("get", "/v1/session").expect(200);
    expect(session.body.step_up_expires_at).toBeNull();
    expect(await count(sql.unsafe`SELECT 1 FROM api_keys WHERE merchant_id = ${world.shop.id}`)).toBe(2);
    expect(await count(sql.unsafe`SELECT 1 FROM payouts WHERE merchant_id = ${world.shop.id}`)).toBe(0);
  });

  test("keys, webhooks, sessions, the audit log and money to others are refused to a till", async () => {
    const till = await openTill(world.app, world.owner);
    const refusals = await Promise.all([
      till.send("get", "/v1/api_keys"),
      till.send("delete", `/v1/api_keys/${world.shop.testKeyId}`),
      till.send("post", "/v1/api_keys").send({ livemode: false }),
      till.send("post", "/v1/webhook_endpoints", { world: "live" }).send({ url: "https://example.com/hook" }),
      till.send("get", "/v1/sessions"),
      till.send("delete", `/v1/sessions/${world.owner.id}`),
      till.send("get", "/v1/audit_log"),
      till
        .send("post", "/v1/agent/bank_changes")
        .set("Idempotency-Key", randomUUID())
        .send({ amount_cents: 100, currency: "USD", destination_msisdn: "263771112233" }),
      till.send("post", "/v1/utilities/payments").set("Idempotency-Key", randomUUID()).send({}),
      till.send("post", "/v1/cashiers").send({ name: "Mallory", pin: "1234" }),
      till.send("get", "/v1/till_devices"),
      till.send("get", "/v1/balance"),
    ]);
    expect(refusals.map(codeOf)).toEqual(refusals.map(() => [403, "principal_not_allowed"]));
    await world.owner.send("get", "/v1/me").expect(200);
    expect(await count(sql.unsafe`SELECT 1 FROM webhook_endpoints WHERE merchant_id = ${world.shop.id}`)).toBe(0);
  });

  test("a password change unpairs every till: the old device token opens nothing", async () => {
    const paired = await world.owner.send("post", "/v1/till_devices").send({ name: "Counter" }).expect(201);
    const till = await request(world.app)
      .post("/v1/session/device")
      .send({ device_token: paired.body.token })
      .expect(201);
    const changed = await world.owner
      .send("post", "/v1/session/password")
      .send({ current_password: PASSWORD, new_password: "a much better password" })
      .expect(200);
    expect(changed.body).toMatchObject({ unpaired_devices: 1 });
    const reopened = await request(world.app).post("/v1/session/device").send({ device_token: paired.body.token });
    expect(codeOf(reopened)).toEqual([401, "device_invalid"]);
    const cookie = String(till.headers["set-cookie"]).split(";")[0] ?? "";
    expect((await request(world.app).get("/v1/session").set("Cookie", cookie)).status).toBe(401);
  });

  test("sign out everywhere ends every session, this one too, and unpairs every till; it is audited", async () => {
    const till = await openTill(world.app, world.owner);
    const elsewhere = await signIn(world.app, { email: world.shop.email, password: PASSWORD });
    const out = await world.owner.send("delete", "/v1/sessions").expect(200);
    expect(out.body).toMatchObject({ signed_out: true, unpaired_devices: 1 });
    for (const session of [world.owner, elsewhere, till]) {
      expect((await session.send("get", "/v1/session")).status).toBe(401);
    }
    const fresh = await signIn(world.app, { email: world.shop.email, password: PASSWORD });
    const audit = await fresh.send("get", "/v1/audit_log").expect(200);
    expect(audit.body.data.map((entry: { action: string }) => entry.action)).toContain("session.signed_out_everywhere");
  });
});

describe("step-up is a password typed in this session just now", () => {
  test("money to others from a stale dashboard session needs step-up; a fresh one passes the check", async () => {
    await world.db.database.query(sql.unsafe`
      UPDATE sessions SET password_verified_at = now() - interval '6 minutes' WHERE id = ${world.owner.id}`);
    const change = () =>
      world.owner
        .send("post", "/v1/agent/bank_changes")
        .set("Idempotency-Key", randomUUID())
        .send({ amount_cents: 100, currency: "USD", destination_msisdn: "263771112233" });
    expect(codeOf(await change())).toEqual([403, "step_up_required"]);
    const utility = await world.owner
      .send("post", "/v1/utilities/payments")
      .set("Idempotency-Key", randomUUID())
      .send({});
    expect(codeOf(utility)).toEqual([403, "step_up_required"]);
    await world.owner.send("post", "/v1/session/step_up").send({ password: PASSWORD }).expect(200);
    // Past the step-up check: the merchant has no test balance, so the change is refused for funds.
    expect((await change()).status).toBe(402);
  });

  test("sessions open at the migration are unverified; a new session starts verified only by its sign-in", async () => {
    const stored = await world.db.database.oneFirst(sql.type(z.object({ verified: z.date().nullable() }))`
      SELECT password_verified_at AS verified FROM sessions WHERE id = ${world.owner.id}`);
    expect(stored).not.toBeNull();
    const till = await openTill(world.app, world.owner);
    const tillVerified = await world.db.database.oneFirst(sql.type(z.object({ verified: z.date().nullable() }))`
      SELECT password_verified_at AS verified FROM sessions WHERE id = ${till.id}`);
    expect(tillVerified).toBeNull();
  });

  test("a wrong password at step-up is 403 invalid_password, the session stays, and it is not a failed sign-in", async () => {
    const wrong = await world.owner.send("post", "/v1/session/step_up").send({ password: "not it" });
    expect(codeOf(wrong)).toEqual([403, "invalid_password"]);
    await world.owner.send("get", "/v1/session").expect(200);
    const actions = (await world.owner.send("get", "/v1/audit_log").expect(200)).body.data.map(
      (entry: { action: string }) => entry.action,
    );
    expect(actions).toContain("session.step_up_failed");
    expect(actions).not.toContain("session.sign_in_failed");
  });
});

describe("limits that hold under concurrency", () => {
  const limitedApp = () =>
    testApp({
      database: world.db.database,
      config: testConfig(world.db.url, { RATE_LIMIT_REQUESTS: "10000", SIGN_IN_FAILURES_PER_ADDRESS: "1000" }),
    });

  test("30 wrong passwords at once get exactly 5 answers of 401; the rest 429", async () => {
    const limited = limitedApp();
    const victim = await newMerchant(world.db.database);
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        request(limited).post("/v1/session").send({ email: victim.email, password: "guess" }),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(25);
  });

  test("the right password inside a burst past the limit is refused, and clears nothing", async () => {
    const limited = limitedApp();
    const victim = await newMerchant(world.db.database);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await request(limited).post("/v1/session").send({ email: victim.email, password: "guess" }).expect(401);
    }
    const burst = await Promise.all([
      ...Array.from({ length: 14 }, () =>
        request(limited).post("/v1/session").send({ email: victim.email, password: "guess" }),
      ),
      request(limited).post("/v1/session").send({ email: victim.email, password: PASSWORD }),
    ]);
    expect(burst.map((answer) => answer.status)).toEqual(burst.map(() => 429));
    expect((await request(limited).post("/v1/session").send({ email: victim.email, password: PASSWORD })).status).toBe(
      429,
    );
    expect(await count(sql.unsafe`SELECT 1 FROM sessions WHERE merchant_id = ${victim.id}`)).toBe(0);
  });

  test("step-up shares the account's limit: a burst of wrong passwords gets at most its worth of answers", async () => {
    const limited = limitedApp();
    const victim = await newMerchant(world.db.database);
    const session = await signIn(limited, { email: victim.email, password: PASSWORD });
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => session.send("post", "/v1/session/step_up").send({ password: "guess" })),
    );
    expect(answers.filter((answer) => answer.status === 403)).toHaveLength(5);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(7);
  });
});

describe("worlds and origins", () => {
  test("a test key cannot revoke a live key; a live key revokes its own world's", async () => {
    const byTest = await request(world.app)
      .delete(`/v1/api_keys/${world.shop.liveKeyId}`)
      .set("Authorization", `Bearer ${world.shop.testKey}`);
    expect(byTest.status).toBe(404);
    await request(world.app).get("/v1/me").set("Authorization", `Bearer ${world.shop.liveKey}`).expect(200);
  });

  test("the session Origin check compares the scheme: an http page of the https host is refused", async () => {
    const secure = testApp({
      database: world.db.database,
      config: testConfig(world.db.url, { PUBLIC_BASE_URL: "https://pos.example.com" }),
    });
    const session = await request(secure)
      .post("/v1/session")
      .set("Origin", "https://pos.example.com")
      .send({ email: world.shop.email, password: PASSWORD })
      .expect(201);
    const cookie = String(session.headers["set-cookie"]).split(";")[0] ?? "";
    const send = (origin: string) =>
      request(secure)
        .post("/v1/api_keys")
        .set("Host", "pos.example.com")
        .set("Cookie", cookie)
        .set("Pos-Csrf-Token", session.body.csrf_token)
        .set("Origin", origin)
        .send({ livemode: false });
    expect(codeOf(await send("http://pos.example.com"))).toEqual([403, "origin_invalid"]);
    expect((await send("https://pos.example.com")).status).toBe(201);
  });
});

describe("audit names the actor as it really is", () => {
  test("a device session's opening is the device's; webhook endpoint changes are the changer's, each by name", async () => {
    const till = await openTill(world.app, world.owner, "Front counter");
    const created = await request(world.app)
      .post("/v1/webhook_endpoints")
      .set("Authorization", `Bearer ${world.shop.testKey}`)
      .send({ url: "http://127.0.0.1:9/hooks" })
      .expect(201);
    await world.owner
      .send("post", `/v1/webhook_endpoints/${created.body.id}/roll_secret`)
      .send({ expires_in_seconds: 0 })
      .expect(200);
    await world.owner.send("delete", `/v1/webhook_endpoints/${created.body.id}`).expect(200);
    const entries = (await world.owner.send("get", "/v1/audit_log?limit=100").expect(200)).body.data as {
      action: string;
      actor: { type: string; id: string; name: string | null };
      target: { id: string } | null;
    }[];
    const of = (action: string) => entries.find((entry) => entry.action === action);
    // Each actor by the name a person knows (the audit log page shows it, not the raw id).
    expect(of("session.device_opened")).toMatchObject({
      actor: { type: "till_user", id: till.deviceId, name: "Front counter" },
    });
    expect(of("webhook_endpoint.created")).toMatchObject({
      actor: { type: "api_key", name: `API key …${world.shop.testKey.slice(-4)}` },
      target: { id: created.body.id },
    });
    expect(of("webhook_endpoint.secret_rolled")).toMatchObject({
      actor: { type: "dashboard_user", name: world.shop.email },
    });
    expect(of("webhook_endpoint.deactivated")).toMatchObject({
      actor: { type: "dashboard_user", name: world.shop.email },
    });
  });
});
