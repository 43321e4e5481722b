import { randomUUID } from "node:crypto";
import request from "supertest";
import { openTill, ownerTestWorld, sender, TEST_ORIGIN } from "../../../tests/support/sessions.ts";
import { deviceCookie, deviceCookieName } from "./tokens.ts";

/**
 * The till pairing itself (the counter screens): the device token kept in an HttpOnly, SameSite=Strict
 * cookie scoped to POST /v1/session/device, never in the answer; the session says its device and
 * cashier; the sales list and report filter by cashier; the receipt link's QR image.
 */
const world = ownerTestWorld();

/** The name=value of a Set-Cookie header naming `name`, and its attributes. */
function cookieOf(headers: Record<string, unknown>, name: string): { pair: string; attributes: string } | undefined {
  const lines = ([] as string[]).concat((headers["set-cookie"] as string[] | string | undefined) ?? []);
  const line = lines.find((candidate) => candidate.startsWith(`${name}=`));
  if (line === undefined) return undefined;
  const [pair = "", ...attributes] = line.split("; ");
  return { pair, attributes: attributes.join("; ") };
}

describe("a till pairing itself", () => {
  test("keep_in_cookie: the token is set HttpOnly, SameSite=Strict, for POST /v1/session/device only, and not answered", async () => {
    const paired = await world.owner.send("post", "/v1/till_devices").send({ name: "Counter 1", keep_in_cookie: true });
    expect(paired.status).toBe(201);
    expect(paired.body.token).toBeUndefined();
    expect(JSON.stringify(paired.body)).not.toContain("tdv_");
    const cookie = cookieOf(paired.headers, "pos_device");
    expect(cookie?.pair).toMatch(/^pos_device=tdv_[\w-]{43}$/);
    expect(cookie?.attributes).toBe("Path=/v1/session/device; HttpOnly; SameSite=Strict; Max-Age=34560000");

    // The cookie alone opens a till session that names the device; no cashier yet.
    const opened = await request(world.app)
      .post("/v1/session/device")
      .set("Cookie", cookie?.pair ?? "")
      .send({});
    expect(opened.status).toBe(201);
    const session = cookieOf(opened.headers, "pos_session");
    const till = { cookie: session?.pair ?? "", csrf: opened.body.csrf_token as string };
    const current = await sender(world.app, till)("get", "/v1/session");
    expect(current.body).toMatchObject({ kind: "till", device_id: paired.body.id, cashier_id: null });

    // Without the cookie or a token: refused as an unknown device, never a 500.
    const bare = await request(world.app).post("/v1/session/device").send({});
    expect([bare.status, bare.body.error.code]).toEqual([401, "device_invalid"]);

    // Unpaired: the cookie is refused at once.
    await world.owner.send("delete", `/v1/till_devices/${paired.body.id}`).expect(200);
    const revoked = await request(world.app)
      .post("/v1/session/device")
      .set("Cookie", cookie?.pair ?? "")
      .send({});
    expect([revoked.status, revoked.body.error.code]).toEqual([401, "device_invalid"]);
    expect((await sender(world.app, till)("get", "/v1/session")).status).toBe(401);
  });

  test("without keep_in_cookie the token is answered once as before, and no cookie is set", async () => {
    const paired = await world.owner.send("post", "/v1/till_devices").send({ name: "Counter 2" });
    expect(paired.status).toBe(201);
    expect(paired.body.token).toMatch(/^tdv_/);
    expect(cookieOf(paired.headers, "pos_device")).toBeUndefined();
  });

  test("over https the cookie is __Secure- and Secure", () => {
    expect(deviceCookieName("https://pos.example")).toBe("__Secure-pos_device");
    expect(deviceCookie("https://pos.example", "tdv_x")).toBe(
      "__Secure-pos_device=tdv_x; Path=/v1/session/device; HttpOnly; SameSite=Strict; Max-Age=34560000; Secure",
    );
  });
});

