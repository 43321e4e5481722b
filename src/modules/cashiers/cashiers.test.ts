import { randomUUID } from "node:crypto";
import request from "supertest";
import { z } from "zod";
import { CURRENT_HASH_PREFIX, legacyPasswordHash } from "../../../tests/support/passwords.ts";
import { ownerTestWorld, sender, type TestSession } from "../../../tests/support/sessions.ts";
import { sql } from "../../platform/db/pool.ts";
import { PIN_ATTEMPTS_MAX } from "./schemas.ts";

const world = ownerTestWorld({ till: true });

async function createCashier(
  name: string,
  pin: string,
  role?: "cashier" | "manager",
): Promise<{ id: string; name: string }> {
  const response = await world.owner.send("post", "/v1/cashiers").send({ name, pin, role });
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
    const stored = await world.db.database.oneFirst(sql.type(z.object({ pin_hash: z.string() }))`
      SELECT pin_hash FROM cashiers WHERE id = ${tendai.id}`);
    expect(stored).not.toContain("4821");
    expect(stored.length).toBeGreaterThan(40);
    const fromTill = await world.till.send("post", "/v1/cashiers").send({ name: "Mallory", pin: "1234" });
    expect([fromTill.status, fromTill.body.error.code]).toEqual([403, "principal_not_allowed"]);
    const fromKey = await request(world.app)
      .post("/v1/cashiers")
      .set("Authorization", `Bearer ${world.shop.testKey}`)
      .send({ name: "Mallory", pin: "1234" });
    expect(fromKey.status).toBe(401);
    for (const pin of ["123", "1234567", "12a4"]) {
      const refused = await world.owner.send("post", "/v1/cashiers").send({ name: "X", pin });
      expect([refused.status, refused.body.error.code]).toEqual([400, "parameter_invalid"]);
    }
    expect((await world.till.send("get", "/v1/cashiers")).body.data.map((row: { name: string }) => row.name)).toEqual([
      "Tendai",
    ]);
  });

  test("two cashiers on one till by PIN: sales, returns and shifts record who did them", async () => {
    const tendai = await createCashier("Tendai", "4821");
    const rudo = await createCashier("Rudo", "190734", "manager");
    expect((await switchIn(world.till, tendai.id, "4821")).status).toBe(200);
    const shift = await world.till
      .send("post", "/v1/shifts")
      .set("Idempotency-Key", randomUUID())
      .send({ till_id: world.till.deviceId });
    expect(shift.body.opened_by).toEqual({ type: "till_user", id: tendai.id });
    const first = await sell(world.till, { till_id: world.till.deviceId });
    expect(first.body.actor).toEqual({ type: "till_user", id: tendai.id });

    expect((await switchIn(world.till, rudo.id, "190734")).status).toBe(200);
    const second = await sell(world.till, { till_id: world.till.deviceId });
    expect(second.body.actor).toEqual({ type: "till_user", id: rudo.id });
    const returned = await world.till
      .send("post", `/v1/sales/${first.body.id}/returns`)
      .set("Idempotency-Key", randomUUID())
      .send({ till_id: world.till.deviceId, items: [{ line: 0, qty: 1 }] });
    expect(returned.body.sale_return.actor).toEqual({ type: "till_user", id: rudo.id });
    const closed = await world.till
      .send("post", `/v1/shifts/${shift.body.id}/close`)
      .set("Idempotency-Key", randomUUID())
      .send({ counted: [{ currency: "USD", amount_cents: 100 }] });
    expect(closed.body.closed_by).toEqual({ type: "till_user", id: rudo.id });

    // Nobody switched in, in a shop with cashiers: the till does not sell; signing out still works.
    expect((await world.till.send("delete", "/v1/session/cashier")).status).toBe(200);
    const nobody = await sell(world.till);
    expect([nobody.status, nobody.body.error.code]).toEqual([403, "cashier_required"]);
    expect((await world.till.send("delete", "/v1/session")).status).toBeLessThan(300);
    expect((await sell(world.till)).status).toBe(401);
  });

  test("PIN lockout: the fifth wrong PIN locks, the right PIN is then refused until the owner unlocks", async () => {
    const tendai = await createCashier("Tendai", "4821");
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      const wrong = await switchIn(world.till, tendai.id, "0000");
      expect([wrong.status, wrong.body.error.code]).toEqual([401, "invalid_pin"]);
    }
    const fifth = await switchIn(world.till, tendai.id, "0000");
    expect([fifth.status, fifth.body.error.code]).toEqual([403, "cashier_locked"]);
    const right = await switchIn(world.till, tendai.id, "4821");
    expect([right.status, right.body.error.code]).toEqual([403, "cashier_locked"]);
    const fromTill = await world.till.send("post", `/v1/cashiers/${tendai.id}/unlock`);
    expect(fromTill.status).toBe(403);
    const unlocked = await world.owner.send("post", `/v1/cashiers/${tendai.id}/unlock`);
    expect(unlocked.body).toMatchObject({ status: "active", failed_pin_attempts: 0 });
    expect((await switchIn(world.till, tendai.id, "4821")).status).toBe(200);
  });

  test("a PIN hashed with older parameters switches in and is stored again with today's; a wrong one changes nothing", async () => {
    const tendai = await createCashier("Tendai", "4821");
    const storedHash = () =>
      world.db.database.oneFirst(sql.type(z.object({ pin_hash: z.string() }))`
        SELECT pin_hash FROM cashiers WHERE id = ${tendai.id}`);
    expect((await storedHash()).startsWith(CURRENT_HASH_PREFIX)).toBe(true);
    const legacy = legacyPasswordHash("4821");
    await world.db.database.query(sql.unsafe`UPDATE cashiers SET pin_hash = ${legacy} WHERE id = ${tendai.id}`);
    expect((await switchIn(world.till, tendai.id, "4812")).status).toBe(401);
    expect(await storedHash()).toBe(legacy);
    expect((await switchIn(world.till, tendai.id, "4821")).status).toBe(200);
    const upgraded = await storedHash();
    expect(upgraded.startsWith(CURRENT_HASH_PREFIX)).toBe(true);
    expect((await switchIn(world.till, tendai.id, "4821")).status).toBe(200);
    expect(await storedHash()).toBe(upgraded);
    expect((await switchIn(world.till, tendai.id, "4812")).status).toBe(401);
  });

  test("concurrent wrong PINs are each counted once: ten at once lock the cashier after exactly four warnings", async () => {
    const tendai = await createCashier("Tendai", "4821");
    const answers = await Promise.all(Array.from({ length: 10 }, () => switchIn(world.till, tendai.id, "9999")));
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
    const row = (await world.owner.send("get", "/v1/cashiers")).body.data[0];
    expect(row.status).toBe("locked");
    expect(row.failed_pin_attempts).toBeGreaterThanOrEqual(PIN_ATTEMPTS_MAX);
    expect(row.failed_pin_attempts).toBeLessThanOrEqual(10);
  });

  test("a revoked till (device) session is refused at once; a disabled cashier stops acting at once", async () => {
    const tendai = await createCashier("Tendai", "4821");
    expect((await switchIn(world.till, tendai.id, "4821")).status).toBe(200);
    expect((await sell(world.till)).body.actor.id).toBe(tendai.id);
    await world.owner.send("post", `/v1/cashiers/${tendai.id}/disable`).expect(200);
    expect((await sell(world.till)).body.actor.id).not.toBe(tendai.id);
    const again = await switchIn(world.till, tendai.id, "4821");
    expect([again.status, again.body.error.code]).toEqual([403, "cashier_disabled"]);

    await world.owner.send("delete", `/v1/sessions/${world.till.id}`).expect(200);
    const refused = await sell(world.till);
    expect([refused.status, refused.body.error.code]).toEqual([401, "session_expired"]);
  });
});

