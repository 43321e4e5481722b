import request from "supertest";
import { fundMerchant, newMerchant } from "../../../tests/support/factories.ts";
import { PASSWORD, sessionsTestWorld, signIn } from "../../../tests/support/sessions.ts";
import { sql } from "../../platform/db/pool.ts";

/** What a session reaches: its merchant and world only, keys from the dashboard, step-up. */

const world = sessionsTestWorld();

describe("isolation", () => {
  test("a session of merchant A never reaches merchant B's objects, nor the other world's", async () => {
    const other = await newMerchant(world.db.database);
    const theirs = await request(world.app)
      .post("/v1/products")
      .set("Authorization", `Bearer ${other.testKey}`)
      .send({ name: "Theirs", price_cents: 100, currency: "USD" })
      .expect(201);
    const mine = await newMerchant(world.db.database);
    await fundMerchant(world.db.database, { merchantId: mine.id, livemode: true, currency: "USD", amountCents: 5000 });
    const session = await signIn(world.app, { email: mine.email, password: PASSWORD });

    await session.send("get", `/v1/products/${theirs.body.id}`).expect(404);
    expect((await session.send("get", "/v1/products").expect(200)).body.data).toEqual([]);
    const usd = (body: { available: { currency: string; amount_cents: number }[] }) =>
      body.available.find((entry) => entry.currency === "USD")?.amount_cents;
    expect(usd((await session.send("get", "/v1/balance").expect(200)).body)).toBe(0);
    expect(usd((await session.send("get", "/v1/balance", { world: "live" }).expect(200)).body)).toBe(5000);
    // A Bearer key still decides for itself, cookie or not.
    const withKey = await request(world.app)
      .get("/v1/me")
      .set("Cookie", session.cookie)
      .set("Authorization", `Bearer ${other.testKey}`)
      .expect(200);
    expect(withKey.body.id).toBe(other.id);
  });

  test("live is refused with merchant_inactive while the merchant is not active; test works", async () => {
    const pending = await newMerchant(world.db.database, { status: "pending" });
    const session = await signIn(world.app, { email: pending.email, password: PASSWORD });
    await session.send("get", "/v1/me").expect(200);
    const live = await session.send("get", "/v1/me", { world: "live" });
    expect([live.status, live.body.error.code]).toEqual([403, "merchant_inactive"]);
  });
});

describe("keys from the dashboard", () => {
  test("a live key needs a step-up within 5 minutes; its secret is shown once and works against /v1", async () => {
    const owner = await newMerchant(world.db.database);
    const session = await signIn(world.app, { email: owner.email, password: PASSWORD });
    // The sign-in itself counts as entering the password; 6 minutes later it no longer does.
    await world.db.database.query(sql.unsafe`
      UPDATE sessions SET password_verified_at = now() - interval '6 minutes' WHERE id = ${session.id}`);
    const refused = await session.send("post", "/v1/api_keys").send({ livemode: true });
    expect([refused.status, refused.body.error.code]).toEqual([403, "step_up_required"]);
    expect(await world.count(sql.unsafe`SELECT count(*) FROM api_keys WHERE merchant_id = ${owner.id}`)).toBe(2);
    await session.send("post", "/v1/api_keys").send({ livemode: false }).expect(201);

    const wrong = await session.send("post", "/v1/session/step_up").send({ password: "wrong" });
    expect([wrong.status, wrong.body.error.code]).toEqual([403, "invalid_password"]);
    await session.send("post", "/v1/session/step_up").send({ password: PASSWORD }).expect(200);
    const minted = await session.send("post", "/v1/api_keys").send({ livemode: true }).expect(201);
    expect(minted.body.secret_key).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
    expect(minted.body).toMatchObject({ livemode: true, prefix: "sk_live_", last4: minted.body.secret_key.slice(-4) });
    expect(minted.headers["cache-control"]).toBe("no-store");
    const me = await request(world.app)
      .get("/v1/me")
      .set("Authorization", `Bearer ${minted.body.secret_key}`)
      .expect(200);
    expect(me.body.livemode).toBe(true);
    // Minting is session-only: a key cannot mint keys.
    await request(world.app)
      .post("/v1/api_keys")
      .set("Authorization", `Bearer ${owner.liveKey}`)
      .send({ livemode: true })
      .expect(401);
    // The secret is nowhere after its answer: not in the audit log, not in the session answer.
    const audit = await session.send("get", "/v1/audit_log").expect(200);
    expect(JSON.stringify(audit.body)).not.toContain(minted.body.secret_key);
    expect(audit.body.data[0]).toMatchObject({
      action: "api_key.created",
      livemode: true,
      target: { id: minted.body.id },
    });
    expect(JSON.stringify((await session.send("get", "/v1/session").expect(200)).body)).not.toContain(
      minted.body.secret_key,
    );
  });

  test("rolling with an overlap: both secrets work until the old one's end, then only the new one", async () => {
    const owner = await newMerchant(world.db.database);
    const session = await signIn(world.app, { email: owner.email, password: PASSWORD });
    const rolled = await session
      .send("post", `/v1/api_keys/${owner.testKeyId}/roll`)
      .send({ expires_in_seconds: 3600 })
      .expect(200);
    const newKey = rolled.body.key.secret_key as string;
    expect(rolled.body.previous.expires_at).not.toBeNull();
    expect(rolled.body.previous.secret_key).toBeUndefined();
    for (const key of [owner.testKey, newKey]) {
      await request(world.app).get("/v1/me").set("Authorization", `Bearer ${key}`).expect(200);
    }
    await world.db.database.query(sql.unsafe`
      UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = ${owner.testKeyId}`);
    const old = await request(world.app).get("/v1/me").set("Authorization", `Bearer ${owner.testKey}`);
    expect([old.status, old.body.error.code]).toEqual([401, "api_key_revoked"]);
    await request(world.app).get("/v1/me").set("Authorization", `Bearer ${newKey}`).expect(200);
    // An ended key cannot roll again; revoking the new one ends it at once.
    await session.send("post", `/v1/api_keys/${owner.testKeyId}/roll`).send({ expires_in_seconds: 0 }).expect(404);
    await session.send("delete", `/v1/api_keys/${rolled.body.key.id}`).expect(200);
    await request(world.app).get("/v1/me").set("Authorization", `Bearer ${newKey}`).expect(401);
  });

  test("another merchant's key cannot be rolled or revoked", async () => {
    const other = await newMerchant(world.db.database);
    const session = await signIn(world.app, { email: world.shop.email, password: PASSWORD });
    await session.send("post", `/v1/api_keys/${other.testKeyId}/roll`).send({ expires_in_seconds: 0 }).expect(404);
    await session.send("delete", `/v1/api_keys/${other.testKeyId}`).expect(404);
    await request(world.app).get("/v1/me").set("Authorization", `Bearer ${other.testKey}`).expect(200);
  });
});

