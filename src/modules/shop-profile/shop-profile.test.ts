import request from "supertest";
import { openTill, ownerTestWorld } from "../../../tests/support/sessions.ts";
import { sql } from "../../platform/db/pool.ts";

/** The shop's receipt header, footer and tax settings (issue 47): defaults, partial saves, access, audit. */
const world = ownerTestWorld();

const byKey = (key: string) => request(world.app).get("/v1/shop_profile").set("Authorization", `Bearer ${key}`);

test("a shop that never set its profile reads the defaults and its account name", async () => {
  const read = await byKey(world.shop.testKey);
  expect(read.status).toBe(200);
  expect(read.body).toEqual({
    object: "shop_profile",
    display_name: world.shop.merchant.name,
    address: null,
    tax_number: null,
    receipt_footer: null,
    tax_mode: "inclusive",
    default_tax_rate_bp: 0,
    discount_limit_bp: 10_000,
    updated_at: null,
  });
});

test("the owner saves fields; fields not sent keep their value, in both worlds; empty clears; audited", async () => {
  const first = await world.owner
    .send("patch", "/v1/shop_profile")
    .send({ display_name: "  Mai Chipo's Grocer ", address: "12 Samora Machel Ave\nHarare", tax_number: "10023456" });
  expect(first.status).toBe(200);
  const second = await world.owner
    .send("patch", "/v1/shop_profile")
    .send({ tax_mode: "exclusive", default_tax_rate_bp: 1550, discount_limit_bp: 1000 });
  expect(second.body).toMatchObject({
    display_name: "Mai Chipo's Grocer",
    address: "12 Samora Machel Ave\nHarare",
    tax_number: "10023456",
    tax_mode: "exclusive",
    default_tax_rate_bp: 1550,
    discount_limit_bp: 1000,
  });
  const cleared = await world.owner.send("patch", "/v1/shop_profile").send({ tax_number: "", display_name: null });
  expect(cleared.body).toMatchObject({
    display_name: world.shop.merchant.name,
    tax_number: null,
    address: "12 Samora Machel Ave\nHarare",
  });
  const live = await byKey(world.shop.liveKey);
  expect(live.body).toEqual(cleared.body);
  const audited = await world.db.database.oneFirst(sql.unsafe`
    SELECT count(*)::int FROM audit_log WHERE merchant_id = ${world.shop.id} AND action = 'shop_profile.updated'`);
  expect(audited).toBe(3);
});

test("two saves of different fields at once both land", async () => {
  await Promise.all([
    world.owner.send("patch", "/v1/shop_profile").send({ receipt_footer: "No refunds on airtime" }),
    world.owner.send("patch", "/v1/shop_profile").send({ tax_number: "998877" }),
    world.owner.send("patch", "/v1/shop_profile").send({ default_tax_rate_bp: 1500 }),
  ]);
  const read = await byKey(world.shop.testKey);
  expect(read.body).toMatchObject({
    receipt_footer: "No refunds on airtime",
    tax_number: "998877",
    default_tax_rate_bp: 1500,
  });
});

test("only the owner changes it; a till and keys read it; bad fields are 400s that change nothing", async () => {
  const till = await openTill(world.app, world.owner);
  expect((await till.send("get", "/v1/shop_profile")).status).toBe(200);
  const byTill = await till.send("patch", "/v1/shop_profile").send({ tax_number: "1" });
  expect([byTill.status, byTill.body.error.code]).toEqual([403, "principal_not_allowed"]);
  const byApiKey = await request(world.app)
    .patch("/v1/shop_profile")
    .set("Authorization", `Bearer ${world.shop.liveKey}`)
    .send({ tax_number: "1" });
  expect([byApiKey.status, byApiKey.body.error.code]).toEqual([401, "missing_session"]);
  for (const body of [
    {},
    { tax_mode: "sometimes" },
    { default_tax_rate_bp: 10_001 },
    { default_tax_rate_bp: 15.5 },
    { receipt_footer: "bell\u0007" },
    { address: "x".repeat(301) },
    { unknown: 1 },
  ]) {
    const response = await world.owner.send("patch", "/v1/shop_profile").send(body);
    expect([response.status, response.body.error?.type]).toEqual([400, "invalid_request"]);
  }
  expect((await byKey(world.shop.testKey)).body.updated_at).toBeNull();
});
