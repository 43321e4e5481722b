import { randomUUID } from "node:crypto";
import request from "supertest";
import { testApp, testConfig } from "../../../tests/support/app.ts";
import { createProduct } from "../../../tests/support/pos.ts";
import { salesTestWorld } from "../../../tests/support/sales.ts";
import { cashierAtTill, openTill, signIn } from "../../../tests/support/sessions.ts";
import { sql } from "../../platform/db/pool.ts";

/** Discounts and tax on a sale (issue 47 points 3 and 4): the figures the API prices and keeps. */

const world = salesTestWorld();

const setProfile = (profile: { taxMode?: "inclusive" | "exclusive"; defaultRateBp?: number; limitBp?: number }) =>
  world.db.database.query(sql.unsafe`
    INSERT INTO shop_profiles (merchant_id, tax_mode, default_tax_rate_bp, discount_limit_bp)
    VALUES (${world.shop.id}, ${profile.taxMode ?? "inclusive"}, ${profile.defaultRateBp ?? 0},
      ${profile.limitBp ?? 10_000})
    ON CONFLICT (merchant_id) DO UPDATE SET tax_mode = EXCLUDED.tax_mode,
      default_tax_rate_bp = EXCLUDED.default_tax_rate_bp, discount_limit_bp = EXCLUDED.discount_limit_bp`);

/** A basket worked by hand: 2 × 11.50 at the default 15 % less 10 %, 5.00 zero-rated, 1.00 off the cart. */
async function discountedBasket() {
  const juice = await createProduct(world.live, { name: "Juice", price_cents: 1_150, stock_qty: 10 });
  const bread = await createProduct(world.live, { name: "Bread", price_cents: 500, stock_qty: 10, tax_rate_bp: 0 });
  expect([juice.tax_rate_bp, bread.tax_rate_bp]).toEqual([null, 0]);
  return {
    tender: "cash",
    items: [
      {
        product_id: juice.id,
        qty: 2,
        discount: { type: "percent", percent_bp: 1_000 },
        discount_reason: "Loyal customer",
      },
      { product_id: bread.id, qty: 1 },
    ],
    discount: { type: "amount", amount_cents: 100 },
    discount_reason: "Round down",
  };
}

test("tax-inclusive: line and cart discounts, tax per rate rounded once, each line's share kept", async () => {
  await setProfile({ taxMode: "inclusive", defaultRateBp: 1_500 });
  const response = await world.live.post("/v1/sales", await discountedBasket());
  expect(response.status).toBe(201);
  // Juice: 2300 − 230 = 2070; bread 500; the cart's 100 spread 81 / 19 (largest remainder).
  expect(response.body).toMatchObject({
    total_cents: 1_989 + 481,
    discount_cents: 230 + 100,
    discount_reason: "Round down",
    tax_cents: 259,
    taxes: [{ rate_bp: 1_500, taxable_cents: 1_989 - 259, tax_cents: 259 }],
  });
  expect(response.body.items.map((item: Record<string, unknown>) => item)).toEqual([
    expect.objectContaining({
      line_total_cents: 2_300,
      discount_cents: 311,
      discount_reason: "Loyal customer",
      net_cents: 1_989,
      tax_rate_bp: 1_500,
    }),
    expect.objectContaining({ line_total_cents: 500, discount_cents: 19, net_cents: 481, tax_rate_bp: 0 }),
  ]);
  const stored = await world.db.database.one(sql.unsafe`
    SELECT total_cents, discount_cents, tax_cents, taxes FROM sales WHERE id = ${response.body.id}`);
  expect(stored).toEqual({
    total_cents: 2_470,
    discount_cents: 330,
    tax_cents: 259,
    taxes: [{ rate_bp: 1_500, taxable_cents: 1_730, tax_cents: 259 }],
  });
  const receipt = await request(world.setup.app).get(new URL(response.body.receipt_url).pathname);
  expect(receipt.text).toContain("Discount −USD 3.11 (Loyal customer)");
  expect(receipt.text).toContain("Discounts (Round down)</span> <span>−USD 3.30");
  expect(receipt.text).toContain("Tax 15 % on USD 17.30</span> <span>USD 2.59");
});

