import { randomUUID } from "node:crypto";
import request from "supertest";
import { z } from "zod";
import { testApp, testConfig } from "../../../tests/support/app.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/database.ts";
import { newMerchant, type TestMerchant } from "../../../tests/support/factories.ts";
import { CURRENT_HASH_PREFIX, legacyPasswordHash } from "../../../tests/support/passwords.ts";
import { openTill, sender, signIn, type TestSession } from "../../../tests/support/sessions.ts";
import { sql } from "../../platform/db/pool.ts";
import { PIN_ATTEMPTS_MAX } from "./schemas.ts";

let db: TestDatabase;
let app: ReturnType<typeof testApp>;
let shop: TestMerchant;
let owner: TestSession;
let till: TestSession & { deviceId: string };
const PASSWORD = "correct horse battery";

beforeAll(async () => {
  db = await createTestDatabase();
  app = testApp({ database: db.database, config: testConfig(db.url, { RATE_LIMIT_REQUESTS: "10000" }) });
});
beforeEach(async () => {
  shop = await newMerchant(db.database);
  owner = await signIn(app, { email: shop.email, password: PASSWORD });
  till = await openTill(app, owner);
});
afterAll(() => db.close());

async function createCashier(
  name: string,
  pin: string,
  role?: "cashier" | "manager",
): Promise<{ id: string; name: string }> {
  const response = await owner.send("post", "/v1/cashiers").send({ name, pin, role });
  expect(response.status).toBe(201);
  return response.body;
}

const switchIn = (session: TestSession, cashierId: string, pin: string) =>
  session.send("post", "/v1/session/cashier").send({ cashier_id: cashierId, pin });

const sell = (session: TestSession, body: Record<string, unknown> = {}) =>
  session
    .send("post", "/v1/sales")
    .set("Idempotency-Key", randomUUID())
    .send({ tender: "cash", items: [{ name: "Bread", qty: 1, unit_cents: 100 }], ...body });

