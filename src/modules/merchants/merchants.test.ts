import { execFile } from "node:child_process";
import { promisify } from "node:util";
import request from "supertest";
import { z } from "zod";
import { TEST_ADMIN_TOKEN, testApp, testConfig } from "../../../tests/support/app.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/database.ts";
import { sql } from "../../platform/db/pool.ts";

const run = promisify(execFile);
let db: TestDatabase;
let app: ReturnType<typeof testApp>;
const admin = `Bearer ${TEST_ADMIN_TOKEN}`;

beforeAll(async () => {
  db = await createTestDatabase();
  app = testApp({ database: db.database, config: testConfig(db.url) });
});
afterAll(() => db.close());

async function createMerchant(body: Record<string, unknown> = {}) {
  const response = await request(app)
    .post("/admin/v1/merchants")
    .set("Authorization", admin)
    .send({ name: "Corner Shop", email: `owner${Math.random()}@example.com`, password: "long enough pw", ...body });
  expect(response.status).toBe(201);
  return response.body;
}

describe("operator API", () => {
  test("creates a merchant with its keys shown once and stored only as hashes", async () => {
    const created = await createMerchant({
      type: "agent",
      fee_bps: 250,
      fee_fixed_cents: 5,
      payout_msisdn: "263771111111",
      payout_verified: true,
    });
    expect(created).toMatchObject({
      object: "merchant",
      name: "Corner Shop",
      type: "agent",
      status: "active",
      fee_bps: 250,
      fee_fixed_cents: 5,
      payout_destination: { msisdn: "263771111111", verified: true },
    });
    expect(created.test_secret_key).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
    expect(created.live_secret_key).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
    expect(created).not.toHaveProperty("password");

    const stored = await db.database.any(sql.type(z.object({ row: z.string() }))`
      SELECT row_to_json(k)::text AS row FROM api_keys k WHERE merchant_id = ${created.id}`);
    expect(stored).toHaveLength(2);
    for (const { row } of stored) {
      expect(row).not.toContain(created.test_secret_key.slice(8));
      expect(row).not.toContain(created.live_secret_key.slice(8));
    }
    const passwordHash = await db.database.oneFirst(sql.type(z.object({ password_hash: z.string() }))`
      SELECT password_hash FROM dashboard_users WHERE merchant_id = ${created.id}`);
    expect(passwordHash).toMatch(/^scrypt\$/);
    expect(passwordHash).not.toContain("long enough pw");

    const me = await request(app).get("/v1/me").set("Authorization", `Bearer ${created.live_secret_key}`);
    expect(me.body).toMatchObject({ id: created.id, livemode: true, type: "agent" });
  });

  test("a duplicate email is 409 email_taken and creates nothing", async () => {
    const email = `dup${Math.random()}@example.com`;
    await createMerchant({ email });
    const before = await db.database.oneFirst(
      sql.type(z.object({ count: z.number() }))`SELECT count(*)::int AS count FROM merchants`,
    );
    const response = await request(app)
      .post("/admin/v1/merchants")
      .set("Authorization", admin)
      .send({ name: "Again", email, password: "long enough pw" });
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe("email_taken");
    const after = await db.database.oneFirst(
      sql.type(z.object({ count: z.number() }))`SELECT count(*)::int AS count FROM merchants`,
    );
    expect(after).toBe(before);
  });

  test("validates the body", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ email: "a@example.com", password: "long enough pw" }, "parameter_missing"],
      [{ name: "X", email: "not-an-email", password: "long enough pw" }, "parameter_invalid"],
      [{ name: "X", email: "b@example.com", password: "short" }, "parameter_invalid"],
      [{ name: "X", email: "c@example.com", password: "long enough pw", status: "closed" }, "parameter_invalid"],
      [
        { name: "X", email: "d@example.com", password: "long enough pw", payout_msisdn: "0771234567" },
        "invalid_msisdn",
      ],
      [{ name: "X", email: "e@example.com", password: "long enough pw", fee_bps: 1.5 }, "parameter_invalid"],
    ];
    for (const [body, code] of cases) {
      const response = await request(app).post("/admin/v1/merchants").set("Authorization", admin).send(body);
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ type: "invalid_request", code });
    }
  });

  test("status, keys and payout destination", async () => {
    const created = await createMerchant();
    const suspended = await request(app)
      .post(`/admin/v1/merchants/${created.id}/status`)
      .set("Authorization", admin)
      .send({ status: "suspended" });
    expect(suspended.body.status).toBe("suspended");
    await request(app)
      .post(`/admin/v1/merchants/${created.id}/status`)
      .set("Authorization", admin)
      .send({ status: "active" })
      .expect(200);

    const minted = await request(app)
      .post(`/admin/v1/merchants/${created.id}/keys`)
      .set("Authorization", admin)
      .send({ mode: "live" });
    expect(minted.status).toBe(201);
    expect(minted.body).toMatchObject({ object: "api_key", livemode: true, revoked_at: null });
    expect(minted.body.secret_key).toMatch(/^sk_live_/);
    expect(minted.body.last4).toBe(minted.body.secret_key.slice(-4));
    await request(app).get("/v1/me").set("Authorization", `Bearer ${minted.body.secret_key}`).expect(200);

    const list = await request(app).get(`/admin/v1/merchants/${created.id}/keys`).set("Authorization", admin);
    expect(list.body.data).toHaveLength(3);
    expect(JSON.stringify(list.body)).not.toContain("secret_key");

    const revoked = await request(app)
      .delete(`/admin/v1/merchants/${created.id}/keys/${minted.body.id}`)
      .set("Authorization", admin);
    expect(revoked.body.revoked_at).toEqual(expect.any(String));
    await request(app).get("/v1/me").set("Authorization", `Bearer ${minted.body.secret_key}`).expect(401);
    const otherMerchant = await createMerchant();
    await request(app)
      .delete(`/admin/v1/merchants/${otherMerchant.id}/keys/${minted.body.id}`)
      .set("Authorization", admin)
      .expect(404);

    const destination = await request(app)
      .post(`/admin/v1/merchants/${created.id}/payout_destination`)
      .set("Authorization", admin)
      .send({ msisdn: "263770000000", verified: true });
    expect(destination.body.payout_destination).toEqual({ msisdn: "263770000000", verified: true });
    const me = await request(app).get("/v1/me").set("Authorization", `Bearer ${created.test_secret_key}`);
    expect(me.body.payout_destination).toEqual({ msisdn: "263770000000", verified: true });
  });

  test("needs the operator token, compared exactly; disabled without one", async () => {
    expect((await request(app).get("/admin/v1/merchants/x")).status).toBe(401);
    const wrong = await request(app).get("/admin/v1/merchants/x").set("Authorization", `${admin}x`);
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toMatchObject({ type: "auth_error", code: "invalid_admin_token" });
    const disabled = testApp({ database: db.database, config: testConfig(db.url, { ADMIN_TOKEN: "" }) });
    const response = await request(disabled).get("/admin/v1/merchants/x").set("Authorization", admin);
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe("admin_api_disabled");
  });
});