test("tax-exclusive: the tax is added on top; a full return refunds exactly the total", async () => {
  await setProfile({ taxMode: "exclusive", defaultRateBp: 1_500 });
  const sale = await world.live.post("/v1/sales", await discountedBasket());
  // 15 % of 1989 = 298.35 → 298.
  expect(sale.body).toMatchObject({ total_cents: 2_470 + 298, tax_cents: 298, discount_cents: 330 });
  expect(sale.body.taxes).toEqual([{ rate_bp: 1_500, taxable_cents: 1_989, tax_cents: 298 }]);
  const partial = await world.live.post(`/v1/sales/${sale.body.id}/returns`, { items: [{ line: 0, qty: 1 }] });
  // One of the two juices: half of its net and tax share, 1989 + 298 = 2287, rounded down.
  expect(partial.body.sale_return.refund_cents).toBe(1_143);
  const rest = await world.live.post(`/v1/sales/${sale.body.id}/returns`, {
    items: [
      { line: 0, qty: 1 },
      { line: 1, qty: 1 },
    ],
  });
  expect(1_143 + rest.body.sale_return.refund_cents).toBe(2_768);
});

test("a product's tax rate is set, changed and cleared through the API; a free line may name its own", async () => {
  const product = await createProduct(world.live, { name: "Beer", price_cents: 200, tax_rate_bp: 1_550 });
  expect(product.tax_rate_bp).toBe(1_550);
  const patched = await world.live.patch(`/v1/products/${product.id}`, { tax_rate_bp: null });
  expect(patched.body.tax_rate_bp).toBeNull();
  const refused = await world.live.patch(`/v1/products/${product.id}`, { tax_rate_bp: 10_001 });
  expect(refused.status).toBe(400);
  await setProfile({ taxMode: "exclusive", defaultRateBp: 1_500 });
  const sale = await world.live.post("/v1/sales", {
    tender: "cash",
    items: [
      { product_id: product.id, qty: 1 },
      { name: "Deposit", qty: 1, unit_cents: 100, tax_rate_bp: 0 },
    ],
  });
  expect(sale.body).toMatchObject({ total_cents: 200 + 30 + 100, taxes: [{ rate_bp: 1_500, tax_cents: 30 }] });
  const productLineRate = await world.live.post("/v1/sales", {
    tender: "cash",
    items: [{ product_id: product.id, qty: 1, tax_rate_bp: 0 }],
  });
  expect([productLineRate.status, productLineRate.body.error.code]).toEqual([400, "parameter_invalid"]);
});

test("a wallet sale with a discount charges the discounted total", async () => {
  const sale = await world.testWorld.post("/v1/sales", {
    tender: "wallet",
    items: [{ name: "Shoes", qty: 1, unit_cents: 4_000 }],
    discount: { type: "percent", percent_bp: 2_500 },
    discount_reason: "Sale week",
  });
  expect(sale.status).toBe(201);
  expect([sale.body.total_cents, sale.body.discount_cents, sale.body.payment.amount_cents]).toEqual([
    3_000, 1_000, 3_000,
  ]);
});

test("a replayed offline sale answers the sale as recorded, whatever the shop's tax has become since", async () => {
  await setProfile({ taxMode: "exclusive", defaultRateBp: 1_500 });
  const body = { ...(await discountedBasket()), client_sale_id: randomUUID() };
  const first = await world.live.post("/v1/sales", body);
  await setProfile({ taxMode: "inclusive", defaultRateBp: 0 });
  const replay = await world.live.post("/v1/sales", body);
  expect(replay.status).toBe(201);
  expect(replay.body).toMatchObject({ id: first.body.id, total_cents: 2_768, tax_cents: 298, taxes: first.body.taxes });
  const changed = await world.live.post("/v1/sales", { ...body, discount: { type: "amount", amount_cents: 101 } });
  expect([changed.status, changed.body.error.code]).toEqual([409, "client_sale_id_mismatch"]);
});

