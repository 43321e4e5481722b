import request from "supertest";
import { cashierAtTill, openTill, ownerTestWorld } from "../../../tests/support/sessions.ts";
import { sql } from "../../platform/db/pool.ts";
import { microsOf, rateOf } from "./service.ts";

/**
 * The shop's rate of the day (issue 47): who may set it, the rate in force per pair and world, the
 * history, the audit, and rows that are never changed.
 */
const world = ownerTestWorld();

const withKey = (key: string) => ({
  post: (path: string, body: object) => request(world.app).post(path).set("Authorization", `Bearer ${key}`).send(body),
  get: (path: string) => request(world.app).get(path).set("Authorization", `Bearer ${key}`),
});

test("rates are read exactly as typed, never through a float", () => {
  expect(microsOf("26.7843")).toBe(26_784_300);
  expect(microsOf("0.000001")).toBe(1);
  expect(microsOf("999999999.999999")).toBe(999_999_999_999_999);
  expect(rateOf(26_784_300)).toBe("26.7843");
  expect(rateOf(1_000_000)).toBe("1");
  expect(rateOf(1)).toBe("0.000001");
});

test("the owner sets a rate; the newest of each pair is in force, per world, and the history keeps them all", async () => {
  const first = await world.owner.send("post", "/v1/exchange_rates").send({ base: "USD", other: "ZWG", rate: "26.50" });
  expect(first.status).toBe(201);
  expect(first.body).toMatchObject({
    object: "exchange_rate",
    livemode: false,
    base: "USD",
    other: "ZWG",
    rate: "26.5",
    other_per_base_micros: 26_500_000,
    set_by: { type: "dashboard_user" },
  });
  const second = await world.owner
    .send("post", "/v1/exchange_rates")
    .send({ base: "USD", other: "ZWG", rate: "26.7843" });
  const reverse = await world.owner
    .send("post", "/v1/exchange_rates")
    .send({ base: "ZWG", other: "USD", rate: "0.0375" });
  const live = await withKey(world.shop.liveKey).post("/v1/exchange_rates", { base: "USD", other: "ZWG", rate: "27" });
  expect([second.status, reverse.status, live.status]).toEqual([201, 201, 201]);
  expect(live.body).toMatchObject({ livemode: true, set_by: { type: "api_key" } });

  const current = await withKey(world.shop.testKey).get("/v1/exchange_rates/current");
  expect(current.status).toBe(200);
  expect(current.body.data.map((rate: { id: string }) => rate.id).sort()).toEqual(
    [second.body.id, reverse.body.id].sort(),
  );
  const liveCurrent = await withKey(world.shop.liveKey).get("/v1/exchange_rates/current");
  expect(liveCurrent.body.data.map((rate: { rate: string }) => rate.rate)).toEqual(["27"]);

  const history = await withKey(world.shop.testKey).get("/v1/exchange_rates?base=USD&other=ZWG&limit=1");
  expect(history.body.data.map((rate: { id: string }) => rate.id)).toEqual([second.body.id]);
  expect(history.body.has_more).toBe(true);
  const next = await withKey(world.shop.testKey).get(
    `/v1/exchange_rates?base=USD&other=ZWG&cursor=${history.body.next_cursor}`,
  );
  expect(next.body.data.map((rate: { id: string }) => rate.id)).toEqual([first.body.id]);
  expect(next.body.has_more).toBe(false);

  const audited = await world.db.database.any(sql.unsafe`
    SELECT actor_type, target_id FROM audit_log WHERE merchant_id = ${world.shop.id} AND action = 'exchange_rate.set'`);
  expect(audited).toHaveLength(4);
});

test("bad rates and pairs are 400s that write nothing", async () => {
  for (const body of [
    { base: "USD", other: "ZWG", rate: "0" },
    { base: "USD", other: "ZWG", rate: "0.0000001" },
    { base: "USD", other: "ZWG", rate: "1e3" },
    { base: "USD", other: "ZWG", rate: "-2" },
    { base: "USD", other: "ZWG", rate: "1000000000" },
    { base: "USD", other: "USD", rate: "1" },
    { base: "USD", other: "EUR", rate: "1" },
    { base: "USD", other: "ZWG", rate: 26.5 },
  ]) {
    const response = await withKey(world.shop.testKey).post("/v1/exchange_rates", body);
    expect([response.status, response.body.error?.type]).toEqual([400, "invalid_request"]);
  }
  const count = await world.db.database.oneFirst(
    sql.unsafe`SELECT count(*)::int FROM exchange_rates WHERE merchant_id = ${world.shop.id}`,
  );
  expect(count).toBe(0);
});

test("at a till with cashiers, a cashier needs a manager; a manager's PIN approves one setting", async () => {
  const till = await openTill(world.app, world.owner);
  const { cashierId, approval } = await cashierAtTill(world.owner, till);

  const refused = await till.send("post", "/v1/exchange_rates").send({ base: "USD", other: "ZWG", rate: "26" });
  expect([refused.status, refused.body.error.code]).toEqual([403, "manager_required"]);
  const token = await approval("exchange_rate");
  const approved = await till
    .send("post", "/v1/exchange_rates")
    .set("Pos-Manager-Approval", token)
    .send({ base: "USD", other: "ZWG", rate: "26" });
  expect(approved.status).toBe(201);
  expect(approved.body.set_by).toEqual({ type: "till_user", id: cashierId });
  // The approval is used up.
  const again = await till
    .send("post", "/v1/exchange_rates")
    .set("Pos-Manager-Approval", token)
    .send({ base: "USD", other: "ZWG", rate: "27" });
  expect(again.status).toBe(403);
  // The till reads the rate in force.
  const current = await till.send("get", "/v1/exchange_rates/current");
  expect(current.body.data.map((rate: { rate: string }) => rate.rate)).toEqual(["26"]);
});

test("a rate is never changed or deleted", async () => {
  const set = await withKey(world.shop.testKey).post("/v1/exchange_rates", { base: "USD", other: "ZWG", rate: "26" });
  await expect(
    world.db.database.query(sql.unsafe`UPDATE exchange_rates SET other_per_base_micros = 1 WHERE id = ${set.body.id}`),
  ).rejects.toThrow(/never changed/);
  await expect(
    world.db.database.query(sql.unsafe`DELETE FROM exchange_rates WHERE id = ${set.body.id}`),
  ).rejects.toThrow(/never changed/);
});
