import { parse } from "csv-parse/sync";
import { CheckIntegrityConstraintViolationError } from "slonik";
import request from "supertest";
import { z } from "zod";
import { testApp, testConfig } from "../../../tests/support/app.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/database.ts";
import { fundMerchant, newMerchant, type TestMerchant } from "../../../tests/support/factories.ts";
import { sql } from "../../platform/db/pool.ts";
import { ApiError } from "../../platform/errors.ts";
import * as ledger from "./service.ts";

let db: TestDatabase;
let app: ReturnType<typeof testApp>;
let shop: TestMerchant;

beforeAll(async () => {
  db = await createTestDatabase({ poolSize: 20 });
  app = testApp({ database: db.database, config: testConfig(db.url) });
});
beforeEach(async () => {
  shop = await newMerchant(db.database);
});
afterAll(() => db.close());

const sumsRowSchema = z.object({ currency: z.string(), total: z.number().int() });

/** Σ postings of the merchant's available account per currency, straight from the ledger rows. */
async function sumOfPostings(merchantId: string, livemode: boolean) {
  const rows = await db.database.any(sql.type(sumsRowSchema)`
    SELECT currency, sum(amount_cents)::int8 AS total FROM ledger_postings
    WHERE merchant_id = ${merchantId} AND livemode = ${livemode} AND account = 'merchant_available'
    GROUP BY currency`);
  return Object.fromEntries(rows.map((row) => [row.currency, row.total]));
}

async function balanceOf(key: string) {
  const response = await request(app).get("/v1/balance").set("Authorization", `Bearer ${key}`);
  expect(response.status).toBe(200);
  return Object.fromEntries(
    (response.body.available as { currency: string; amount_cents: number }[]).map((row) => [
      row.currency,
      row.amount_cents,
    ]),
  );
}

function debit(merchantId: string, amountCents: number, key: string) {
  return db.database.transaction((transaction) =>
    ledger.post(transaction, {
      merchantId,
      livemode: true,
      postingKey: key,
      description: "Payout",
      source: { type: "payout", id: key },
      postings: [
        { account: "merchant_available", entryType: "payout", currency: "USD", amountCents: -amountCents },
        { account: "payouts_in_transit", entryType: "payout", currency: "USD", amountCents },
      ],
    }),
  );
}