describe("operator CLI", () => {
  const cli = (...args: string[]) =>
    run(process.execPath, ["services/admin/main.ts", ...args], {
      env: { PATH: process.env.PATH, DATABASE_URL: db.url, LOG_LEVEL: "silent" },
    });

  test("creates a merchant, mints and revokes a key through the same service functions", async () => {
    const created = JSON.parse(
      (
        await cli(
          "create-merchant",
          "--name",
          "Cli Shop",
          "--email",
          "cli@example.com",
          "--password",
          "long enough pw",
          "--fee-bps",
          "120",
          "--timezone",
          "Europe/London",
        )
      ).stdout,
    );
    expect(created.test_secret_key).toMatch(/^sk_test_/);
    expect(created.timezone).toBe("Europe/London");
    const me = await request(app).get("/v1/me").set("Authorization", `Bearer ${created.test_secret_key}`).expect(200);
    expect(me.body.timezone).toBe("Europe/London");
    const moved = JSON.parse(
      (await cli("set-timezone", "--merchant", created.id, "--timezone", "America/New_York")).stdout,
    );
    expect(moved.timezone).toBe("America/New_York");
    const viaApi = await request(app)
      .post(`/admin/v1/merchants/${created.id}/timezone`)
      .set("Authorization", `Bearer ${TEST_ADMIN_TOKEN}`)
      .send({ timezone: "Africa/Harare" });
    expect(viaApi.status).toBe(200);
    expect(viaApi.body.timezone).toBe("Africa/Harare");
    const refused = await request(app)
      .post(`/admin/v1/merchants/${created.id}/timezone`)
      .set("Authorization", `Bearer ${TEST_ADMIN_TOKEN}`)
      .send({ timezone: "Mars/Olympus_Mons" });
    expect(refused.status).toBe(400);
    expect(refused.body.error.type).toBe("invalid_request");
    const after = await request(app).get("/v1/me").set("Authorization", `Bearer ${created.test_secret_key}`);
    expect(after.body.timezone).toBe("Africa/Harare");

    const key = JSON.parse((await cli("create-key", "--merchant", created.id, "--mode", "test")).stdout);
    expect(key.secret_key).toMatch(/^sk_test_/);
    await cli("revoke-key", "--merchant", created.id, "--key", key.id);
    await request(app).get("/v1/me").set("Authorization", `Bearer ${key.secret_key}`).expect(401);

    const suspended = JSON.parse((await cli("set-status", "--merchant", created.id, "--status", "suspended")).stdout);
    expect(suspended.status).toBe("suspended");
  });

  test("reports errors as the envelope and exits 1", async () => {
    await expect(cli("set-status", "--merchant", "mch_missing", "--status", "active")).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('"code":"resource_missing"'),
    });
    await expect(cli("create-merchant", "--name", "X")).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("invalid_request"),
    });
  });
});
