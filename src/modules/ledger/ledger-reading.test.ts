import { parse } from "csv-parse/sync";
import request from "supertest";
import { fund, fundMerchant, newMerchant } from "../../../tests/support/factories.ts";
import { ledgerTestWorld } from "../../../tests/support/ledger.ts";
import * as ledger from "./service.ts";

/** Reading the ledger: the balance, the entries with their running balance, the CSV statement. */

const world = ledgerTestWorld();
const { balanceOf, debit } = world;

describe("GET /v1/balance", () => {
  test("lists both currencies for the key's world only", async () => {
    await fund(world.db.database, world.shop, 250, false, "ZWG");
    const test = await request(world.app).get("/v1/balance").set("Authorization", `Bearer ${world.shop.testKey}`);
    expect(test.body).toEqual({
      object: "balance",
      livemode: false,
      available: [
        { currency: "USD", amount_cents: 0 },
        { currency: "ZWG", amount_cents: 250 },
      ],
    });
    expect(await balanceOf(world.shop.liveKey)).toEqual({ USD: 0, ZWG: 0 });
    const other = await newMerchant(world.db.database);
    expect(await balanceOf(other.testKey)).toEqual({ USD: 0, ZWG: 0 });
  });
});

describe("GET /v1/ledger", () => {
  async function page(key: string, query: Record<string, string | number>) {
    return request(world.app).get("/v1/ledger").query(query).set("Authorization", `Bearer ${key}`);
  }

  test("newest first, paginated by cursor without gaps or repeats", async () => {
    for (let index = 1; index <= 25; index += 1) {
      await fund(world.db.database, world.shop, index, true);
    }
    const seen: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const response = await page(world.shop.liveKey, { limit: 10, ...(cursor === undefined ? {} : { cursor }) });
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
    await fund(world.db.database, world.shop, 1000, true);
    const debited = await debit(world.shop.id, 300, "payout:po_filter");
    const all = await page(world.shop.liveKey, {});
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
    const payouts = await page(world.shop.liveKey, { entry_type: "payout" });
    expect(payouts.body.data).toHaveLength(1);
    const future = await page(world.shop.liveKey, { from: new Date(Date.now() + 60_000).toISOString() });
    expect(future.body.data).toEqual([]);
    const past = await page(world.shop.liveKey, { to: "2020-01-01" });
    expect(past.body.data).toEqual([]);
    const window = await page(world.shop.liveKey, {
      from: "2020-01-01",
      to: new Date(Date.now() + 60_000).toISOString(),
    });
    expect(window.body.data).toHaveLength(2);
    expect((await page(world.shop.testKey, {})).body.data).toEqual([]);
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
      const response = await page(world.shop.liveKey, query);
      expect(response.status).toBe(400);
      expect(response.body.error.type).toBe("invalid_request");
    }
  });
});

describe("GET /v1/statement.csv", () => {
  async function statement(key: string, query: Record<string, string> = {}) {
    const response = await request(world.app)
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
    await fund(world.db.database, world.shop, 1000, true);
    await fundMerchant(world.db.database, {
      merchantId: world.shop.id,
      livemode: true,
      currency: "ZWG",
      amountCents: 5000,
      description: '=HYPERLINK("http://evil")',
    });
    await debit(world.shop.id, 250, "payout:po_statement");
    const response = await statement(world.shop.liveKey);
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
    expect(closing).toEqual(await balanceOf(world.shop.liveKey));
  });

  test("a period's opening balance is the balance just before it", async () => {
    await fund(world.db.database, world.shop, 1000, true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const start = new Date();
    await debit(world.shop.id, 100, "payout:po_period");
    const rows: Record<string, string>[] = parse(
      (await statement(world.shop.liveKey, { from: start.toISOString() })).body,
      {
        bom: true,
        columns: true,
      },
    );
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
      await fund(world.db.database, world.shop, index, true);
    }
    const amounts: number[] = [];
    for await (const entry of ledger.statementEntries(
      world.db.database,
      { merchantId: world.shop.id, livemode: true, to: new Date(Date.now() + 60_000) },
      3,
    )) {
      amounts.push(entry.amount_cents);
    }
    expect(amounts).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });
});