describe("posting", () => {
  test("a transaction's postings balance per currency, before writing and as read back", async () => {
    const posted = await db.database.transaction((transaction) =>
      ledger.post(transaction, {
        merchantId: shop.id,
        livemode: true,
        postingKey: "payment:pay_1:settle",
        description: "Payment pay_1",
        source: { type: "payment", id: "pay_1" },
        postings: [
          { account: "gateway_clearing", entryType: "payment", currency: "USD", amountCents: -1000 },
          { account: "merchant_available", entryType: "payment", currency: "USD", amountCents: 1000 },
          { account: "merchant_available", entryType: "fee", currency: "USD", amountCents: -15 },
          { account: "platform_fees", entryType: "fee", currency: "USD", amountCents: 15 },
        ],
      }),
    );
    expect(posted.created).toBe(true);
    expect(posted.postings).toHaveLength(4);
    const readBack = await db.database.any(sql.type(z.object({ currency: z.string(), total: z.number() }))`
      SELECT currency, sum(amount_cents)::int8 AS total FROM ledger_postings
      WHERE merchant_id = ${shop.id} AND transaction_id = ${posted.transaction.id} GROUP BY currency`);
    expect(readBack).toEqual([{ currency: "USD", total: 0 }]);
    expect(await balanceOf(shop.liveKey)).toEqual({ USD: 985, ZWG: 0 });
    // Credits were applied before the debit, so the balance trail never dipped.
    const trail = posted.postings.filter((posting) => posting.account === "merchant_available");
    expect(trail.map((posting) => posting.balance_after_cents)).toEqual([1000, 985]);
  });

  test("unbalanced postings never reach the database", async () => {
    await expect(
      db.database.transaction((transaction) =>
        ledger.post(transaction, {
          merchantId: shop.id,
          livemode: true,
          postingKey: "bad",
          description: "Unbalanced",
          source: { type: "test", id: "bad" },
          postings: [
            { account: "gateway_clearing", entryType: "payment", currency: "USD", amountCents: -1000 },
            { account: "merchant_available", entryType: "payment", currency: "USD", amountCents: 999 },
          ],
        }),
      ),
    ).rejects.toThrow(/do not balance/);
    expect(await sumOfPostings(shop.id, true)).toEqual({});
  });

  test("the database refuses to commit an unbalanced transaction written around the service", async () => {
    const failure = await db.database
      .transaction(async (transaction) => {
        await transaction.query(sql.unsafe`
          INSERT INTO ledger_transactions (merchant_id, id, livemode, posting_key, description, source_type, source_id)
          VALUES (${shop.id}, 'ltx_raw', true, 'raw', 'raw', 'test', 'raw')`);
        await transaction.query(sql.unsafe`
          INSERT INTO ledger_postings (merchant_id, id, transaction_id, livemode, account, entry_type, currency, amount_cents)
          VALUES (${shop.id}, 'le_raw', 'ltx_raw', true, 'merchant_available', 'adjustment', 'USD', 500)`);
      })
      .then(
        () => undefined,
        (error: Error) => error,
      );
    expect(failure).toBeInstanceOf(CheckIntegrityConstraintViolationError);
    expect(String((failure?.cause as Error | undefined)?.message)).toMatch(/does not balance/);
    expect(await sumOfPostings(shop.id, true)).toEqual({});
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
    const failure = await db.database
      .transaction(async (transaction) => {
        await transaction.query(sql.unsafe`
          INSERT INTO ledger_transactions (merchant_id, id, livemode, posting_key, description, source_type, source_id)
          VALUES (${shop.id}, 'ltx_check', true, 'check', 'check', 'test', 'check')`);
        for (const [index, [account, currency, amount]] of postings.entries()) {
          await transaction.query(sql.unsafe`
            INSERT INTO ledger_postings (merchant_id, id, transaction_id, livemode, account, entry_type, currency, amount_cents)
            VALUES (${shop.id}, ${`le_check_${index}`}, 'ltx_check', true, ${account}, 'adjustment', ${currency}, ${amount})`);
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
    expect(await sumOfPostings(shop.id, true)).toEqual({});
  });

  test("ledger rows cannot be updated or deleted, and balances cannot be written directly", async () => {
    await fundMerchant(db.database, { merchantId: shop.id, livemode: true, currency: "USD", amountCents: 500 });
    const statements = [
      sql.unsafe`UPDATE ledger_postings SET amount_cents = 1 WHERE merchant_id = ${shop.id}`,
      sql.unsafe`DELETE FROM ledger_postings WHERE merchant_id = ${shop.id}`,
      sql.unsafe`UPDATE ledger_transactions SET description = 'edited' WHERE merchant_id = ${shop.id}`,
      sql.unsafe`DELETE FROM ledger_transactions WHERE merchant_id = ${shop.id}`,
      sql.unsafe`TRUNCATE ledger_postings CASCADE`,
      sql.unsafe`UPDATE ledger_balances SET balance_cents = 1000000 WHERE merchant_id = ${shop.id}`,
      sql.unsafe`INSERT INTO ledger_balances (merchant_id, livemode, account, currency, balance_cents)
        VALUES (${shop.id}, true, 'merchant_available', 'ZWG', 99)`,
    ];
    for (const statement of statements) {
      await expect(db.database.query(statement)).rejects.toThrow(/append-only|only through ledger postings/);
    }
    expect(await balanceOf(shop.liveKey)).toEqual({ USD: 500, ZWG: 0 });
    expect(await sumOfPostings(shop.id, true)).toEqual({ USD: 500 });
  });

  test("200 concurrent debits racing one balance: exactly what it covers succeeds, never below zero", async () => {
    await fundMerchant(db.database, { merchantId: shop.id, livemode: true, currency: "USD", amountCents: 100 * 100 });
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, (_, index) => debit(shop.id, 100, `payout:race_${index}`)),
    );
    const succeeded = results.filter((result) => result.status === "fulfilled");
    const refused = results.filter(
      (result): result is PromiseRejectedResult =>
        result.status === "rejected" && result.reason instanceof ApiError && result.reason.status === 402,
    );
    expect(succeeded).toHaveLength(100);
    expect(refused).toHaveLength(100);
    expect(await balanceOf(shop.liveKey)).toEqual({ USD: 0, ZWG: 0 });
    expect(await sumOfPostings(shop.id, true)).toEqual({ USD: 0 });
    // Refused debits left nothing behind: only the funding and the 100 debits exist.
    const transactions = await db.database.oneFirst(sql.type(z.object({ count: z.number() }))`
      SELECT count(*)::int8 AS count FROM ledger_transactions WHERE merchant_id = ${shop.id}`);
    expect(transactions).toBe(101);
  });

  test("a movement is recorded once per posting key, even when posted concurrently", async () => {
    await fundMerchant(db.database, { merchantId: shop.id, livemode: true, currency: "USD", amountCents: 1000 });
    const results = await Promise.all(Array.from({ length: 10 }, () => debit(shop.id, 300, "payout:po_once")));
    expect(results.filter((result) => result.created)).toHaveLength(1);
    expect(new Set(results.map((result) => result.transaction.id)).size).toBe(1);
    expect(await balanceOf(shop.liveKey)).toEqual({ USD: 700, ZWG: 0 });
  });

  test("a reversal is a new transaction referencing the original, made at most once", async () => {
    await fundMerchant(db.database, { merchantId: shop.id, livemode: true, currency: "USD", amountCents: 1000 });
    const original = await debit(shop.id, 400, "payout:po_rev");
    expect(await balanceOf(shop.liveKey)).toEqual({ USD: 600, ZWG: 0 });
    const reverse = () =>
      db.database.transaction((transaction) =>
        ledger.reverse(transaction, {
          merchantId: shop.id,
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
    expect(await balanceOf(shop.liveKey)).toEqual({ USD: 1000, ZWG: 0 });
    const originalRows = await db.database.oneFirst(sql.type(z.object({ count: z.number() }))`
      SELECT count(*)::int8 AS count FROM ledger_postings WHERE merchant_id = ${shop.id} AND transaction_id = ${original.transaction.id}`);
    expect(originalRows).toBe(2);
  });
});

describe("GET /v1/balance", () => {
  test("lists both currencies for the key's world only", async () => {
    await fundMerchant(db.database, { merchantId: shop.id, livemode: false, currency: "ZWG", amountCents: 250 });
    const test = await request(app).get("/v1/balance").set("Authorization", `Bearer ${shop.testKey}`);
    expect(test.body).toEqual({
      object: "balance",
      livemode: false,
      available: [
        { currency: "USD", amount_cents: 0 },
        { currency: "ZWG", amount_cents: 250 },
      ],
    });
    expect(await balanceOf(shop.liveKey)).toEqual({ USD: 0, ZWG: 0 });
    const other = await newMerchant(db.database);
    expect(await balanceOf(other.testKey)).toEqual({ USD: 0, ZWG: 0 });
  });
});

describe("GET /v1/ledger", () => {
  async function page(key: string, query: Record<string, string | number>) {
    return request(app).get("/v1/ledger").query(query).set("Authorization", `Bearer ${key}`);
  }

  test("newest first, paginated by cursor without gaps or repeats", async () => {
    for (let index = 1; index <= 25; index += 1) {
      await fundMerchant(db.database, { merchantId: shop.id, livemode: true, currency: "USD", amountCents: index });
    }
    const seen: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const response = await page(shop.liveKey, { limit: 10, ...(cursor === undefined ? {} : { cursor }) });
      expect(response.status).toBe(200);
      seen.push(...response.body.data.map((entry: { amount_cents: number }) => entry.amount_cents));
      cursor = response.body.next_cursor ?? undefined;
      expect(response.body.has_more).toBe(cursor !== undefined);
      pages += 1;
    } while (cursor !== undefined);
    expect(pages).toBe(3);
    expect(seen).toEqual(Array.from({ length: 25 }, (_, index) => 25 - index));
  });

  test("entries carry their running balance, source and type; filters narrow them", async () => {
    await fundMerchant(db.database, { merchantId: shop.id, livemode: true, currency: "USD", amountCents: 1000 });
    const debited = await debit(shop.id, 300, "payout:po_filter");
    const all = await page(shop.liveKey, {});
    expect(all.body.data[0]).toMatchObject({
      object: "ledger_entry",
      livemode: true,
      entry_type: "payout",
      amount_cents: -300,
      balance_after_cents: 700,
      currency: "USD",
      transaction_id: debited.transaction.id,
      source: { type: "payout", id: "payout:po_filter", merchant_ref: null },
    });
    const payouts = await page(shop.liveKey, { entry_type: "payout" });
    expect(payouts.body.data).toHaveLength(1);
    const future = await page(shop.liveKey, { from: new Date(Date.now() + 60_000).toISOString() });
    expect(future.body.data).toEqual([]);
    const past = await page(shop.liveKey, { to: "2020-01-01" });
    expect(past.body.data).toEqual([]);
    const window = await page(shop.liveKey, { from: "2020-01-01", to: new Date(Date.now() + 60_000).toISOString() });
    expect(window.body.data).toHaveLength(2);
    expect((await page(shop.testKey, {})).body.data).toEqual([]);
  });

  test("bad filters and cursors are 400s in the error envelope", async () => {
    const queries: Record<string, string | number>[] = [
      { entry_type: "bonus" },
      { limit: 101 },
      { limit: 0 },
      { cursor: "garbage" },
      { from: "yesterday" },
    ];
    for (const query of queries) {
      const response = await page(shop.liveKey, query);
      expect(response.status).toBe(400);
      expect(response.body.error.type).toBe("invalid_request");
    }
  });
});

describe("GET /v1/statement.csv", () => {
  async function statement(key: string, query: Record<string, string> = {}) {
    const response = await request(app)
      .get("/v1/statement.csv")
      .query(query)
      .set("Authorization", `Bearer ${key}`)
      .buffer(true)
      .parse((res, callback) => {
        let text = "";
        res.on("data", (chunk: Buffer) => {
          text += chunk.toString("utf8");
        });
        res.on("end", () => callback(null, text));
      });
    return response;
  }

  test("a header, opening rows, one row per entry with its running balance, closing rows matching the balance", async () => {
    await fundMerchant(db.database, { merchantId: shop.id, livemode: true, currency: "USD", amountCents: 1000 });
    await fundMerchant(db.database, {
      merchantId: shop.id,
      livemode: true,
      currency: "ZWG",
      amountCents: 5000,
      description: '=HYPERLINK("http://evil")',
    });
    await debit(shop.id, 250, "payout:po_statement");
    const response = await statement(shop.liveKey);
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8");
    const text = response.body as string;
    expect(text.startsWith("\uFEFFposted_at,currency,entry_type,")).toBe(true);
    expect(text).toContain("\r\n");
    const rows: Record<string, string>[] = parse(text, { bom: true, columns: true });
    expect(rows.map((row) => `${row.entry_type}:${row.currency}`)).toEqual([
      "opening_balance:USD",
      "opening_balance:ZWG",
      "payment:USD",
      "payment:ZWG",
      "payout:USD",
      "closing_balance:USD",
      "closing_balance:ZWG",
    ]);
    const entries = rows.filter((row) => !row.entry_type?.endsWith("_balance"));
    expect(entries.map((row) => [row.amount_cents, row.balance_cents])).toEqual([
      ["1000", "1000"],
      ["5000", "5000"],
      ["-250", "750"],
    ]);
    expect(entries[2]?.amount).toBe("-2.5");
    // Text a spreadsheet would evaluate is escaped.
    expect(entries[1]?.description).toBe('\'=HYPERLINK("http://evil")');
    const closing = Object.fromEntries(
      rows
        .filter((row) => row.entry_type === "closing_balance")
        .map((row) => [row.currency, Number(row.balance_cents)]),
    );
    expect(closing).toEqual(await balanceOf(shop.liveKey));
  });

  test("a period's opening balance is the balance just before it", async () => {
    await fundMerchant(db.database, { merchantId: shop.id, livemode: true, currency: "USD", amountCents: 1000 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const start = new Date();
    await debit(shop.id, 100, "payout:po_period");
    const rows: Record<string, string>[] = parse((await statement(shop.liveKey, { from: start.toISOString() })).body, {
      bom: true,
      columns: true,
    });
    expect(rows.find((row) => row.entry_type === "opening_balance" && row.currency === "USD")?.balance_cents).toBe(
      "1000",
    );
    expect(rows.filter((row) => row.entry_type === "payout")).toHaveLength(1);
    expect(rows.filter((row) => row.entry_type === "payment")).toHaveLength(0);
    expect(rows.find((row) => row.entry_type === "closing_balance" && row.currency === "USD")?.balance_cents).toBe(
      "900",
    );
  });

  test("streams in batches: every entry appears once, in order, across batch boundaries", async () => {
    for (let index = 1; index <= 7; index += 1) {
      await fundMerchant(db.database, { merchantId: shop.id, livemode: true, currency: "USD", amountCents: index });
    }
    const amounts: number[] = [];
    for await (const entry of ledger.statementEntries(
      db.database,
      { merchantId: shop.id, livemode: true, to: new Date(Date.now() + 60_000) },
      3,
    )) {
      amounts.push(entry.amount_cents);
    }
    expect(amounts).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });
});
