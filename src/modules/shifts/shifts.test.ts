import { randomUUID } from "node:crypto";
import { z } from "zod";
import { type Client, eventsOfType } from "../../../tests/support/pos.ts";
import { salesTestWorld } from "../../../tests/support/sales.ts";
import { sql } from "../../platform/db/pool.ts";

const world = salesTestWorld();

const cashSale = (api: Client, body: { till_id?: string; currency?: string; unit_cents: number }) =>
  api.post("/v1/sales", {
    tender: "cash",
    currency: body.currency ?? "USD",
    ...(body.till_id === undefined ? {} : { till_id: body.till_id }),
    items: [{ name: "Goods", qty: 1, unit_cents: body.unit_cents }],
  });

async function openShift(api: Client, tillId: string, float: { currency: string; amount_cents: number }[]) {
  const response = await api.post("/v1/shifts", { till_id: tillId, float });
  expect(response.status).toBe(201);
  return response.body as { id: string; cash: { currency: string }[] };
}

const cashOf = (shift: { cash: { currency: string }[] }, currency: string) =>
  shift.cash.find((entry) => entry.currency === currency);

const countRows = async (shiftId: string) =>
  world.db.database.any(sql.type(
    z.object({ currency: z.string(), expected_cents: z.number(), counted_cents: z.number() }),
  )`
    SELECT currency, expected_cents, counted_cents FROM shift_counts WHERE shift_id = ${shiftId} ORDER BY currency`);