describe("cashiers at the counter", () => {
  test("the session names the switched-in cashier; sales and the report filter by cashier_id", async () => {
    const till = await openTill(world.app, world.owner);
    const cashier = async (name: string, pin: string) =>
      (await world.owner.send("post", "/v1/cashiers").send({ name, pin }).expect(201)).body as { id: string };
    const tendai = await cashier("Tendai", "4821");
    const rudo = await cashier("Rudo", "190734");
    const sell = (cents: number) =>
      till
        .send("post", "/v1/sales")
        .set("Idempotency-Key", randomUUID())
        .send({ tender: "cash", items: [{ name: "Bread", qty: 1, unit_cents: cents }] })
        .expect(201);

    await till.send("post", "/v1/session/cashier").send({ cashier_id: tendai.id, pin: "4821" }).expect(200);
    expect((await till.send("get", "/v1/session")).body.cashier_id).toBe(tendai.id);
    await sell(100);
    await sell(200);
    await till.send("post", "/v1/session/cashier").send({ cashier_id: rudo.id, pin: "190734" }).expect(200);
    await sell(700);
    await till.send("delete", "/v1/session/cashier").expect(200);
    expect((await till.send("get", "/v1/session")).body.cashier_id).toBeNull();
    // The merchant has cashiers: with nobody switched in the till sells nothing.
    const nobody = await till
      .send("post", "/v1/sales")
      .set("Idempotency-Key", randomUUID())
      .send({ tender: "cash", items: [{ name: "Bread", qty: 1, unit_cents: 5000 }] });
    expect([nobody.status, nobody.body.error.code]).toEqual([403, "cashier_required"]);

    const listed = async (query: string) =>
      (await till.send("get", `/v1/sales${query}`).expect(200)).body.data.map(
        (sale: { total_cents: number }) => sale.total_cents,
      );
    expect(await listed(`?cashier_id=${tendai.id}`)).toEqual([200, 100]);
    expect(await listed(`?cashier_id=${rudo.id}`)).toEqual([700]);
    expect(await listed("?cashier_id=csh_nobody")).toEqual([]);
    expect(await listed("")).toEqual([700, 200, 100]);

    const takings = async (query: string) => {
      const report = (await till.send("get", `/v1/sales/report${query}`).expect(200)).body;
      return report.totals.by_currency.find((row: { currency: string }) => row.currency === "USD");
    };
    expect(await takings(`?cashier_id=${tendai.id}`)).toEqual({ currency: "USD", count: 2, total_cents: 300 });
    expect(await takings(`?cashier_id=${rudo.id}`)).toEqual({ currency: "USD", count: 1, total_cents: 700 });
    expect(await takings("")).toEqual({ currency: "USD", count: 3, total_cents: 1000 });
    const tooLong = await till.send("get", `/v1/sales?cashier_id=${"x".repeat(101)}`);
    expect([tooLong.status, tooLong.body.error.type]).toEqual([400, "invalid_request"]);
  });
});

describe("the receipt link's QR", () => {
  test("a PNG for a known receipt token, 404 for an unknown one, with no session", async () => {
    const sale = await request(world.app)
      .post("/v1/sales")
      .set("Authorization", `Bearer ${world.shop.testKey}`)
      .set("Idempotency-Key", randomUUID())
      .send({ tender: "cash", items: [{ name: "Bread", qty: 1, unit_cents: 100 }] })
      .expect(201);
    const path = new URL(sale.body.receipt_url as string).pathname;
    const qr = await request(world.app).get(`${path}/qr.png`).set("Origin", TEST_ORIGIN).buffer(true);
    expect(qr.status).toBe(200);
    expect(qr.headers["content-type"]).toBe("image/png");
    expect((qr.body as Buffer).subarray(1, 4).toString("latin1")).toBe("PNG");
    expect((await request(world.app).get(`/receipts/${"A".repeat(32)}/qr.png`)).status).toBe(404);
    expect((await request(world.app).get("/receipts/short/qr.png")).status).toBe(404);
  });
});