describe("till devices", () => {
  const deviceSession = (deviceToken: string) =>
    request(world.app).post("/v1/session/device").send({ device_token: deviceToken });

  test("paired once by the owner; the device opens till sessions without a password; revoked → refused at once", async () => {
    const fromTill = await world.till.send("post", "/v1/till_devices").send({ name: "Counter 1" });
    expect([fromTill.status, fromTill.body.error.code]).toEqual([403, "principal_not_allowed"]);
    const paired = await world.owner.send("post", "/v1/till_devices").send({ name: "Counter 1" });
    expect(paired.status).toBe(201);
    expect(paired.body).toMatchObject({ object: "till_device", name: "Counter 1", status: "paired" });
    const deviceToken = paired.body.token as string;
    expect(deviceToken).toMatch(/^tdv_[\w-]{43}$/);
    const stored = await world.db.database.oneFirst(sql.type(z.object({ n: z.number() }))`
      SELECT count(*)::int AS n FROM till_devices
      WHERE token_hash = sha256(convert_to(${deviceToken}, 'UTF8')) AND id = ${paired.body.id}`);
    expect(stored).toBe(1);
    // The till of beforeEach is paired too.
    const listed = (await world.owner.send("get", "/v1/till_devices")).body.data;
    expect(listed).toEqual([
      expect.objectContaining({ id: world.till.deviceId, status: "paired" }),
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
      send: sender(world.app, { cookie, csrf }),
    };
    const tendai = await createCashier("Tendai", "4821");
    expect((await switchIn(device, tendai.id, "4821")).status).toBe(200);
    expect((await sell(device)).body.actor).toEqual({ type: "till_user", id: tendai.id });

    await world.owner.send("delete", `/v1/till_devices/${paired.body.id}`).expect(200);
    const refused = await sell(device);
    expect([refused.status, refused.body.error.code]).toEqual([401, "session_expired"]);
    const again = await deviceSession(deviceToken);
    expect([again.status, again.body.error.code]).toEqual([401, "device_invalid"]);
    const after = (await world.owner.send("get", "/v1/till_devices")).body.data;
    expect(after.find((row: { id: string }) => row.id === paired.body.id).status).toBe("revoked");
  });

  test("a second cashier of the same name (case and outer spaces aside) is refused with 409 cashier_name_taken, even at once", async () => {
    const chipo = await createCashier("Chipo Banda", "5512");
    const again = await world.owner.send("post", "/v1/cashiers").send({ name: "  chipo BANDA ", pin: "6623" });
    expect([again.status, again.body.error.code, again.body.error.message]).toEqual([
      409,
      "cashier_name_taken",
      "A cashier named chipo BANDA already exists: use another name.",
    ]);
    expect(chipo.name).toBe("Chipo Banda");
    // Two owners' tabs adding the same new name at once: exactly one wins.
    const both = await Promise.all(
      ["Farai", "farai"].map((name) => world.owner.send("post", "/v1/cashiers").send({ name, pin: "7734" })),
    );
    expect(both.map((answer) => answer.status).sort()).toEqual([201, 409]);
  });
});