describe("shift arithmetic per currency", () => {
  test("float, cash sales, a return, pay-ins and pay-outs in USD and ZWG side by side; close → expected, counted, over and short", async () => {
    const shift = await openShift(world.live, "till-1", [
      { currency: "USD", amount_cents: 5_000 },
      { currency: "ZWG", amount_cents: 20_000 },
    ]);
    expect(shift).toMatchObject({ object: "shift", status: "open", till_id: "till-1", livemode: true });
    const sales = [
      await cashSale(world.live, { till_id: "till-1", unit_cents: 1_250 }),
      await cashSale(world.live, { till_id: "till-1", unit_cents: 199 }),
      await cashSale(world.live, { till_id: "till-1", currency: "ZWG", unit_cents: 3_000 }),
    ];
    expect(sales.map((sale) => [sale.status, sale.body.shift_id, sale.body.till_id])).toEqual(
      Array(3).fill([201, shift.id, "till-1"]),
    );
    // Not in this drawer: a sale without a till, and a sale on a till that has no open shift.
    expect((await cashSale(world.live, { unit_cents: 700 })).body.shift_id).toBeNull();
    const noShift = await cashSale(world.live, { till_id: "till-2", unit_cents: 700 });
    expect([noShift.status, noShift.body.error.code]).toEqual([409, "shift_not_open"]);

    const payIn = await world.live.post(`/v1/shifts/${shift.id}/cash_moves`, {
      kind: "pay_in",
      currency: "USD",
      amount_cents: 1_000,
      reason: "Change from the bank",
    });
    expect(payIn.status).toBe(201);
    expect(payIn.body.cash_move).toMatchObject({ kind: "pay_in", currency: "USD", amount_cents: 1_000 });
    const payOut = await world.live.post(`/v1/shifts/${shift.id}/cash_moves`, {
      kind: "pay_out",
      currency: "ZWG",
      amount_cents: 500,
      reason: "Paid the cleaner",
    });
    expect(payOut.body.cash_move.amount_cents).toBe(-500);

    // The 1.99 sale comes back: refunded from this drawer.
    const returned = await world.live.post(`/v1/sales/${sales[1]?.body.id}/returns`, {
      till_id: "till-1",
      items: [{ line: 0, qty: 1 }],
    });
    expect(returned.status).toBe(201);

    const open = (await world.live.get(`/v1/shifts/${shift.id}`)).body;
    expect(cashOf(open, "USD")).toEqual({
      currency: "USD",
      float_cents: 5_000,
      cash_sales_cents: 1_449,
      cash_sales_count: 2,
      refunds_cents: 199,
      refunds_count: 1,
      pay_ins_cents: 1_000,
      pay_outs_cents: 0,
      expected_cents: 7_250,
      counted_cents: null,
      over_short_cents: null,
    });
    expect(cashOf(open, "ZWG")).toMatchObject({ float_cents: 20_000, cash_sales_cents: 3_000, pay_outs_cents: 500 });
    expect(cashOf(open, "ZWG")).toMatchObject({ expected_cents: 22_500 });

    const closed = await world.live.post(`/v1/shifts/${shift.id}/close`, {
      counted: [
        { currency: "USD", amount_cents: 7_200 },
        { currency: "ZWG", amount_cents: 22_600 },
      ],
      note: "Busy day",
    });
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ status: "closed", close_note: "Busy day", closed_by: { type: "api_key" } });
    expect(cashOf(closed.body, "USD")).toMatchObject({
      expected_cents: 7_250,
      counted_cents: 7_200,
      over_short_cents: -50,
    });
    expect(cashOf(closed.body, "ZWG")).toMatchObject({
      expected_cents: 22_500,
      counted_cents: 22_600,
      over_short_cents: 100,
    });
    expect(await countRows(shift.id)).toEqual([
      { currency: "USD", expected_cents: 7_250, counted_cents: 7_200 },
      { currency: "ZWG", expected_cents: 22_500, counted_cents: 22_600 },
    ]);
    expect((await world.live.get(`/v1/shifts/${shift.id}`)).body).toEqual(closed.body);

    const opened = await eventsOfType(world.db, world.shop.id, "shift.opened");
    expect(opened).toEqual([
      {
        livemode: true,
        data: expect.objectContaining({
          shift_id: shift.id,
          till_id: "till-1",
          float: [
            { currency: "USD", amount_cents: 5_000 },
            { currency: "ZWG", amount_cents: 20_000 },
          ],
        }),
      },
    ]);
    const closedEvents = await eventsOfType(world.db, world.shop.id, "shift.closed");
    expect(closedEvents).toHaveLength(1);
    expect(closedEvents[0]?.data.cash).toEqual(closed.body.cash);

    // Nothing joins a closed shift.
    expect((await cashSale(world.live, { till_id: "till-1", unit_cents: 100 })).body.error.code).toBe("shift_not_open");
    const late = await world.live.post(`/v1/shifts/${shift.id}/cash_moves`, {
      kind: "pay_in",
      currency: "USD",
      amount_cents: 1,
      reason: "late",
    });
    expect([late.status, late.body.error.code]).toEqual([409, "shift_not_open"]);
    const again = await world.live.post(`/v1/shifts/${shift.id}/close`, { counted: [] });
    expect([again.status, again.body.error.code]).toEqual([409, "shift_not_open"]);
  });

  test("every currency the drawer holds must be counted; a currency counted but not held is all over", async () => {
    const shift = await openShift(world.live, "till-1", [{ currency: "USD", amount_cents: 2_000 }]);
    const uncounted = await world.live.post(`/v1/shifts/${shift.id}/close`, { counted: [] });
    expect([uncounted.status, uncounted.body.error.code]).toEqual([400, "parameter_missing"]);
    expect(uncounted.body.error.message).toContain("USD");
    expect((await world.live.get(`/v1/shifts/${shift.id}`)).body.status).toBe("open");
    const closed = await world.live.post(`/v1/shifts/${shift.id}/close`, {
      counted: [
        { currency: "ZWG", amount_cents: 300 },
        { currency: "USD", amount_cents: 2_000 },
      ],
    });
    expect(cashOf(closed.body, "USD")).toMatchObject({ expected_cents: 2_000, over_short_cents: 0 });
    expect(cashOf(closed.body, "ZWG")).toMatchObject({ expected_cents: 0, counted_cents: 300, over_short_cents: 300 });
  });
});