test("over the shop's discount limit a cashier needs a manager; under it, not; a manager's PIN approves one sale", async () => {
  const app = testApp({ database: world.db.database, config: testConfig(world.db.url, {}) });
  const owner = await signIn(app, { email: world.shop.email, password: "correct horse battery" });
  expect((await owner.send("patch", "/v1/shop_profile").send({ discount_limit_bp: 1_000 })).status).toBe(200);
  const till = await openTill(app, owner);
  const { approval } = await cashierAtTill(owner, till);
  const sale = (percentBp: number) => ({
    tender: "cash",
    items: [{ name: "Hat", qty: 1, unit_cents: 1_000 }],
    discount: { type: "percent", percent_bp: percentBp },
  });

  expect((await till.send("post", "/v1/sales").set("Idempotency-Key", randomUUID()).send(sale(1_000))).status).toBe(
    201,
  );
  const refused = await till.send("post", "/v1/sales").set("Idempotency-Key", randomUUID()).send(sale(1_500));
  expect([refused.status, refused.body.error.code]).toEqual([403, "manager_required"]);
  const token = await approval("discount");
  const approved = await till
    .send("post", "/v1/sales")
    .set("Idempotency-Key", randomUUID())
    .set("Pos-Manager-Approval", token)
    .send(sale(1_500));
  expect([approved.status, approved.body.total_cents]).toEqual([201, 850]);
  const again = await till
    .send("post", "/v1/sales")
    .set("Idempotency-Key", randomUUID())
    .set("Pos-Manager-Approval", token)
    .send(sale(1_500));
  expect(again.status).toBe(403);
  // A key (the owner's integration) is not a till: no manager asked.
  expect(
    (
      await request(app)
        .post("/v1/sales")
        .set("Idempotency-Key", randomUUID())
        .set("Authorization", `Bearer ${world.shop.liveKey}`)
        .send(sale(5_000))
    ).status,
  ).toBe(201);
});

test("the Z report totals the shift's discounts and tax per rate", async () => {
  await setProfile({ taxMode: "inclusive", defaultRateBp: 1_500 });
  const shift = await world.live.post("/v1/shifts", {
    till_id: "till-1",
    float: [{ currency: "USD", amount_cents: 0 }],
  });
  const basket = { ...(await discountedBasket()), till_id: "till-1" };
  await world.live.post("/v1/sales", basket).expect(201);
  await world.live.post("/v1/sales", basket).expect(201);
  const report = await world.live.get(`/v1/shifts/${shift.body.id}/z_report`);
  expect(report.status).toBe(200);
  expect(report.body.sales).toEqual([
    {
      currency: "USD",
      sales_count: 2,
      discount_cents: 2 * 330,
      tax_cents: 2 * 259,
      taxes: [{ rate_bp: 1_500, taxable_cents: 2 * 1_730, tax_cents: 2 * 259 }],
    },
  ]);
});

/**
 * A price override: a product line's `unit_cents` below its catalog price. At a till whose cashier is
 * not a manager it counts toward the discount limit, as (catalog − unit) × qty, with the discounts.
 */
