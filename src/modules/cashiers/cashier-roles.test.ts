import { randomUUID } from "node:crypto";
import { z } from "zod";
import { poolOn } from "../../../tests/support/database.ts";
import { openTill, ownerTestWorld, type TestSession } from "../../../tests/support/sessions.ts";
import type { Database } from "../../platform/db/pool.ts";
import { sql } from "../../platform/db/pool.ts";
import { PIN_ATTEMPTS_MAX } from "./schemas.ts";

/**
 * Cashiers are who they say (issue 43): roles, a manager's PIN approving one restricted request, PIN
 * attempts counted before their check, a cashier's own PIN change, and a till on its own drawer only.
 */
// Room for a burst of requests all waiting on one cashier's row at once.
const world = ownerTestWorld({ till: true, poolSize: 20 });

type Cashier = { id: string; name: string; role: string };

async function createCashier(name: string, pin: string, role?: "cashier" | "manager"): Promise<Cashier> {
  const response = await world.owner.send("post", "/v1/cashiers").send({ name, pin, role });
  expect(response.status).toBe(201);
  return response.body;
}

const switchIn = (session: TestSession, cashierId: string, pin: string) =>
  session.send("post", "/v1/session/cashier").send({ cashier_id: cashierId, pin });

const approve = (session: TestSession, managerId: string, pin: string, action: string) =>
  session.send("post", "/v1/session/manager_approvals").send({ cashier_id: managerId, pin, action });

const codeOf = (response: { status: number; body: { error?: { code: string } } }) => [
  response.status,
  response.body.error?.code,
];

const sell = (session: TestSession, body: Record<string, unknown> = {}) =>
  session
    .send("post", "/v1/sales")
    .set("Idempotency-Key", randomUUID())
    .send({ tender: "cash", items: [{ name: "Bread", qty: 1, unit_cents: 100 }], ...body });

async function openShift(session: TestSession, tillId: string): Promise<string> {
  const opened = await session
    .send("post", "/v1/shifts")
    .set("Idempotency-Key", randomUUID())
    .send({ till_id: tillId });
  expect(opened.status).toBe(201);
  return opened.body.id;
}

const auditOf = (action: string) =>
  world.db.database.any(sql.type(z.object({ actor_id: z.string(), target_type: z.string(), target_id: z.string() }))`
    SELECT actor_id, target_type, target_id FROM audit_log WHERE merchant_id = ${world.shop.id} AND action = ${action}`);

describe("cashier roles", () => {
  test("a cashier is created as a cashier or a manager; the owner changes the role; bad input is a 400", async () => {
    const tendai = await createCashier("Tendai", "4821");
    expect(tendai.role).toBe("cashier");
    const rudo = await createCashier("Rudo", "190734", "manager");
    expect(rudo.role).toBe("manager");
    const promoted = await world.owner.send("patch", `/v1/cashiers/${tendai.id}`).send({ role: "manager" });
    expect([promoted.status, promoted.body.role, promoted.body.name]).toEqual([200, "manager", "Tendai"]);
    const listed = (await world.till.send("get", "/v1/cashiers")).body.data;
    expect(listed.map((row: Cashier) => [row.name, row.role])).toEqual([
      ["Tendai", "manager"],
      ["Rudo", "manager"],
    ]);
    expect(codeOf(await world.till.send("patch", `/v1/cashiers/${tendai.id}`).send({ role: "cashier" }))).toEqual([
      403,
      "principal_not_allowed",
    ]);
    for (const body of [{}, { role: "owner" }, { name: "" }, { role: "cashier", pin: "1234" }]) {
      expect(codeOf(await world.owner.send("patch", `/v1/cashiers/${tendai.id}`).send(body))[0]).toBe(400);
    }
    expect(
      codeOf(await world.owner.send("post", "/v1/cashiers").send({ name: "X", pin: "1234", role: "boss" }))[0],
    ).toBe(400);
    expect(codeOf(await world.owner.send("patch", "/v1/cashiers/csh_nobody").send({ role: "cashier" }))).toEqual([
      404,
      "resource_missing",
    ]);
  });
});

