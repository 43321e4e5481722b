import { countingDatabase } from "../../../tests/support/counting-database.ts";
import { poolOn } from "../../../tests/support/database.ts";
import { newMerchant } from "../../../tests/support/factories.ts";
import { sampleValue } from "../../../tests/support/metrics.ts";
import { accountBalances } from "../../../tests/support/money.ts";
import { paymentsTestWorld } from "../../../tests/support/payments.ts";
import { type Database, sql } from "../../platform/db/pool.ts";
import type { PaymentHooks } from "./hooks.ts";
import type { PaymentRow } from "./schemas.ts";
import * as payments from "./service.ts";

/** Payments' ends are written with the others of their moment (`payment-ends.ts`). */

const world = paymentsTestWorld();
const observation = { paidAt: new Date("2026-11-27T01:02:03.000Z"), payerMsisdn: "263771234567" };

/** Pending payments of 1,000, 2,000, … cents for each merchant's test key, in order. */
async function pendingPayments(keys: readonly string[], perMerchant: number): Promise<PaymentRow[]> {
  const { app } = world.setup();
  const created: PaymentRow[] = [];
  for (const key of keys) {
    for (let index = 1; index <= perMerchant; index += 1) {
      const response = await world.create(app, key, { amount_cents: index * 1000 });
      expect(response.status).toBe(201);
      created.push(await payments.getPaymentById(world.db.database, response.body.id));
    }
  }
  return created;
}

// One list for every settlement: a process's writer is per database and list of hooks.
const noHooks: PaymentHooks = [];
const settle = (database: Database, payment: PaymentRow) =>
  payments.settlePayment({ database, paymentHooks: noHooks }, payment, observation);