describe("one open shift per till", () => {
  test("a second open is refused; concurrent opens make one shift; worlds and tills are separate", async () => {
    const opens = await Promise.all(
      Array.from({ length: 6 }, () => world.live.post("/v1/shifts", { till_id: "till-9" })),
    );
    expect(opens.filter((open) => open.status === 201)).toHaveLength(1);
    expect(opens.filter((open) => open.status === 409).map((open) => open.body.error.code)).toEqual(
      Array(5).fill("shift_already_open"),
    );
    expect((await world.testWorld.post("/v1/shifts", { till_id: "till-9" })).status).toBe(201);
    expect((await world.live.post("/v1/shifts", { till_id: "till-10" })).status).toBe(201);
    const listed = await world.live.get("/v1/shifts", { till_id: "till-9", status: "open" });
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0].livemode).toBe(true);
    expect((await world.live.get("/v1/shifts")).body.data).toHaveLength(2);
    expect((await world.testWorld.get(`/v1/shifts/${listed.body.data[0].id}`)).status).toBe(404);
  });
});

describe("closing under concurrency", () => {
  test("concurrent closes: one closes, the others are refused; counts and shift.closed exist once", async () => {
    const shift = await openShift(world.live, "till-1", [{ currency: "USD", amount_cents: 1_000 }]);
    const closes = await Promise.all(
      Array.from({ length: 5 }, (_, index) =>
        world.live.post(`/v1/shifts/${shift.id}/close`, {
          counted: [{ currency: "USD", amount_cents: 1_000 + index }],
        }),
      ),
    );
    expect(closes.filter((close) => close.status === 200)).toHaveLength(1);
    expect(closes.filter((close) => close.status === 409)).toHaveLength(4);
    expect(await countRows(shift.id)).toHaveLength(1);
    expect(await eventsOfType(world.db, world.shop.id, "shift.closed")).toHaveLength(1);
  });

  test("cash sales racing the close: each is either in the closed drawer's expected cash or refused", async () => {
    const shift = await openShift(world.live, "till-1", [{ currency: "USD", amount_cents: 1_000 }]);
    const sales = Array.from({ length: 20 }, (_, index) =>
      cashSale(world.live, { till_id: "till-1", unit_cents: 100 + index }),
    );
    const close = world.live.post(`/v1/shifts/${shift.id}/close`, { counted: [{ currency: "USD", amount_cents: 0 }] });
    const [closed, ...answers] = await Promise.all([close, ...sales]);
    expect(closed?.status).toBe(200);
    const recorded = answers.filter((answer) => answer.status === 201);
    const refused = answers.filter((answer) => answer.status === 409);
    expect(recorded.length + refused.length).toBe(20);
    expect(refused.every((answer) => answer.body.error.code === "shift_not_open")).toBe(true);
    const expected = 1_000 + recorded.reduce((sum, answer) => sum + answer.body.total_cents, 0);
    expect(cashOf(closed?.body, "USD")).toMatchObject({ expected_cents: expected, cash_sales_count: recorded.length });
    const inShift = await world.db.database.oneFirst(sql.type(z.object({ count: z.number() }))`
      SELECT count(*)::int AS count FROM sales WHERE shift_id = ${shift.id}`);
    expect(inShift).toBe(recorded.length);
  });
});