describe("step-up beyond keys", () => {
  test("a webhook secret roll and a payout from a session need the password within 5 minutes; a key's do not", async () => {
    const owner = await newMerchant(world.db.database, { payout_msisdn: "263771234567", payout_verified: true });
    await fundMerchant(world.db.database, {
      merchantId: owner.id,
      livemode: false,
      currency: "USD",
      amountCents: 5000,
    });
    const session = await signIn(world.app, { email: owner.email, password: PASSWORD });
    await world.db.database.query(sql.unsafe`
      UPDATE sessions SET password_verified_at = now() - interval '6 minutes' WHERE id = ${session.id}`);
    const endpoint = await session
      .send("post", "/v1/webhook_endpoints")
      .send({ url: "http://127.0.0.1:9/hooks" })
      .expect(201);
    const payoutsOfOwner = sql.unsafe`SELECT count(*) FROM payouts WHERE merchant_id = ${owner.id}`;

    const roll = await session.send("post", `/v1/webhook_endpoints/${endpoint.body.id}/roll_secret`).send({});
    expect([roll.status, roll.body.error?.code]).toEqual([403, "step_up_required"]);
    const payout = await session
      .send("post", "/v1/payouts")
      .set("Idempotency-Key", "payout-without-step-up")
      .send({ amount_cents: 1000, currency: "USD" });
    expect([payout.status, payout.body.error?.code]).toEqual([403, "step_up_required"]);
    expect(await world.count(payoutsOfOwner)).toBe(0);

    await session.send("post", "/v1/session/step_up").send({ password: PASSWORD }).expect(200);
    const rolled = await session.send("post", `/v1/webhook_endpoints/${endpoint.body.id}/roll_secret`).send({});
    expect(rolled.status).toBe(200);
    expect(rolled.body.secret).toMatch(/^whsec_/);
    await session
      .send("post", "/v1/payouts")
      .set("Idempotency-Key", "payout-after-step-up")
      .send({ amount_cents: 1000, currency: "USD" })
      .expect(201);
    // The merchant's server has no password to enter: its key rolls and pays out without a step-up.
    await request(world.app)
      .post(`/v1/webhook_endpoints/${endpoint.body.id}/roll_secret`)
      .set("Authorization", `Bearer ${owner.testKey}`)
      .send({})
      .expect(200);
    await request(world.app)
      .post("/v1/payouts")
      .set("Authorization", `Bearer ${owner.testKey}`)
      .set("Idempotency-Key", "payout-by-key")
      .send({ amount_cents: 1000, currency: "USD" })
      .expect(201);
    expect(await world.count(payoutsOfOwner)).toBe(2);
  });
});
