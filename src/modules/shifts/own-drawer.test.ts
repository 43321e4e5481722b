import { randomUUID } from "node:crypto";
import { testApp, testConfig } from "../../../tests/support/app.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/database.ts";
import { newMerchant } from "../../../tests/support/factories.ts";
import { openTill, signIn, type TestSession } from "../../../tests/support/sessions.ts";

/**
 * A till acts only on its own drawer, and in a shop with cashiers only with one switched in (issue 43:
 * "Cashier PINs only label sales"; "one till can open or close another till's drawer").
 */
let db: TestDatabase;
let app: ReturnType<typeof testApp>;
let owner: TestSession;
let tillA: TestSession & { deviceId: string };
let tillB: TestSession & { deviceId: string };

beforeAll(async () => {
  db = await createTestDatabase();
  app = testApp({ database: db.database, config: testConfig(db.url, { RATE_LIMIT_REQUESTS: "10000" }) });
});
beforeEach(async () => {
  const shop = await newMerchant(db.database);
  owner = await signIn(app, { email: shop.email, password: "correct horse battery" });
  tillA = await openTill(app, owner, "Counter A");
  tillB = await openTill(app, owner, "Counter B");
});
afterAll(() => db.close());

const post = (session: TestSession, path: string, body: Record<string, unknown>) =>
  session.send("post", path).set("Idempotency-Key", randomUUID()).send(body);
const codeOf = (response: { status: number; body: { error?: { code: string } } }) => [
  response.status,
  response.body.error?.code,
];
const cashSale = { tender: "cash", items: [{ name: "Bread", qty: 1, unit_cents: 100 }] };

describe("a till's own drawer", () => {
  test("one paired till cannot open, pay into, sell into, refund from or close another till's drawer", async () => {
    expect(codeOf(await post(tillB, "/v1/shifts", { till_id: tillA.deviceId }))).toEqual([403, "till_mismatch"]);
    const opened = await post(tillA, "/v1/shifts", { till_id: tillA.deviceId });
    expect(opened.status).toBe(201);
    const shiftId = opened.body.id as string;
    const sold = await post(tillA, "/v1/sales", { ...cashSale, till_id: tillA.deviceId });
    expect(sold.status).toBe(201);

    const move = { kind: "pay_in", currency: "USD", amount_cents: 100, reason: "Change" };
    expect(codeOf(await post(tillB, `/v1/shifts/${shiftId}/cash_moves`, move))).toEqual([403, "till_mismatch"]);
    expect(codeOf(await post(tillB, "/v1/sales", { ...cashSale, till_id: tillA.deviceId }))).toEqual([
      403,
      "till_mismatch",
    ]);
    const refund = { till_id: tillA.deviceId, items: [{ line: 0, qty: 1 }] };
    expect(codeOf(await post(tillB, `/v1/sales/${sold.body.id}/returns`, refund))).toEqual([403, "till_mismatch"]);
    const count = { counted: [{ currency: "USD", amount_cents: 100 }] };
    expect(codeOf(await post(tillB, `/v1/shifts/${shiftId}/close`, count))).toEqual([403, "till_mismatch"]);
    const still = await tillA.send("get", `/v1/shifts/${shiftId}`);
    expect([still.body.status, still.body.cash[0].expected_cents]).toEqual(["open", 100]);

    // Its own till closes it; the owner's dashboard may name any drawer.
    expect((await post(tillA, `/v1/shifts/${shiftId}/close`, count)).status).toBe(200);
    expect((await post(owner, "/v1/shifts", { till_id: tillA.deviceId })).status).toBe(201);
  });

  test("with every cashier locked and nobody switched in, a till cash sale is refused; switched in, the cashier sells", async () => {
    const created = await owner.send("post", "/v1/cashiers").send({ name: "Tendai", pin: "4821" });
    await post(tillA, "/v1/shifts", { till_id: tillA.deviceId }).expect(403);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await tillA.send("post", "/v1/session/cashier").send({ cashier_id: created.body.id, pin: "0000" });
    }
    expect((await owner.send("get", "/v1/cashiers")).body.data[0].status).toBe("locked");
    expect(codeOf(await post(tillA, "/v1/sales", cashSale))).toEqual([403, "cashier_required"]);
    const stock = { product_id: "prod_x", qty: 1, reason: "damaged" };
    expect(codeOf(await post(tillA, "/v1/stock/adjust", stock))).toEqual([403, "cashier_required"]);

    await owner.send("post", `/v1/cashiers/${created.body.id}/unlock`).expect(200);
    await tillA.send("post", "/v1/session/cashier").send({ cashier_id: created.body.id, pin: "4821" }).expect(200);
    const sold = await post(tillA, "/v1/sales", cashSale);
    expect([sold.status, sold.body.actor]).toEqual([201, { type: "till_user", id: created.body.id }]);
  });
});
