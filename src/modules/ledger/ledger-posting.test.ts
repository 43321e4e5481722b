import { CheckIntegrityConstraintViolationError } from "slonik";
import { z } from "zod";
import { fund } from "../../../tests/support/factories.ts";
import { ledgerTestWorld } from "../../../tests/support/ledger.ts";
import { sql } from "../../platform/db/pool.ts";
import { ApiError } from "../../platform/errors.ts";
import * as ledger from "./service.ts";

/** Posting to the ledger: balanced, append-only, never below zero, once per key; reversals. */

const world = ledgerTestWorld();
const { sumOfPostings, balanceOf, debit } = world;

/** `ledger.post` for the shop's live world, in a transaction of its own. */
const postLive = (posting: Omit<Parameters<typeof ledger.post>[1], "merchantId" | "livemode">) =>
  world.db.database.transaction((transaction) =>
    ledger.post(transaction, { merchantId: world.shop.id, livemode: true, ...posting }),
  );

describe("posting", () => {
  test("a transaction's postings balance per currency, before writing and as read back", async () => {
    const posted = await postLive({
      postingKey: "payment:pay_1:settle",
      description: "Payment pay_1",
      source: { type: "payment", id: "pay_1" },
      postings: [
        { account: "gateway_clearing", entryType: "payment", currency: "USD", amountCents: -1000 },
        { account: "merchant_available", entryType: "payment", currency: "USD", amountCents: 1000 },
        { account: "merchant_available", entryType: "fee", currency: "USD", amountCents: -15 },
        { account: "platform_fees", entryType: "fee", currency: "USD", amountCents: 15 },
      ],
    });
    expect(posted.created).toBe(true);
    expect(posted.postings).toHaveLength(4);
    const readBack = await world.db.database.any(sql.type(z.object({ currency: z.string(), total: z.number() }))`
      SELECT currency, sum(amount_cents)::int8 AS total FROM ledger_postings
      WHERE merchant_id = ${world.shop.id} AND transaction_id = ${posted.transaction.id} GROUP BY currency`);
    expect(readBack).toEqual([{ currency: "USD", total: 0 }]);
    expect(await balanceOf(world.shop.liveKey)).toEqual({ USD: 985, ZWG: 0 });
    // Credits were applied before the debit, so the balance trail never dipped.
    const trail = posted.postings.filter((posting) => posting.account === "merchant_available");
    expect(trail.map((posting) => posting.balance_after_cents)).toEqual([1000, 985]);
  });

  test("unbalanced postings never reach the database", async () => {
    await expect(
      postLive({
        postingKey: "bad",
        description: "Unbalanced",
        source: { type: "test", id: "bad" },
        postings: [
          { account: "gateway_clearing", entryType: "payment", currency: "USD", amountCents: -1000 },
          { account: "merchant_available", entryType: "payment", currency: "USD", amountCents: 999 },
        ],
      }),
    ).rejects.toThrow(/do not balance/);
    expect(await sumOfPostings(world.shop.id, true)).toEqual({});
  });

  test("the database refuses to commit an unbalanced transaction written around the service", async () => {
    const failure = await world.db.database
      .transaction(async (transaction) => {
        await transaction.query(sql.unsafe`
          INSERT INTO ledger_transactions (merchant_id, id, livemode, posting_key, description, source_type, source_id)
          VALUES (${world.shop.id}, 'ltx_raw', true, 'raw', 'raw', 'test', 'raw')`);
        await transaction.query(sql.unsafe`
          INSERT INTO ledger_postings (merchant_id, id, transaction_id, livemode, account, entry_type, currency, amount_cents)
          VALUES (${world.shop.id}, 'le_raw', 'ltx_raw', true, 'merchant_available', 'adjustment', 'USD', 500)`);
      })
      .then(
        () => undefined,
        (error: Error) => error,
      );
    expect(failure).toBeInstanceOf(CheckIntegrityConstraintViolationError);
    expect(String((failure?.cause as Error | undefined)?.message)).toMatch(/does not balance/);
    expect(await sumOfPostings(world.shop.id, true)).toEqual({});
  });

  test.each([
    ["without postings", []],
    ["with one posting", [["merchant_available", "USD", 500]]],
    [
      "balanced in sum but not per currency",
      [
        ["merchant_available", "USD", 500],
        ["adjustments", "ZWG", -500],
      ],
    ],
  ] as const)("the commit-time check refuses a transaction %s", async (_, postings) => {
    const failure = await world.db.database
      .transaction(async (transaction) => {
        await transaction.query(sql.unsafe`
          INSERT INTO ledger_transactions (merchant_id, id, livemode, posting_key, description, source_type, source_id)
          VALUES (${world.shop.id}, 'ltx_check', true, 'check', 'check', 'test', 'check')`);
        for (const [index, [account, currency, amount]] of postings.entries()) {
          await transaction.query(sql.unsafe`
            INSERT INTO ledger_postings (merchant_id, id, transaction_id, livemode, account, entry_type, currency, amount_cents)
            VALUES (${world.shop.id}, ${`le_check_${index}`}, 'ltx_check', true, ${account}, 'adjustment', ${currency}, ${amount})`);
        }
      })
      .then(
        () => undefined,
        (error: Error) => error,
      );
    expect(failure).toBeInstanceOf(CheckIntegrityConstraintViolationError);
    expect(String((failure?.cause as Error | undefined)?.message)).toMatch(
      new RegExp(`does not balance \\(${postings.length} postings`),
    );
    expect(await sumOfPostings(world.shop.id, true)).toEqual({});
  });

  test("ledger rows cannot be updated or deleted, and balances cannot be written directly", async () => {
    await fund(world.db.database, world.shop, 500, true);
    const statements = [
      sql.unsafe`UPDATE ledger_postings SET amount_cents = 1 WHERE merchant_id = ${world.shop.id}`,
      sql.unsafe`DELETE FROM ledger_postings WHERE merchant_id = ${world.shop.id}`,
      sql.unsafe`UPDATE ledger_transactions SET description = 'edited' WHERE merchant_id = ${world.shop.id}`,
      sql.unsafe`DELETE FROM ledger_transactions WHERE merchant_id = ${world.shop.id}`,
      sql.unsafe`TRUNCATE ledger_postings CASCADE`,
      sql.unsafe`UPDATE ledger_balances SET balance_cents = 1000000 WHERE merchant_id = ${world.shop.id}`,
      sql.unsafe`INSERT INTO ledger_balances (merchant_id, livemode, account, currency, balance_cents)
        VALUES (${world.shop.id}, true, 'merchant_available', 'ZWG', 99)`,
    ];
    for (const statement of statements) {
      await expect(world.db.database.query(statement)).rejects.toThrow(/append-only|only through ledger postings/);
    }
    expect(await balanceOf(world.shop.liveKey)).toEqual({ USD: 500, ZWG: 0 });
    expect(await sumOfPostings(world.shop.id, true)).toEqual({ USD: 500 });
  });

  test("200 concurrent debits racing one balance: exactly what it covers succeeds, never below zero", async () => {
    await fund(world.db.database, world.shop, 100 * 100, true);
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, (_, index) => debit(world.shop.id, 100, `payout:race_${index}`)),
    );
    const succeeded = results.filter((result) => result.status === "fulfilled");
    const refused = results.filter(
      (result): result is PromiseRejectedResult =>
        result.status === "rejected" && result.reason instanceof ApiError && result.reason.status === 402,
    );
    expect(succeeded).toHaveLength(100);
    expect(refused).toHaveLength(100);
    expect(await balanceOf(world.shop.liveKey)).toEqual({ USD: 0, ZWG: 0 });
    expect(await sumOfPostings(world.shop.id, true)).toEqual({ USD: 0 });
    // Refused debits left nothing behind: only the funding and the 100 debits exist.
    const transactions = await world.db.database.oneFirst(sql.type(z.object({ count: z.number() }))`
      SELECT count(*)::int8 AS count FROM ledger_transactions WHERE merchant_id = ${world.shop.id}`);
    expect(transactions).toBe(101);
  });

  test("a movement is recorded once per posting key, even when posted concurrently", async () => {
    await fund(world.db.database, world.shop, 1000, true);
    const results = await Promise.all(Array.from({ length: 10 }, () => debit(world.shop.id, 300, "payout:po_once")));
    expect(results.filter((result) => result.created)).toHaveLength(1);
    expect(new Set(results.map((result) => result.transaction.id)).size).toBe(1);
    expect(await balanceOf(world.shop.liveKey)).toEqual({ USD: 700, ZWG: 0 });
  });

  test("a reversal is a new transaction referencing the original, made at most once", async () => {
    await fund(world.db.database, world.shop, 1000, true);
    const original = await debit(world.shop.id, 400, "payout:po_rev");
    expect(await balanceOf(world.shop.liveKey)).toEqual({ USD: 600, ZWG: 0 });
    const reverse = () =>
      world.db.database.transaction((transaction) =>
        ledger.reverse(transaction, {
          merchantId: world.shop.id,
          transactionId: original.transaction.id,
          description: "Payout failed",
        }),
      );
    const first = await reverse();
    const second = await reverse();
    expect(first.created).toBe(true);
    expect(second.created).toBe(false);
    expect(second.transaction.id).toBe(first.transaction.id);
    expect(first.transaction.reverses_transaction_id).toBe(original.transaction.id);
    expect(first.postings.map((posting) => posting.entry_type)).toEqual(["reversal", "reversal"]);
    expect(await balanceOf(world.shop.liveKey)).toEqual({ USD: 1000, ZWG: 0 });
    const originalRows = await world.db.database.oneFirst(sql.type(z.object({ count: z.number() }))`
      SELECT count(*)::int8 AS count FROM ledger_postings WHERE merchant_id = ${world.shop.id} AND transaction_id = ${original.transaction.id}`);
    expect(originalRows).toBe(2);
  });
});