describe("a product sold below its catalog price counts toward the discount limit", () => {
  async function cashierSelling() {
    const app = testApp({ database: world.db.database, config: testConfig(world.db.url, {}) });
    const owner = await signIn(app, { email: world.shop.email, password: "correct horse battery" });
    expect((await owner.send("patch", "/v1/shop_profile").send({ discount_limit_bp: 1_000 })).status).toBe(200);
    const till = await openTill(app, owner);
    const { approval } = await cashierAtTill(owner, till);
    const hat = await createProduct(world.live, { name: "Hat", price_cents: 1_000 });
    const sell = (body: Record<string, unknown>, approvalToken?: string) => {
      const post = till.send("post", "/v1/sales").set("Idempotency-Key", randomUUID());
      return (approvalToken === undefined ? post : post.set("Pos-Manager-Approval", approvalToken)).send(body);
    };
    const hatAt = (unitCents: number, line: Record<string, unknown> = {}) => ({
      tender: "cash",
      items: [{ product_id: hat.id, qty: 2, unit_cents: unitCents, ...line }],
    });
    return { app, owner, hat, approval, sell, hatAt };
  }

  test("a cashier's 10.00 hat at 1.00 is refused for want of a manager, and nothing is written", async () => {
    const { sell, hatAt } = await cashierSelling();
    const before = await world.saleCount(world.shop.id);
    const refused = await sell(hatAt(100));
    expect([refused.status, refused.body.error?.code]).toEqual([403, "manager_required"]);
    expect(await world.saleCount(world.shop.id)).toBe(before);
    const approvalsUsed = await world.db.database.oneFirst(sql.unsafe`
      SELECT count(*)::int FROM audit_log WHERE merchant_id = ${world.shop.id} AND action = 'manager.approved'`);
    expect(approvalsUsed).toBe(0);
  });

  test("within the limit a cashier sells below the price alone; the override adds up with a discount; unpriced products are free to price", async () => {
    const { sell, hatAt } = await cashierSelling();
    // 2 × (10.00 − 9.50) = 1.00 off 20.00 at the catalog's prices: 5 %, within 10 %.
    const within = await sell(hatAt(950));
    expect([within.status, within.body.total_cents]).toEqual([201, 1_900]);
    // With 1.01 off the line as well: 2.01 of 20.00, over 10 % (the discount alone is 5.3 % of 19.00).
    const together = await sell(hatAt(950, { discount: { type: "amount", amount_cents: 101 } }));
    expect([together.status, together.body.error?.code]).toEqual([403, "manager_required"]);
    // A product priced at sale time has no catalog price to be below: the price typed is the price.
    const loose = await createProduct(world.live, { name: "Tomatoes", price_cents: null });
    const weighed = await sell({ tender: "cash", items: [{ product_id: loose.id, qty: 1, unit_cents: 1 }] });
    expect([weighed.status, weighed.body.total_cents]).toEqual([201, 1]);
  });

  test("a manager's PIN approves one sale below the price, recorded with the manager's approval", async () => {
    const { sell, hatAt, approval } = await cashierSelling();
    expect((await sell(hatAt(100))).status).toBe(403);
    const approved = await sell(hatAt(100), await approval("discount"));
    expect(approved.status).toBe(201);
    expect(approved.body).toMatchObject({ total_cents: 200, items: [{ unit_cents: 100, line_total_cents: 200 }] });
    const audited = await world.db.database.any(sql.unsafe`
      SELECT target_type, target_id FROM audit_log
      WHERE merchant_id = ${world.shop.id} AND action = 'manager.approved'`);
    expect(audited).toEqual([{ target_type: "sale", target_id: approved.body.id }]);
  });

  test("the owner's dashboard and a key sell below the price without a manager; a cashier may not", async () => {
    const { owner, sell, hatAt } = await cashierSelling();
    expect((await sell(hatAt(100))).status).toBe(403);
    const byOwner = await owner.send("post", "/v1/sales").set("Idempotency-Key", randomUUID()).send(hatAt(100));
    expect([byOwner.status, byOwner.body.total_cents]).toEqual([201, 200]);
    const byKey = await world.testWorld.post("/v1/sales", hatAt(100));
    expect([byKey.status, byKey.body.total_cents]).toEqual([201, 200]);
  });

  test("a queued sale whose price rose before it synced waits for a manager, then is recorded once", async () => {
    const { owner, hat, sell, hatAt, approval } = await cashierSelling();
    // Rung up offline at 10.00; the owner raises the price to 15.00 before the till is back.
    const queued = { ...hatAt(1_000), client_sale_id: randomUUID(), taken_at: new Date().toISOString() };
    expect((await owner.send("patch", `/v1/products/${hat.id}`).send({ price_cents: 1_500 })).status).toBe(200);
    const first = await sell(queued);
    expect([first.status, first.body.error?.code]).toEqual([403, "manager_required"]);
    const approved = await sell(queued, await approval("discount"));
    expect([approved.status, approved.body.total_cents]).toEqual([201, 2_000]);
    const replayed = await sell(queued);
    expect([replayed.status, replayed.body.id]).toEqual([201, approved.body.id]);
    expect(replayed.headers["idempotent-replayed"]).toBe("true");
  });
});