describe("cashiers", () => {
  test("the owner creates cashiers; the PIN is stored hashed and never answered; a till or a key cannot create", async () => {
    const tendai = await createCashier("Tendai", "4821");
    expect(tendai).toEqual({
      id: expect.stringMatching(/^csh_/),
      object: "cashier",
      name: "Tendai",
      role: "cashier",
      status: "active",
      failed_pin_attempts: 0,
      locked_at: null,
      disabled_at: null,
      created_at: expect.any(String),
    });
    const stored = await db.database.oneFirst(sql.type(z.object({ pin_hash: z.string() }))`
      SELECT pin_hash FROM cashiers WHERE id = ${tendai.id}`);
    expect(stored).not.toContain("4821");
    expect(stored.length).toBeGreaterThan(40);
    const fromTill = await till.send("post", "/v1/cashiers").send({ name: "Mallory", pin: "1234" });
    expect([fromTill.status, fromTill.body.error.code]).toEqual([403, "principal_not_allowed"]);
    const fromKey = await request(app)
      .post("/v1/cashiers")
      .set("Authorization", `Bearer ${shop.testKey}`)
      .send({ name: "Mallory", pin: "1234" });
    expect(fromKey.status).toBe(401);
    for (const pin of ["123", "1234567", "12a4"]) {
      const refused = await owner.send("post", "/v1/cashiers").send({ name: "X", pin });
      expect([refused.status, refused.body.error.code]).toEqual([400, "parameter_invalid"]);
    }
    expect((await till.send("get", "/v1/cashiers")).body.data.map((row: { name: string }) => row.name)).toEqual([
      "Tendai",
    ]);
  });

  test("two cashiers on one till by PIN: sales, returns and shifts record who did them", async () => {
    const tendai = await createCashier("Tendai", "4821");
    const rudo = await createCashier("Rudo", "190734", "manager");
    expect((await switchIn(till, tendai.id, "4821")).status).toBe(200);
    const shift = await till
      .send("post", "/v1/shifts")
      .set("Idempotency-Key", randomUUID())
      .send({ till_id: till.deviceId });
    expect(shift.body.opened_by).toEqual({ type: "till_user", id: tendai.id });
    const first = await sell(till, { till_id: till.deviceId });
    expect(first.body.actor).toEqual({ type: "till_user", id: tendai.id });

    expect((await switchIn(till, rudo.id, "190734")).status).toBe(200);
    const second = await sell(till, { till_id: till.deviceId });
    expect(second.body.actor).toEqual({ type: "till_user", id: rudo.id });
    const returned = await till
      .send("post", `/v1/sales/${first.body.id}/returns`)
      .set("Idempotency-Key", randomUUID())
      .send({ till_id: till.deviceId, items: [{ line: 0, qty: 1 }] });
    expect(returned.body.sale_return.actor).toEqual({ type: "till_user", id: rudo.id });
    const closed = await till
      .send("post", `/v1/shifts/${shift.body.id}/close`)
      .set("Idempotency-Key", randomUUID())
      .send({ counted: [{ currency: "USD", amount_cents: 100 }] });
    expect(closed.body.closed_by).toEqual({ type: "till_user", id: rudo.id });

    // Nobody switched in, in a shop with cashiers: the till does not sell; signing out still works.
    expect((await till.send("delete", "/v1/session/cashier")).status).toBe(200);
    const nobody = await sell(till);
    expect([nobody.status, nobody.body.error.code]).toEqual([403, "cashier_required"]);
    expect((await till.send("delete", "/v1/session")).status).toBeLessThan(300);
    expect((await sell(till)).status).toBe(401);
  });

  test("PIN lockout: the fifth wrong PIN locks, the right PIN is then refused until the owner unlocks", async () => {
    const tendai = await createCashier("Tendai", "4821");
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      const wrong = await switchIn(till, tendai.id, "0000");
      expect([wrong.status, wrong.body.error.code]).toEqual([401, "invalid_pin"]);
    }
    const fifth = await switchIn(till, tendai.id, "0000");
    expect([fifth.status, fifth.body.error.code]).toEqual([403, "cashier_locked"]);
    const right = await switchIn(till, tendai.id, "4821");
    expect([right.status, right.body.error.code]).toEqual([403, "cashier_locked"]);
    const fromTill = await till.send("post", `/v1/cashiers/${tendai.id}/unlock`);
    expect(fromTill.status).toBe(403);
    const unlocked = await owner.send("post", `/v1/cashiers/${tendai.id}/unlock`);
    expect(unlocked.body).toMatchObject({ status: "active", failed_pin_attempts: 0 });
    expect((await switchIn(till, tendai.id, "4821")).status).toBe(200);
  });

  test("a PIN hashed with older parameters switches in and is stored again with today's; a wrong one changes nothing", async () => {
    const tendai = await createCashier("Tendai", "4821");
    const storedHash = () =>
      db.database.oneFirst(sql.type(z.object({ pin_hash: z.string() }))`
        SELECT pin_hash FROM cashiers WHERE id = ${tendai.id}`);
    expect((await storedHash()).startsWith(CURRENT_HASH_PREFIX)).toBe(true);
    const legacy = legacyPasswordHash("4821");
    await db.database.query(sql.unsafe`UPDATE cashiers SET pin_hash = ${legacy} WHERE id = ${tendai.id}`);
    expect((await switchIn(till, tendai.id, "4812")).status).toBe(401);
    expect(await storedHash()).toBe(legacy);
    expect((await switchIn(till, tendai.id, "4821")).status).toBe(200);
    const upgraded = await storedHash();
    expect(upgraded.startsWith(CURRENT_HASH_PREFIX)).toBe(true);
    expect((await switchIn(till, tendai.id, "4821")).status).toBe(200);
    expect(await storedHash()).toBe(upgraded);
    expect((await switchIn(till, tendai.id, "4812")).status).toBe(401);
  });

  test("concurrent wrong PINs are each counted once: ten at once lock the cashier after exactly four warnings", async () => {
    const tendai = await createCashier("Tendai", "4821");
    const answers = await Promise.all(Array.from({ length: 10 }, () => switchIn(till, tendai.id, "9999")));
    // Each counted wrong PIN gets its own count back (an atomic increment): exactly the first
    // PIN_ATTEMPTS_MAX - 1 are warned, the one reaching the limit and all later ones are told it is
    // locked. A lost update would give two requests the same count, so more than four warnings. A
    // request that read the cashier after the lock is refused without counting, so the stored count
    // lies between the limit and ten, depending on timing.
    const codes = answers.map((answer) => `${answer.status} ${answer.body.error.code}`).sort();
    expect(codes).toEqual([
      ...Array.from({ length: PIN_ATTEMPTS_MAX - 1 }, () => "401 invalid_pin"),
      ...Array.from({ length: 10 - (PIN_ATTEMPTS_MAX - 1) }, () => "403 cashier_locked"),
    ]);
    const row = (await owner.send("get", "/v1/cashiers")).body.data[0];
    expect(row.status).toBe("locked");
    expect(row.failed_pin_attempts).toBeGreaterThanOrEqual(PIN_ATTEMPTS_MAX);
    expect(row.failed_pin_attempts).toBeLessThanOrEqual(10);
  });

  test("a revoked till (device) session is refused at once; a disabled cashier stops acting at once", async () => {
    const tendai = await createCashier("Tendai", "4821");
    expect((await switchIn(till, tendai.id, "4821")).status).toBe(200);
    expect((await sell(till)).body.actor.id).toBe(tendai.id);
    await owner.send("post", `/v1/cashiers/${tendai.id}/disable`).expect(200);
    expect((await sell(till)).body.actor.id).not.toBe(tendai.id);
    const again = await switchIn(till, tendai.id, "4821");
    expect([again.status, again.body.error.code]).toEqual([403, "cashier_disabled"]);

    await owner.send("delete", `/v1/sessions/${till.id}`).expect(200);
    const refused = await sell(till);
    expect([refused.status, refused.body.error.code]).toEqual([401, "session_expired"]);
  });
});

