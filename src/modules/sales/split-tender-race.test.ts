import { z } from "zod";
import { eventsOfType, movesOf } from "../../../tests/support/pos.ts";
import { salesTestWorld } from "../../../tests/support/sales.ts";
import { cashTender, sellSplit, tenderHelpers, walletTender } from "../../../tests/support/tenders.ts";
import { waitUntil } from "../../../tests/support/time.ts";
import { type Database, sql } from "../../platform/db/pool.ts";
import * as payments from "../payments/service.ts";
import { salePaymentHook } from "./payment-end.ts";

/**
 * Two wallet tenders of one split sale paid at the same instant by two processes (docs/shop.md, "Split
 * and two-currency tender"): each statement read the other tender as pending, so neither completes
 * the sale in the statement; the check each makes once committed completes it, once.
 */

const world = salesTestWorld();
const { openShop } = tenderHelpers(world);

/**
 * The pool as one process sees it, whose statement ending split tenders waits until `meeting` has
 * seen that statement from every process: both have read the sale's tenders before either writes.
 */
function heldAtTenderEnds(database: Database, meeting: { arrive: () => Promise<void> }): Database {
  return new Proxy(database, {
    get: (target, property, receiver) => {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      return async (...args: unknown[]) => {
        const text = (args[0] as { sql?: unknown } | undefined)?.sql;
        if (typeof text === "string" && text.includes("sales_tenders_ended")) await meeting.arrive();
        return value.apply(target, args);
      };
    },
  });
}

/** Resolves each arrival once `parties` have arrived; refuses after `deadlineMs` (the statement never came). */
function meetingOf(parties: number, deadlineMs: number) {
  let arrived = 0;
  let release: () => void = () => {};
  const all = new Promise<void>((resolve, reject) => {
    release = resolve;
    setTimeout(() => reject(new Error(`${arrived} of ${parties} statements reached the meeting`)), deadlineMs).unref();
  });
  return {
    arrive: () => {
      arrived += 1;
      if (arrived === parties) release();
      return all;
    },
  };
}

test("two wallet tenders paid at once by two processes: the sale completes once, after both commits", async () => {
  const api = world.testWorld;
  const { product } = await openShop(api);
  const sale = await sellSplit(api, product, 1, [
    cashTender("USD", 200),
    walletTender("USD", 300),
    walletTender("USD", 500),
  ]);
  expect(sale.body).toMatchObject({ status: "pending", paid_cents: 200, due_cents: 800 });
  const [, first, second] = sale.body.tenders as { payment_id: string }[];
  const meeting = meetingOf(2, 20_000);
  const settle = async (paymentId: string) => {
    const database = heldAtTenderEnds(world.db.database, meeting);
    const pending = await payments.getPaymentById(world.db.database, paymentId);
    return payments.settlePayment({ database, paymentHooks: [salePaymentHook] }, pending, {
      paidAt: new Date(),
      payerMsisdn: null,
    });
  };
  const settled = await Promise.all([settle(first?.payment_id ?? ""), settle(second?.payment_id ?? "")]);
  expect(settled.map((payment) => payment.status)).toEqual(["paid", "paid"]);

  // Read from the table, not through the API, whose read would complete the sale itself.
  const statusOf = () =>
    world.db.database.oneFirst(sql.type(z.object({ status: z.string() }))`
      SELECT status FROM sales WHERE id = ${sale.body.id}`);
  await waitUntil("the sale is completed", async () => (await statusOf()) === "completed");
  expect(await eventsOfType(world.db, world.shop.id, "sale.completed")).toHaveLength(1);
  const saleMoves = (await movesOf(world.db, product.id)).filter((move) => move.kind === "sale");
  expect(saleMoves.map((move) => [move.sale_id, move.qty_delta])).toEqual([[sale.body.id, -1]]);
});
