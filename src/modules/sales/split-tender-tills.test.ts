import { randomUUID } from "node:crypto";
import { z } from "zod";
import { client, posSetup } from "../../../tests/support/pos.ts";
import { salesTestWorld } from "../../../tests/support/sales.ts";
import { openTill, signIn, TEST_ORIGIN, type TestSession } from "../../../tests/support/sessions.ts";
import { cashTender, tenderHelpers, walletTender } from "../../../tests/support/tenders.ts";
import { sql } from "../../platform/db/pool.ts";

/**
 * A split sale's drawer (docs/shop.md, "Split and two-currency tender"; docs/security.md): a till adds
 * tenders to and cancels only its own till's sales (403 `till_mismatch`, nothing moved), the owner any;
 * and a cancel gives cash back from the drawer it went into, or from none.
 */

const world = salesTestWorld();
const { openShop, drawerOf } = tenderHelpers(world);

/** The shop's owner, two paired tills A and B with open shifts, and the test key, over one app. */
async function twoTills() {
  // Sessions are taken only from the app's own origin.
  const { app } = posSetup(world.db, { PUBLIC_BASE_URL: TEST_ORIGIN });
  const owner = await signIn(app, { email: world.shop.email, password: "correct horse battery" });
  const tillA = await openTill(app, owner, "Counter A");
  const tillB = await openTill(app, owner, "Counter B");
  const key = client(app, world.shop.testKey);
  const { shiftId: shiftA, product } = await openShop(key, { till: tillA.deviceId });
  const shiftB = await key.post("/v1/shifts", { till_id: tillB.deviceId });
  expect(shiftB.status).toBe(201);
  const drawers = async () => ({ a: await drawerOf(key, shiftA), b: await drawerOf(key, shiftB.body.id) });
  return { owner, tillA, tillB, key, product, drawers };
}

const post = (session: TestSession, path: string, body: Record<string, unknown>) =>
  session.send("post", path).set("Idempotency-Key", randomUUID()).send(body);
const codeOf = (response: { status: number; body: { error?: { code: string } } }) => [
  response.status,
  response.body.error?.code,
];
const tenderCount = (saleId: string) =>
  world.db.database.oneFirst(sql.type(z.object({ count: z.number() }))`
    SELECT count(*)::int AS count FROM sale_tenders WHERE sale_id = ${saleId}`);

test("another till can neither add a tender to nor cancel a till's pending split sale; the till and the owner can", async () => {
  const { owner, tillA, tillB, product, drawers } = await twoTills();
  // USD 10.00: USD 4.00 cash in A's drawer, USD 3.00 by wallet pending, USD 3.00 still due.
  const items = [{ product_id: product.id, qty: 1 }];
  const tenders = [cashTender("USD", 400), walletTender("USD", 300)];
  const sale = await post(tillA, "/v1/sales", { items, tenders, till_id: tillA.deviceId });
  expect([sale.status, sale.body.status, sale.body.till_id]).toEqual([201, "pending", tillA.deviceId]);
  const before = await drawers();
  expect(before.a.USD).toBe(400);

  const cash = cashTender("USD", 100);
  expect(codeOf(await post(tillB, `/v1/sales/${sale.body.id}/tenders`, cash))).toEqual([403, "till_mismatch"]);
  expect(codeOf(await post(tillB, `/v1/sales/${sale.body.id}/tenders`, { ...cash, till_id: tillB.deviceId }))).toEqual([
    403,
    "till_mismatch",
  ]);
  expect(codeOf(await post(tillB, `/v1/sales/${sale.body.id}/cancel`, {}))).toEqual([403, "till_mismatch"]);
  expect(await drawers()).toEqual(before);
  expect(await tenderCount(sale.body.id)).toBe(2);
  expect((await tillA.send("get", `/v1/sales/${sale.body.id}`)).body.status).toBe("pending");

  // Its own till adds cash into its drawer; the owner cancels it, the cash given back from that drawer.
  expect((await post(tillA, `/v1/sales/${sale.body.id}/tenders`, cash)).status).toBe(201);
  expect((await drawers()).a.USD).toBe(500);
  const cancelled = await post(owner, `/v1/sales/${sale.body.id}/cancel`, {});
  expect([cancelled.status, cancelled.body.status]).toEqual([200, "cancelled"]);
  expect(await drawers()).toEqual({ a: { ...before.a, USD: 0 }, b: before.b });

  // Nobody puts a tender's cash in a drawer other than its sale's, which a cancel gives it back from.
  const other = await post(tillA, "/v1/sales", { items, tenders, till_id: tillA.deviceId });
  const intoB = await post(owner, `/v1/sales/${other.body.id}/tenders`, { ...cash, till_id: tillB.deviceId });
  expect(codeOf(intoB)).toEqual([400, "parameter_invalid"]);
  expect((await drawers()).b).toEqual(before.b);
  expect(await tenderCount(other.body.id)).toBe(2);

  // Its own till cancels its own sale.
  const own = await post(tillA, "/v1/sales", { items, tenders, till_id: tillA.deviceId });
  expect((await post(tillA, `/v1/sales/${own.body.id}/cancel`, {})).body.status).toBe("cancelled");
  expect((await post(tillA, `/v1/sales/${other.body.id}/cancel`, {})).body.status).toBe("cancelled");
  expect((await drawers()).a.USD).toBe(0);
});

test("a split sale rung up on a till without till_id puts its cash in no drawer and its cancel takes none out", async () => {
  const { tillA, product, drawers } = await twoTills();
  const items = [{ product_id: product.id, qty: 1 }];
  const sale = await post(tillA, "/v1/sales", { items, tenders: [cashTender("USD", 400), walletTender("USD", 300)] });
  expect([sale.status, sale.body.status]).toEqual([201, "pending"]);
  const before = await drawers();
  expect(before.a.USD).toBe(0);

  const cancelled = await post(tillA, `/v1/sales/${sale.body.id}/cancel`, {});
  expect([cancelled.status, cancelled.body.status]).toEqual([200, "cancelled"]);
  expect(await drawers()).toEqual(before);
  // It names no till: its cash is in none, as a cash sale's without till_id.
  expect(cancelled.body.till_id).toBeNull();

  // Wallet tenders alone move no cash: the sale is the till's, as a wallet sale is.
  const wallet = await post(tillA, "/v1/sales", { items, tenders: [walletTender("USD", 300)] });
  expect([wallet.status, wallet.body.till_id]).toEqual([201, tillA.deviceId]);
});
