import request from "supertest";
import { z } from "zod";
import { testApp, testConfig } from "../../../tests/support/app.ts";
import { newMerchant } from "../../../tests/support/factories.ts";
import { CURRENT_HASH_PREFIX, legacyPasswordHash } from "../../../tests/support/passwords.ts";
import { openTill, PASSWORD, sender, sessionsTestWorld, signIn, TEST_ORIGIN } from "../../../tests/support/sessions.ts";
import { sql } from "../../platform/db/pool.ts";

/** Signing in and staying signed in: the cookie, CSRF and Origin, how a session ends, brute force. */

const world = sessionsTestWorld();

describe("sign-in", () => {
  test("answers a session with an HttpOnly, SameSite=Lax cookie; the session reaches /v1 in the chosen world", async () => {
    const response = await request(world.app)
      .post("/v1/session")
      .send({ email: world.shop.email, password: PASSWORD })
      .expect(201);
    const cookie = String(response.headers["set-cookie"]);
    expect(cookie).toMatch(/^pos_session=[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=43200$/);
    expect(response.body).toMatchObject({
      object: "session",
      kind: "dashboard",
      user: { email: world.shop.email },
      merchant: { id: world.shop.id, status: "active" },
    });
    const session = sender(world.app, { cookie: cookie.split(";")[0] ?? "", csrf: response.body.csrf_token });
    expect((await session("get", "/v1/me").expect(200)).body).toMatchObject({ id: world.shop.id, livemode: false });
    expect((await session("get", "/v1/me", { world: "live" }).expect(200)).body.livemode).toBe(true);
    // The session's request counts against the merchant's rate limit like a key's.
    expect((await session("get", "/v1/me")).headers["ratelimit-limit"]).toBe("60");
    // The token is stored only as its hash.
    const token = (cookie.split(";")[0] ?? "").split("=")[1] ?? "";
    expect(
      await world.count(
        sql.unsafe`SELECT count(*) FROM sessions WHERE token_hash = sha256(convert_to(${token}, 'UTF8'))`,
      ),
    ).toBe(1);
    expect(
      await world.count(
        sql.unsafe`SELECT count(*) FROM audit_log WHERE merchant_id = ${world.shop.id} AND action = 'session.signed_in'`,
      ),
    ).toBeGreaterThan(0);
  });

  test("fixation: every sign-in makes a new token; a token the browser presented is revoked, never adopted", async () => {
    const first = await signIn(world.app, { email: world.shop.email, password: PASSWORD });
    const planted = "A".repeat(43);
    const second = await request(world.app)
      .post("/v1/session")
      .set("Cookie", `pos_session=${first.token}; other=planted; pos_session_x=${planted}`)
      .send({ email: world.shop.email, password: PASSWORD })
      .expect(201);
    const secondToken = String(second.headers["set-cookie"]).split(";")[0]?.split("=")[1];
    expect(secondToken).not.toBe(first.token);
    await first.send("get", "/v1/me").expect(401);
    const plantedOnly = await request(world.app)
      .post("/v1/session")
      .set("Cookie", `pos_session=${planted}`)
      .send({ email: world.shop.email, password: PASSWORD })
      .expect(201);
    expect(String(plantedOnly.headers["set-cookie"])).not.toContain(planted);
    await request(world.app).get("/v1/me").set("Cookie", `pos_session=${planted}`).expect(401);
  });

  test("an unknown email and a wrong password get the same answer", async () => {
    const unknown = await request(world.app)
      .post("/v1/session")
      .send({ email: "nobody@example.com", password: PASSWORD });
    const wrong = await request(world.app)
      .post("/v1/session")
      .send({ email: world.shop.email, password: "not the password" });
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(unknown.status);
    expect(wrong.body).toEqual(unknown.body);
    expect(unknown.body.error.code).toBe("invalid_credentials");
    expect(
      Object.keys(wrong.headers)
        .filter((name) => name !== "date" && name !== "x-request-id")
        .sort(),
    ).toEqual(
      Object.keys(unknown.headers)
        .filter((name) => name !== "date" && name !== "x-request-id")
        .sort(),
    );
  });

  test("a password hashed with older parameters signs in and is stored again with today's; a wrong one changes nothing", async () => {
    const user = await newMerchant(world.db.database);
    const legacy = legacyPasswordHash(PASSWORD);
    await world.db.database.query(
      sql.unsafe`UPDATE dashboard_users SET password_hash = ${legacy} WHERE merchant_id = ${user.id}`,
    );
    const storedHash = () =>
      world.db.database.oneFirst(sql.type(z.object({ password_hash: z.string() }))`
        SELECT password_hash FROM dashboard_users WHERE merchant_id = ${user.id}`);
    await request(world.app).post("/v1/session").send({ email: user.email, password: "not the password" }).expect(401);
    expect(await storedHash()).toBe(legacy);
    // The email is matched whatever its case.
    await signIn(world.app, { email: user.email.toUpperCase(), password: PASSWORD });
    const upgraded = await storedHash();
    expect(upgraded.startsWith(CURRENT_HASH_PREFIX)).toBe(true);
    expect(upgraded).not.toContain(PASSWORD);
    await signIn(world.app, { email: user.email, password: PASSWORD });
    expect(await storedHash()).toBe(upgraded);
    await request(world.app).post("/v1/session").send({ email: user.email, password: "not the password" }).expect(401);
  });

  test("a sign-in form on another origin is refused", async () => {
    const response = await request(world.app)
      .post("/v1/session")
      .set("Origin", "https://evil.example")
      .send({ email: world.shop.email, password: PASSWORD });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe("origin_invalid");
  });
});

describe("CSRF and Origin", () => {
  test("a state-changing session request without the CSRF token, with a wrong one, or from another origin changes nothing", async () => {
    const session = await signIn(world.app, { email: world.shop.email, password: PASSWORD });
    const product = { name: "Bread", price_cents: 120, currency: "USD" };
    const attempts = [
      request(world.app).post("/v1/products").set("Cookie", session.cookie).set("Origin", TEST_ORIGIN).send(product),
      request(world.app)
        .post("/v1/products")
        .set("Cookie", session.cookie)
        .set("Origin", TEST_ORIGIN)
        .set("Pos-Csrf-Token", "wrong")
        .send(product),
      request(world.app)
        .post("/v1/products")
        .set("Cookie", session.cookie)
        .set("Origin", "https://evil.example")
        .set("Pos-Csrf-Token", session.csrf)
        .send(product),
      request(world.app)
        .post("/v1/products")
        .set("Cookie", session.cookie)
        .set("Pos-Csrf-Token", session.csrf)
        .send(product),
      request(world.app).delete(`/v1/sessions/${session.id}`).set("Cookie", session.cookie).set("Origin", TEST_ORIGIN),
    ];
    const responses = await Promise.all(attempts);
    expect(responses.map((response) => [response.status, response.body.error.code])).toEqual([
      [403, "csrf_token_invalid"],
      [403, "csrf_token_invalid"],
      [403, "origin_invalid"],
      [403, "origin_invalid"],
      [403, "csrf_token_invalid"],
    ]);
    expect(await world.count(sql.unsafe`SELECT count(*) FROM products WHERE merchant_id = ${world.shop.id}`)).toBe(0);
    await session.send("get", "/v1/me").expect(200);

    const created = await session.send("post", "/v1/products").send(product).expect(201);
    // Made from a session: the dashboard user is the actor.
    expect(
      await world.count(
        sql.unsafe`SELECT count(*) FROM products WHERE merchant_id = ${world.shop.id} AND id = ${created.body.id}`,
      ),
    ).toBe(1);
  });
});

describe("session end", () => {
  test("idle, absolute, revoked and signed-out sessions are refused", async () => {
    const [idle, absolute, revoked, signedOut, other] = await Promise.all(
      [1, 2, 3, 4, 5].map(() => signIn(world.app, { email: world.shop.email, password: PASSWORD })),
    );
    if (!idle || !absolute || !revoked || !signedOut || !other) throw new Error("sign-in failed");
    // Time is moved by moving the sessions' own timestamps: 31 minutes idle, and 1 s past the absolute end.
    await world.db.database.query(sql.unsafe`
      UPDATE sessions SET last_seen_at = now() - interval '31 minutes' WHERE id = ${idle.id}`);
    await world.db.database.query(sql.unsafe`
      UPDATE sessions SET expires_at = now() - interval '1 second' WHERE id = ${absolute.id}`);
    await other.send("delete", `/v1/sessions/${revoked.id}`).expect(200);
    await signedOut.send("delete", "/v1/session").expect(200);

    for (const ended of [idle, absolute, revoked, signedOut]) {
      const response = await ended.send("get", "/v1/me");
      expect([response.status, response.body.error.code]).toEqual([401, "session_expired"]);
    }
    // A session 29 minutes idle is alive, and the request moves its idle end.
    await world.db.database.query(sql.unsafe`
      UPDATE sessions SET last_seen_at = now() - interval '29 minutes' WHERE id = ${other.id}`);
    await other.send("get", "/v1/me").expect(200);
    const listed = await other.send("get", "/v1/sessions").expect(200);
    const ids = listed.body.data.map((item: { id: string }) => item.id);
    expect(ids).toContain(other.id);
    expect(ids).not.toEqual(expect.arrayContaining([idle.id, absolute.id, revoked.id, signedOut.id]));
    expect(listed.body.data.find((item: { id: string }) => item.id === other.id)).toMatchObject({ current: true });
  });

  test("a till session has no idle end, only the absolute one", async () => {
    const till = await openTill(world.app, await signIn(world.app, { email: world.shop.email, password: PASSWORD }));
    await world.db.database.query(sql.unsafe`
      UPDATE sessions SET last_seen_at = now() - interval '5 hours' WHERE id = ${till.id}`);
    await till.send("get", "/v1/session").expect(200);
    // A shift: 12 hours from sign-in, whatever the use; a dashboard session's idle end is not there.
    const current = await till.send("get", "/v1/session").expect(200);
    expect(current.body).toMatchObject({ kind: "till", idle_expires_at: null });
    const lifetimeMs = Date.parse(current.body.expires_at) - Date.parse(current.body.created_at);
    expect(lifetimeMs).toBe(12 * 3600 * 1000);
    await world.db.database.query(sql.unsafe`
      UPDATE sessions SET expires_at = now() - interval '1 second' WHERE id = ${till.id}`);
    const ended = await till.send("get", "/v1/session");
    expect([ended.status, ended.body.error.code]).toEqual([401, "session_expired"]);
  });

  test("a password change needs the current password and signs the user's other sessions out", async () => {
    const owner = await newMerchant(world.db.database);
    const [current, elsewhere] = await Promise.all(
      [1, 2].map(() => signIn(world.app, { email: owner.email, password: PASSWORD })),
    );
    if (!current || !elsewhere) throw new Error("sign-in failed");
    const wrong = await current
      .send("post", "/v1/session/password")
      .send({ current_password: "not it", new_password: "a much better password" });
    // The session is still good: only the password typed again was not (not a failed sign-in).
    expect([wrong.status, wrong.body.error.code]).toEqual([403, "invalid_password"]);
    await current
      .send("post", "/v1/session/password")
      .send({ current_password: PASSWORD, new_password: "a much better password" })
      .expect(200);
    await elsewhere.send("get", "/v1/me").expect(401);
    await current.send("get", "/v1/me").expect(200);
    await request(world.app).post("/v1/session").send({ email: owner.email, password: PASSWORD }).expect(401);
    await signIn(world.app, { email: owner.email, password: "a much better password" });
    const audit = await current.send("get", "/v1/audit_log").expect(200);
    expect(audit.body.data.map((entry: { action: string }) => entry.action)).toEqual(
      expect.arrayContaining(["user.password_changed", "user.password_change_failed", "session.signed_in"]),
    );
  });
});

describe("brute force", () => {
  test("repeated failures for an account answer 429 with Retry-After, even for the right password", async () => {
    const limited = testApp({
      database: world.db.database,
      config: testConfig(world.db.url, { SIGN_IN_FAILURES_PER_ACCOUNT: "3" }),
    });
    const victim = await newMerchant(world.db.database);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await request(limited).post("/v1/session").send({ email: victim.email, password: "guess" }).expect(401);
    }
    const locked = await request(limited).post("/v1/session").send({ email: victim.email, password: PASSWORD });
    expect(locked.status).toBe(429);
    expect(locked.body.error.code).toBe("too_many_sign_in_attempts");
    expect(Number(locked.headers["retry-after"])).toBeGreaterThan(800);
    // An unknown email is limited the same way, so the limit does not tell which emails exist.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await request(limited).post("/v1/session").send({ email: "ghost@example.com", password: "guess" }).expect(401);
    }
    expect(
      (await request(limited).post("/v1/session").send({ email: "ghost@example.com", password: "x" })).status,
    ).toBe(429);
    // When the failures leave the window, the right password signs in again.
    await world.db.database.query(sql.unsafe`
      UPDATE auth_attempts SET window_started_at = window_started_at - interval '16 minutes'
      WHERE subject = ${`account:${victim.email}`}`);
    await request(limited).post("/v1/session").send({ email: victim.email, password: PASSWORD }).expect(201);
  });

  test("repeated failures from one address across accounts answer 429", async () => {
    await world.db.database.query(sql.unsafe`DELETE FROM auth_attempts`);
    const limited = testApp({
      database: world.db.database,
      config: testConfig(world.db.url, { SIGN_IN_FAILURES_PER_ADDRESS: "4" }),
    });
    for (let attempt = 0; attempt < 4; attempt += 1) {
      await request(limited)
        .post("/v1/session")
        .send({ email: `user${attempt}@example.com`, password: "x" })
        .expect(401);
    }
    const locked = await request(limited).post("/v1/session").send({ email: world.shop.email, password: PASSWORD });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers["retry-after"])).toBeGreaterThan(0);
    await world.db.database.query(sql.unsafe`DELETE FROM auth_attempts`);
  });

  test("behind a proxy (TRUST_PROXY_HOPS=1) the per-address count keys on X-Forwarded-For's client", async () => {
    await world.db.database.query(sql.unsafe`DELETE FROM auth_attempts`);
    const proxied = testApp({
      database: world.db.database,
      config: testConfig(world.db.url, { SIGN_IN_FAILURES_PER_ADDRESS: "4", TRUST_PROXY_HOPS: "1" }),
    });
    const from = (address: string) => ({ "X-Forwarded-For": address });
    for (let attempt = 0; attempt < 4; attempt += 1) {
      await request(proxied)
        .post("/v1/session")
        .set(from("203.0.113.7"))
        .send({ email: `proxied${attempt}@example.com`, password: "x" })
        .expect(401);
    }
    const locked = await request(proxied)
      .post("/v1/session")
      .set(from("203.0.113.7"))
      .send({ email: world.shop.email, password: PASSWORD });
    expect(locked.status).toBe(429);
    // Another client behind the same proxy is not locked out with the first.
    await request(proxied)
      .post("/v1/session")
      .set(from("198.51.100.9"))
      .send({ email: world.shop.email, password: PASSWORD })
      .expect(201);
    await world.db.database.query(sql.unsafe`DELETE FROM auth_attempts`);
  });

  test("without TRUST_PROXY_HOPS a client cannot escape the per-address count by writing X-Forwarded-For", async () => {
    await world.db.database.query(sql.unsafe`DELETE FROM auth_attempts`);
    const direct = testApp({
      database: world.db.database,
      config: testConfig(world.db.url, { SIGN_IN_FAILURES_PER_ADDRESS: "4" }),
    });
    for (let attempt = 0; attempt < 4; attempt += 1) {
      await request(direct)
        .post("/v1/session")
        .set("X-Forwarded-For", `192.0.2.${attempt + 1}`)
        .send({ email: `spoofed${attempt}@example.com`, password: "x" })
        .expect(401);
    }
    const locked = await request(direct)
      .post("/v1/session")
      .set("X-Forwarded-For", "192.0.2.200")
      .send({ email: world.shop.email, password: PASSWORD });
    expect(locked.status).toBe(429);
    await world.db.database.query(sql.unsafe`DELETE FROM auth_attempts`);
  });
});