describe("till devices", () => {
  const deviceSession = (deviceToken: string) =>
    request(app).post("/v1/session/device").send({ device_token: deviceToken });

  test("paired once by the owner; the device opens till sessions without a password; revoked → refused at once", async () => {
    const fromTill = await till.send("post", "/v1/till_devices").send({ name: "Counter 1" });
    expect([fromTill.status, fromTill.body.error.code]).toEqual([403, "principal_not_allowed"]);
    const paired = await owner.send("post", "/v1/till_devices").send({ name: "Counter 1" });
    expect(paired.status).toBe(201);
    expect(paired.body).toMatchObject({ object: "till_device", name: "Counter 1", status: "paired" });
    const deviceToken = paired.body.token as string;
    expect(deviceToken).toMatch(/^tdv_[\w-]{43}$/);
    const stored = await db.database.oneFirst(sql.type(z.object({ n: z.number() }))`
      SELECT count(*)::int AS n FROM till_devices
      WHERE token_hash = sha256(convert_to(${deviceToken}, 'UTF8')) AND id = ${paired.body.id}`);
    expect(stored).toBe(1);
    // The till of beforeEach is paired too.
    const listed = (await owner.send("get", "/v1/till_devices")).body.data;
    expect(listed).toEqual([
      expect.objectContaining({ id: till.deviceId, status: "paired" }),
      expect.objectContaining({ id: paired.body.id, status: "paired" }),
    ]);
    expect(listed[1].token).toBeUndefined();

    const opened = await deviceSession(deviceToken);
    expect(opened.status).toBe(201);
    const cookie = String(opened.headers["set-cookie"]).split(";")[0] ?? "";
    const csrf = opened.body.csrf_token as string;
    const device: TestSession = {
      cookie,
      csrf,
      token: cookie.slice(cookie.indexOf("=") + 1),
      id: opened.body.id,
      send: sender(app, { cookie, csrf }),
    };
    const tendai = await createCashier("Tendai", "4821");
    expect((await switchIn(device, tendai.id, "4821")).status).toBe(200);
    expect((await sell(device)).body.actor).toEqual({ type: "till_user", id: tendai.id });

    await owner.send("delete", `/v1/till_devices/${paired.body.id}`).expect(200);
    const refused = await sell(device);
    expect([refused.status, refused.body.error.code]).toEqual([401, "session_expired"]);
    const again = await deviceSession(deviceToken);
    expect([again.status, again.body.error.code]).toEqual([401, "device_invalid"]);
    const after = (await owner.send("get", "/v1/till_devices")).body.data;
    expect(after.find((row: { id: string }) => row.id === paired.body.id).status).toBe("revoked");
  });

  test("a second cashier of the same name (case and outer spaces aside) is refused with 409 cashier_name_taken, even at once", async () => {
    const chipo = await createCashier("Chipo Banda", "5512");
    const again = await owner.send("post", "/v1/cashiers").send({ name: "  chipo BANDA ", pin: "6623" });
    expect([again.status, again.body.error.code, again.body.error.message]).toEqual([
      409,
      "cashier_name_taken",
      "A cashier named chipo BANDA already exists: use another name.",
    ]);
    expect(chipo.name).toBe("Chipo Banda");
    // Two owners' tabs adding the same new name at once: exactly one wins.
    const both = await Promise.all(
      ["Farai", "farai"].map((name) => owner.send("post", "/v1/cashiers").send({ name, pin: "7734" })),
    );
    expect(both.map((answer) => answer.status).sort()).toEqual([201, 409]);
  });
});