describe("refused input", () => {
  test("amounts, currencies, reasons and unknown shifts get the error envelope", async () => {
    const shift = await openShift(world.live, "till-1", []);
    const cases: [string, unknown, number, string][] = [
      ["/v1/shifts", { till_id: "till-2", float: [{ currency: "USD", amount_cents: -1 }] }, 400, "invalid_amount"],
      ["/v1/shifts", { till_id: "till-2", float: [{ currency: "EUR", amount_cents: 1 }] }, 400, "invalid_currency"],
      [
        "/v1/shifts",
        {
          till_id: "till-2",
          float: [
            { currency: "USD", amount_cents: 1 },
            { currency: "USD", amount_cents: 2 },
          ],
        },
        400,
        "parameter_invalid",
      ],
      ["/v1/shifts", { till_id: "till 2" }, 400, "parameter_invalid"],
      [
        `/v1/shifts/${shift.id}/cash_moves`,
        { kind: "pay_out", currency: "USD", amount_cents: 100 },
        400,
        "parameter_missing",
      ],
      [
        `/v1/shifts/${shift.id}/cash_moves`,
        { kind: "pay_out", currency: "USD", amount_cents: 0, reason: "x" },
        400,
        "invalid_amount",
      ],
      [
        "/v1/shifts/shift_nope/cash_moves",
        { kind: "pay_in", currency: "USD", amount_cents: 1, reason: "x" },
        404,
        "resource_missing",
      ],
      ["/v1/shifts/shift_nope/close", { counted: [] }, 404, "resource_missing"],
    ];
    for (const [path, body, status, code] of cases) {
      const answer = await world.live.post(path, body);
      expect([path, answer.status, answer.body.error?.code]).toEqual([path, status, code]);
    }
    expect((await world.live.get("/v1/shifts", { till_id: "till-2" })).body.data).toEqual([]);
  });

  test("an idempotent retry of a pay-out replays it and moves nothing twice", async () => {
    const shift = await openShift(world.live, "till-1", [{ currency: "USD", amount_cents: 5_000 }]);
    const key = randomUUID();
    const body = { kind: "pay_out", currency: "USD", amount_cents: 800, reason: "Supplier" };
    const first = await world.live.post(`/v1/shifts/${shift.id}/cash_moves`, body, key);
    const replay = await world.live.post(`/v1/shifts/${shift.id}/cash_moves`, body, key);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(replay.body).toEqual(first.body);
    expect(cashOf((await world.live.get(`/v1/shifts/${shift.id}`)).body, "USD")).toMatchObject({
      expected_cents: 4_200,
    });
  });
});

describe("a shift's cash moves", () => {
  test("listed oldest first with signed amounts, page by page; another world's or an unknown shift is a 404", async () => {
    const shift = await openShift(world.live, "till-1", [
      { currency: "USD", amount_cents: 5_000 },
      { currency: "ZWG", amount_cents: 20_000 },
    ]);
    const sale = await cashSale(world.live, { till_id: "till-1", unit_cents: 1_250 });
    await world.live.post(`/v1/shifts/${shift.id}/cash_moves`, {
      kind: "pay_out",
      currency: "ZWG",
      amount_cents: 500,
      reason: "Paid the cleaner",
    });
    const all = await world.live.get(`/v1/shifts/${shift.id}/cash_moves`);
    expect(all.status).toBe(200);
    const moves = all.body.data as { kind: string; currency: string; amount_cents: number; sale_id: string | null }[];
    const summary = moves.map((move) => [move.kind, move.currency, move.amount_cents]);
    // The two floats share the opening's instant (one transaction): their order is by id.
    expect(summary.slice(0, 2).sort()).toEqual([
      ["float", "USD", 5_000],
      ["float", "ZWG", 20_000],
    ]);
    expect(summary.slice(2)).toEqual([
      ["sale", "USD", 1_250],
      ["pay_out", "ZWG", -500],
    ]);
    expect(moves[2]?.sale_id).toBe(sale.body.id);
    expect(all.body).toMatchObject({ has_more: false, next_cursor: null });
    // The journal in the database, in the same order.
    const stored = await world.db.database.anyFirst(sql.type(z.object({ id: z.string() }))`
      SELECT id FROM shift_cash_moves WHERE shift_id = ${shift.id} ORDER BY created_at, id`);
    expect((all.body.data as { id: string }[]).map((move) => move.id)).toEqual(stored);

    const first = await world.live.get(`/v1/shifts/${shift.id}/cash_moves`, { limit: 3 });
    expect(first.body.has_more).toBe(true);
    const second = await world.live.get(`/v1/shifts/${shift.id}/cash_moves`, {
      limit: 3,
      cursor: first.body.next_cursor,
    });
    expect([...first.body.data, ...second.body.data].map((move: { id: string }) => move.id)).toEqual(stored);
    expect(second.body.has_more).toBe(false);

    for (const answer of [
      await world.testWorld.get(`/v1/shifts/${shift.id}/cash_moves`),
      await world.live.get("/v1/shifts/shift_nope/cash_moves"),
    ]) {
      expect([answer.status, answer.body.error.code]).toEqual([404, "resource_missing"]);
    }
    const badCursor = await world.live.get(`/v1/shifts/${shift.id}/cash_moves`, { cursor: "nope" });
    expect([badCursor.status, badCursor.body.error.code]).toEqual([400, "parameter_invalid"]);
  });
});