describe("manager approval at the till", () => {
  test("a cashier's return is refused until a manager's PIN approves it; the approval is used once, for its action", async () => {
    const tendai = await createCashier("Tendai", "4821");
    const rudo = await createCashier("Rudo", "190734", "manager");
    expect((await switchIn(world.till, tendai.id, "4821")).status).toBe(200);
    const sale = await sell(world.till, { till_id: world.till.deviceId });
    expect(sale.status).toBe(409); // no drawer open yet: open it, then sell into it
    await openShift(world.till, world.till.deviceId);
    const sold = await sell(world.till, { till_id: world.till.deviceId });
    expect(sold.body.actor).toEqual({ type: "till_user", id: tendai.id });

    const key = randomUUID();
    const returnBody = { till_id: world.till.deviceId, items: [{ line: 0, qty: 1 }] };
    const giveBack = (approval?: string) => {
      const sent = world.till.send("post", `/v1/sales/${sold.body.id}/returns`).set("Idempotency-Key", key);
      return (approval === undefined ? sent : sent.set("Pos-Manager-Approval", approval)).send(returnBody);
    };
    expect(codeOf(await giveBack())).toEqual([403, "manager_required"]);
    // A cashier's PIN, a wrong manager PIN, another action's approval, a made-up token: still refused.
    expect(codeOf(await approve(world.till, tendai.id, "4821", "return"))).toEqual([403, "not_a_manager"]);
    expect(codeOf(await approve(world.till, rudo.id, "000000", "return"))).toEqual([401, "invalid_pin"]);
    const payOutApproval = await approve(world.till, rudo.id, "190734", "cash_pay_out");
    expect(payOutApproval.status).toBe(201);
    expect(codeOf(await giveBack(payOutApproval.body.token))).toEqual([403, "manager_required"]);
    expect(codeOf(await giveBack(`mga_${"x".repeat(43)}`))).toEqual([403, "manager_required"]);
    // Another till's session cannot use this till's approval.
    const approval = await approve(world.till, rudo.id, "190734", "return");
    expect(approval.body).toMatchObject({ object: "manager_approval", manager_id: rudo.id, action: "return" });
    const other = await openTill(world.app, world.owner, "Counter 2");
    expect((await switchIn(other, tendai.id, "4821")).status).toBe(200);
    const elsewhere = await other
      .send("post", `/v1/sales/${sold.body.id}/returns`)
      .set("Idempotency-Key", randomUUID())
      .set("Pos-Manager-Approval", approval.body.token)
      .send({ items: [{ line: 0, qty: 1 }] });
    expect(codeOf(elsewhere)).toEqual([403, "manager_required"]);

    // The retry with the approval and the same Idempotency-Key goes through, as Tendai's return.
    const returned = await giveBack(approval.body.token);
    expect(returned.status).toBe(201);
    expect(returned.body.sale_return.actor).toEqual({ type: "till_user", id: tendai.id });
    expect(await auditOf("manager.approved")).toEqual([
      { actor_id: rudo.id, target_type: "sale_return", target_id: returned.body.sale_return.id },
    ]);
    const second = await world.till
      .send("post", `/v1/sales/${sold.body.id}/returns`)
      .set("Idempotency-Key", randomUUID())
      .set("Pos-Manager-Approval", approval.body.token)
      .send({ items: [{ line: 0, qty: 1 }] });
    expect(codeOf(second)).toEqual([403, "manager_required"]);

    // A manager switched in returns without asking anyone.
    expect((await switchIn(world.till, rudo.id, "190734")).status).toBe(200);
    const again = await sell(world.till, { till_id: world.till.deviceId });
    const byManager = await world.till
      .send("post", `/v1/sales/${again.body.id}/returns`)
      .set("Idempotency-Key", randomUUID())
      .send({ items: [{ line: 0, qty: 1 }] });
    expect([byManager.status, byManager.body.sale_return.actor.id]).toEqual([201, rudo.id]);
  });

  test("a pay-out and a close with a difference need a manager; a pay-in and an even close do not", async () => {
    const tendai = await createCashier("Tendai", "4821");
    const rudo = await createCashier("Rudo", "190734", "manager");
    expect((await switchIn(world.till, tendai.id, "4821")).status).toBe(200);
    const shiftId = await openShift(world.till, world.till.deviceId);
    const move = (kind: string, key: string, approval?: string) => {
      const sent = world.till.send("post", `/v1/shifts/${shiftId}/cash_moves`).set("Idempotency-Key", key);
      return (approval === undefined ? sent : sent.set("Pos-Manager-Approval", approval)).send({
        kind,
        currency: "USD",
        amount_cents: 500,
        reason: "Float top-up",
      });
    };
    expect((await move("pay_in", randomUUID())).status).toBe(201);
    const payOutKey = randomUUID();
    expect(codeOf(await move("pay_out", payOutKey))).toEqual([403, "manager_required"]);
    const approval = await approve(world.till, rudo.id, "190734", "cash_pay_out");
    const paidOut = await move("pay_out", payOutKey, approval.body.token);
    expect(paidOut.status).toBe(201);
    expect(paidOut.body.cash_move.actor).toEqual({ type: "till_user", id: tendai.id });
    expect(await auditOf("manager.approved")).toEqual([
      { actor_id: rudo.id, target_type: "shift_cash_move", target_id: paidOut.body.cash_move.id },
    ]);

    // The drawer should hold 0: counting 300 is a difference.
    const closeKey = randomUUID();
    const close = (amount: number, key: string, approval?: string) => {
      const sent = world.till.send("post", `/v1/shifts/${shiftId}/close`).set("Idempotency-Key", key);
      return (approval === undefined ? sent : sent.set("Pos-Manager-Approval", approval)).send({
        counted: [{ currency: "USD", amount_cents: amount }],
      });
    };
    expect(codeOf(await close(300, closeKey))).toEqual([403, "manager_required"]);
    expect((await world.till.send("get", `/v1/shifts/${shiftId}`)).body.status).toBe("open");
    const closeApproval = await approve(world.till, rudo.id, "190734", "shift_close");
    const closed = await close(300, closeKey, closeApproval.body.token);
    expect([closed.status, closed.body.cash[0].over_short_cents]).toEqual([200, 300]);

    // An even close needs nobody.
    const evenShift = await openShift(world.till, world.till.deviceId);
    const even = await world.till
      .send("post", `/v1/shifts/${evenShift}/close`)
      .set("Idempotency-Key", randomUUID())
      .send({ counted: [{ currency: "USD", amount_cents: 0 }] });
    expect(even.status).toBe(200);
  });

  test("bad input to the approval route is an error envelope; only a till session asks", async () => {
    const rudo = await createCashier("Rudo", "190734", "manager");
    for (const body of [
      {},
      { cashier_id: rudo.id, pin: "19", action: "return" },
      { cashier_id: rudo.id, pin: "190734", action: "refund_everything" },
      { cashier_id: 7, pin: "190734", action: "return" },
    ]) {
      const refused = await world.till.send("post", "/v1/session/manager_approvals").send(body);
      expect([refused.status, refused.body.error.type]).toEqual([400, "invalid_request"]);
    }
    expect(codeOf(await approve(world.till, "csh_nobody", "190734", "return"))).toEqual([404, "resource_missing"]);
    expect(codeOf(await approve(world.owner, rudo.id, "190734", "return"))).toEqual([403, "principal_not_allowed"]);
  });
});

