import { newMerchant } from "../../../tests/support/factories.ts";
import { servedPlatformWorld } from "../../../tests/support/served-platform.ts";
import { ok, SHOP_DAY_CASHIER, SHOP_DAY_TILL, shopDay } from "../../../tests/support/shop-http.ts";

/**
 * The Z report (issue 46: "the till's Z report names the till by its id and leaves out cashier names,
 * counts and cash moves that the dashboard's has"): one report, read alike by the till and the owner.
 */
const world = servedPlatformWorld();

type ZReport = {
  object: string;
  shift: { id: string; cash: { currency: string; cash_sales_count: number; refunds_count: number }[] };
  till: { id: string; name: string | null };
  opened_by: { name: string };
  closed_by: { name: string } | null;
  cashiers: { name: string; cash_sales_count: number; refunds_count: number }[];
  cash_moves: {
    kind: string;
    currency: string;
    amount_cents: number;
    reason: string | null;
    actor: { name: string };
  }[];
  cash_moves_has_more: boolean;
};

test("a closed shift's Z report names the till and the cashier, counts their sales and refunds, and lists the drawer's moves; the till and the owner read the same", async () => {
  const shop = await newMerchant(world.db.database);
  const day = await shopDay(world.platform.baseUrl, shop.email);
  const path = `/v1/shifts/${day.shiftId}/z_report`;
  const report = await ok<ZReport>(day.till.call("GET", path));
  expect(report.object).toBe("z_report");
  expect(report.shift.id).toBe(day.shiftId);
  expect(report.till).toEqual({ id: day.tillId, name: SHOP_DAY_TILL });
  expect([report.opened_by.name, report.closed_by?.name]).toEqual([SHOP_DAY_CASHIER, SHOP_DAY_CASHIER]);
  expect(report.cashiers).toEqual([
    expect.objectContaining({ name: SHOP_DAY_CASHIER, cash_sales_count: 3, refunds_count: 1 }),
  ]);
  expect(report.shift.cash.map((cash) => [cash.currency, cash.cash_sales_count, cash.refunds_count])).toEqual([
    ["USD", 2, 1],
    ["ZWG", 1, 0],
  ]);
  // Floats, the refund and the pay-out; the cash sales are counted, not listed.
  expect(report.cash_moves.map((move) => [move.kind, move.currency, move.amount_cents, move.actor.name])).toEqual([
    ["float", "USD", 5_000, SHOP_DAY_CASHIER],
    ["float", "ZWG", 20_000, SHOP_DAY_CASHIER],
    ["return", "USD", -625, SHOP_DAY_CASHIER],
    ["pay_out", "ZWG", -500, SHOP_DAY_CASHIER],
  ]);
  expect(report.cash_moves_has_more).toBe(false);
  expect(await ok<ZReport>(day.owner.call("GET", path))).toEqual(report);
});

test("an open shift of a till that is not paired, opened by the owner: no till name, the owner named, nothing closed", async () => {
  const shop = await newMerchant(world.db.database);
  const day = await shopDay(world.platform.baseUrl, shop.email);
  const shift = await ok<{ id: string }>(
    day.owner.call("POST", "/v1/shifts", { till_id: "till-2", float: [{ currency: "USD", amount_cents: 1_000 }] }),
  );
  const report = await ok<ZReport>(day.owner.call("GET", `/v1/shifts/${shift.id}/z_report`));
  expect(report.till).toEqual({ id: "till-2", name: null });
  expect([report.opened_by.name, report.closed_by]).toEqual(["Owner", null]);
  expect(report.cashiers).toEqual([expect.objectContaining({ name: "Owner", cash_sales_count: 0, refunds_count: 0 })]);
  expect((await day.owner.call("GET", "/v1/shifts/shift_missing/z_report")).status).toBe(404);
});