describe("settlements of one moment", () => {
  test("are one statement and one transaction; each is paid, announced and moved once, a second observation changes nothing", async () => {
    const other = await newMerchant(world.db.database, { fee_bps: 150, fee_fixed_cents: 0 });
    // Interleaved across the merchants, so the statement has to order them itself.
    const created = await pendingPayments([world.shop.testKey, other.testKey], 3);
    const counted = countingDatabase(world.db.database);
    const statementsBefore = await sampleValue("pos_payment_ends_per_statement");
    const answers = await Promise.all([
      ...created.map((payment) => settle(counted.database, payment)),
      settle(counted.database, created[0] as PaymentRow),
    ]);
    expect(await sampleValue("pos_payment_ends_per_statement")).toBe(statementsBefore + 1);
    // The settlements' one statement, and the duplicate's read of the payment as it now stands.
    expect(counted.callsOf("any")).toBe(1);
    expect(counted.callsOf("transaction")).toBe(0);
    expect(counted.statements()).toBe(2);
    for (const answer of answers) {
      expect(answer).toMatchObject({ status: "paid", paid_at: observation.paidAt, payer_msisdn: "263771234567" });
    }
    expect(answers.map((answer) => answer.id)).toEqual([...created.map((payment) => payment.id), created[0]?.id]);
    for (const payment of created) {
      expect(await world.eventsOf(payment.id)).toEqual([
        {
          type: "payment.paid",
          data: {
            payment_id: payment.id,
            amount_cents: payment.amount_cents,
            currency: "USD",
            fee_cents: payment.fee_cents,
            merchant_ref: null,
            reference: payment.reference,
          },
        },
      ]);
      expect(await world.ledgerTransactionsOf(payment.id)).toBe(1);
    }
    // 1,000 + 2,000 + 3,000 less 1.5 % each, on each merchant's own accounts.
    for (const merchantId of [world.shop.id, other.id]) {
      expect(await accountBalances(world.db.database, merchantId, false)).toEqual({
        gateway_clearing: { USD: -6000 },
        merchant_available: { USD: 5910 },
        platform_fees: { USD: 90 },
      });
    }
  });

  test("two processes' writers settling the same payments at once, in opposite orders: each paid, announced and moved once", async () => {
    const other = await newMerchant(world.db.database, { fee_bps: 150, fee_fixed_cents: 0 });
    const created = await pendingPayments([world.shop.testKey, other.testKey], 10);
    // Each its own pool, so each its own writer, as two replicas of a pool are.
    const pools = await Promise.all([poolOn(world.db.url, 4), poolOn(world.db.url, 4)]);
    const [first, second] = pools.map((pool) => countingDatabase(pool));
    if (first === undefined || second === undefined) throw new Error("two pools");
    try {
      const answers = await Promise.all([
        ...created.map((payment) => settle(first.database, payment)),
        ...[...created].reverse().map((payment) => settle(second.database, payment)),
      ]);
      expect(answers.every((answer) => answer.status === "paid")).toBe(true);
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
    // One statement each and nothing written again one at a time: each payment was settled by one of
    // them, and the other found it paid and read it back.
    expect(first.callsOf("any") + second.callsOf("any")).toBe(2);
    expect(first.callsOf("maybeOne") + second.callsOf("maybeOne")).toBe(20);
    for (const payment of created) {
      expect((await world.eventsOf(payment.id)).map((event) => event.type)).toEqual(["payment.paid"]);
      expect(await world.ledgerTransactionsOf(payment.id)).toBe(1);
    }
    // 1,000 + 2,000 + … + 10,000 less 1.5 % each.
    for (const merchantId of [world.shop.id, other.id]) {
      expect(await world.balanceOf(merchantId, false)).toEqual({ USD: 55_000 - 825 });
    }
  });

  test("a statement the database refuses is written again one settlement per statement: only the one at fault fails", async () => {
    const [first, second, third] = await pendingPayments([world.shop.testKey], 3);
    if (first === undefined || second === undefined || third === undefined) throw new Error("three payments");
    // A fee above what the merchant would hold: its posting overdraws merchant_available, refused by the database.
    const overdrawing = { ...second, fee_cents: second.amount_cents + 500_000 };
    const counted = countingDatabase(world.db.database);
    const statementsBefore = await sampleValue("pos_payment_ends_per_statement");
    const [paidFirst, refused, paidThird] = await Promise.allSettled([
      settle(counted.database, first),
      settle(counted.database, overdrawing),
      settle(counted.database, third),
    ]);
    // The three together, then each alone (counted as four statements).
    expect(counted.callsOf("any")).toBe(1);
    expect(counted.statements()).toBe(4);
    expect(await sampleValue("pos_payment_ends_per_statement")).toBe(statementsBefore + 4);
    expect(paidFirst).toMatchObject({ status: "fulfilled", value: { status: "paid" } });
    expect(paidThird).toMatchObject({ status: "fulfilled", value: { status: "paid" } });
    expect(refused.status).toBe("rejected");
    expect(await payments.getPaymentById(world.db.database, second.id)).toMatchObject({ status: "pending" });
    expect(await world.eventsOf(second.id)).toEqual([]);
    expect(await world.ledgerTransactionsOf(second.id)).toBe(0);
    expect(await world.balanceOf(world.shop.id, false)).toEqual({ USD: 985 + 2955 });
  });

  test("expiries and settlements of one moment share the statement: each ends once as observed, a window still open stays pending, paid wins over expired", async () => {
    const [due, notDue, forced, settled, contested] = await pendingPayments([world.shop.testKey], 5);
    if (
      due === undefined ||
      notDue === undefined ||
      forced === undefined ||
      settled === undefined ||
      contested === undefined
    )
      throw new Error("five payments");
    await world.db.database.query(sql.unsafe`
      UPDATE payments SET expires_at = now() - interval '1 second' WHERE id = ${due.id}`);
    const counted = countingDatabase(world.db.database);
    const ending = { database: counted.database, paymentHooks: noHooks };
    const statementsBefore = await sampleValue("pos_payment_ends_per_statement");
    const answers = await Promise.all([
      payments.expirePayment(ending, due, { onlyWhenDue: true }),
      payments.expirePayment(ending, notDue, { onlyWhenDue: true }),
      payments.expirePayment(ending, forced, { onlyWhenDue: false }),
      settle(counted.database, settled),
      // Observed expired and paid in the same moment: the money moved, so paid.
      payments.expirePayment(ending, contested, { onlyWhenDue: false }),
      settle(counted.database, contested),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual(["expired", "pending", "expired", "paid", "paid", "paid"]);
    // The ends' one statement, and the reads of the payments it did not end (the window still open,
    // the contested payment's expiry).
    expect(await sampleValue("pos_payment_ends_per_statement")).toBe(statementsBefore + 1);
    expect([counted.callsOf("any"), counted.callsOf("maybeOne"), counted.callsOf("transaction")]).toEqual([1, 2, 0]);
    const typesOf = async (payment: PaymentRow) =>
      (await world.eventsOf(payment.id)).map((event) => [event.type, event.data.merchant_ref ?? null]);
    expect(await typesOf(due)).toEqual([["payment.expired", null]]);
    expect(await typesOf(notDue)).toEqual([]);
    expect(await typesOf(forced)).toEqual([["payment.expired", null]]);
    expect(await typesOf(settled)).toEqual([["payment.paid", null]]);
    expect(await typesOf(contested)).toEqual([["payment.paid", null]]);
    for (const payment of [due, notDue, forced]) {
      expect(await world.ledgerTransactionsOf(payment.id)).toBe(0);
    }
    // 4,000 and 5,000 less 1.5 %.
    expect(await world.balanceOf(world.shop.id, false)).toEqual({ USD: 3940 + 4925 });
    expect(await payments.getPaymentById(world.db.database, due.id)).toMatchObject({
      status: "expired",
      paid_at: null,
      payer_msisdn: null,
      failure_reason: null,
    });
  });
});