describe("PINs", () => {
  test("a cashier changes their own PIN with the current one; nobody switched in cannot", async () => {
    const tendai = await createCashier("Tendai", "4821");
    const change = (body: Record<string, unknown>) => world.till.send("post", "/v1/session/cashier/pin").send(body);
    expect(codeOf(await change({ current_pin: "4821", new_pin: "7777" }))).toEqual([403, "cashier_required"]);
    expect((await switchIn(world.till, tendai.id, "4821")).status).toBe(200);
    expect(codeOf(await change({ current_pin: "1111", new_pin: "7777" }))).toEqual([401, "invalid_pin"]);
    expect(codeOf(await change({ current_pin: "4821", new_pin: "77" }))).toEqual([400, "parameter_invalid"]);
    expect(codeOf(await change({ current_pin: "4821" }))[0]).toBe(400);
    const changed = await change({ current_pin: "4821", new_pin: "7777" });
    expect([changed.status, changed.body.failed_pin_attempts]).toEqual([200, 0]);
    expect(codeOf(await switchIn(world.till, tendai.id, "4821"))).toEqual([401, "invalid_pin"]);
    expect((await switchIn(world.till, tendai.id, "7777")).status).toBe(200);
    expect(
      codeOf(await world.owner.send("post", "/v1/session/cashier/pin").send({ current_pin: "7777", new_pin: "1234" })),
    ).toEqual([403, "principal_not_allowed"]);
  });

  // A right PIN sent while the burst waits on the row may take a slot before some of the burst (PostgreSQL
  // wakes a row lock's waiters without a guaranteed order), so it is sent once the burst has its answers.
  test("a burst of wrong PINs at once gets the limit's worth of checks; the right PIN after it is refused", async () => {
    const tendai = await createCashier("Tendai", "4821");
    const wrong = 8;
    // Hold the cashier's row so every attempt queues on it, then let them through at once.
    const holder = await poolOn(world.db.url, 1);
    try {
      const burst = await holdingRow(holder, tendai.id, async (waitFor) => {
        const sent = Array.from({ length: wrong }, () => switchIn(world.till, tendai.id, "9999").then((r) => r));
        await waitFor(wrong);
        return sent;
      });
      const codes = (await Promise.all(burst)).map((answer) => codeOf(answer).join(" ")).sort();
      expect(codes).toEqual([
        ...Array.from({ length: PIN_ATTEMPTS_MAX - 1 }, () => "401 invalid_pin"),
        ...Array.from({ length: wrong - (PIN_ATTEMPTS_MAX - 1) }, () => "403 cashier_locked"),
      ]);
      expect(codeOf(await switchIn(world.till, tendai.id, "4821"))).toEqual([403, "cashier_locked"]);
    } finally {
      await holder.end();
    }
    const row = (await world.owner.send("get", "/v1/cashiers")).body.data[0];
    expect([row.status, row.failed_pin_attempts]).toEqual(["locked", PIN_ATTEMPTS_MAX]);
  });
});

/**
 * Runs `start` while a transaction holds the cashier's row, with `waitFor(n)` resolving once n PIN
 * attempts wait on that row (deadline 30 s), then releases the row; answers what `start` returned.
 */
async function holdingRow<T>(
  holder: Database,
  cashierId: string,
  start: (waitFor: (n: number) => Promise<void>) => Promise<T>,
): Promise<T> {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let locked: () => void = () => {};
  const isLocked = new Promise<void>((resolve) => {
    locked = resolve;
  });
  const held = holder.transaction(async (transaction) => {
    await transaction.query(sql.unsafe`SELECT id FROM cashiers WHERE id = ${cashierId} FOR UPDATE`);
    locked();
    await released;
  });
  await isLocked;
  try {
    return await start(async (n) => {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const waiting = await world.db.database.oneFirst(sql.type(z.object({ n: z.number() }))`
          SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = ${world.db.name} AND wait_event_type = 'Lock' AND query LIKE '%failed_pin_attempts + 1%'`);
        if (waiting >= n) return;
        if (Date.now() > deadline) throw new Error(`only ${waiting} of ${n} PIN attempts are waiting on the row`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    });
  } finally {
    release();
    await held;
  }
}
