import request from "supertest";
import { z } from "zod";
import { sql } from "../../src/platform/db/pool.ts";
import { testApp, testConfig } from "../support/app.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { newMerchant, type TestMerchant } from "../support/factories.ts";

/**
 * Keyset pagination over rows created within one millisecond: a cursor's time has milliseconds,
 * `created_at` has microseconds, and following `next_cursor` must still visit every row once.
 */

let db: TestDatabase;
let app: ReturnType<typeof testApp>;
let merchant: TestMerchant;

beforeAll(async () => {
  db = await createTestDatabase();
  app = testApp({ database: db.database, config: testConfig(db.url) });
  merchant = await newMerchant(db.database);
});
afterAll(() => db.close());

/** Follows next_cursor from the first page to the last, one row per page. */
async function everyPage(path: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 20; page += 1) {
    const query: Record<string, string | number> = { limit: 1, ...(cursor === null ? {} : { cursor }) };
    const response = await request(app).get(path).query(query).set("Authorization", `Bearer ${merchant.testKey}`);
    expect(response.status).toBe(200);
    const body = z
      .object({ data: z.array(z.object({ id: z.string() })), next_cursor: z.string().nullable() })
      .parse(response.body);
    ids.push(...body.data.map((item) => item.id));
    cursor = body.next_cursor;
    if (cursor === null) {
      return ids;
    }
  }
  throw new Error("more pages than rows");
}

const idsOf = (rows: readonly { id: string }[]) => rows.map((row) => row.id);

test("payments created within one millisecond are each listed once across pages", async () => {
  for (const ref of ["a", "b", "c"]) {
    const response = await request(app)
      .post("/v1/payments")
      .set("Authorization", `Bearer ${merchant.testKey}`)
      .set("Idempotency-Key", `same-ms-${ref}`)
      .send({ amount_cents: 500, currency: "USD", merchant_ref: `same-ms-${ref}` });
    expect(response.status).toBe(201);
  }
  // Three instants in one millisecond, in the order that defeated a millisecond cursor: every page's
  // last row has a later microsecond than the rows still to come in the same millisecond.
  await db.database.query(sql.unsafe`
    UPDATE payments SET created_at = '2026-11-25T10:00:00.123000Z'::timestamptz + (ordinal * interval '100 microseconds')
    FROM (SELECT id, row_number() OVER (ORDER BY id) AS ordinal FROM payments WHERE merchant_id = ${merchant.id}) AS ranked
    WHERE payments.id = ranked.id`);
  const expected = idsOf(
    await db.database.any(
      sql.type(z.object({ id: z.string() }))`
        SELECT id FROM payments WHERE merchant_id = ${merchant.id} ORDER BY created_at DESC, id DESC`,
    ),
  );
  expect(expected).toHaveLength(3);
  expect(await everyPage("/v1/payments")).toEqual(expected);
});

test("API keys created within one millisecond are each listed once across pages", async () => {
  await db.database.query(sql.unsafe`
    INSERT INTO api_keys (id, merchant_id, livemode, secret_hash, secret_last4, created_at)
    SELECT 'key_samems' || n, ${merchant.id}, false, sha256(convert_to('not a secret ' || n, 'UTF8')),
      lpad(n::text, 4, '0'), '2026-11-25T10:00:00.123000Z'::timestamptz + (n * interval '100 microseconds')
    FROM generate_series(1, 3) AS n`);
  const expected = idsOf(
    await db.database.any(
      sql.type(z.object({ id: z.string() }))`
        SELECT id FROM api_keys WHERE merchant_id = ${merchant.id} AND NOT livemode ORDER BY created_at DESC, id DESC`,
    ),
  );
  expect(expected.length).toBeGreaterThanOrEqual(4);
  expect(await everyPage("/v1/api_keys")).toEqual(expected);
});

test("shifts opened within one millisecond are each listed once across pages", async () => {
  for (const till of ["till-a", "till-b", "till-c"]) {
    const response = await request(app)
      .post("/v1/shifts")
      .set("Authorization", `Bearer ${merchant.testKey}`)
      .set("Idempotency-Key", `same-ms-${till}`)
      .send({ till_id: till, float: [{ currency: "USD", amount_cents: 1000 }] });
    expect(response.status).toBe(201);
  }
  await db.database.query(sql.unsafe`
    UPDATE shifts SET created_at = '2026-11-25T10:00:00.123000Z'::timestamptz + (ordinal * interval '100 microseconds')
    FROM (SELECT id, row_number() OVER (ORDER BY id) AS ordinal FROM shifts WHERE merchant_id = ${merchant.id}) AS ranked
    WHERE shifts.id = ranked.id`);
  const expected = idsOf(
    await db.database.any(
      sql.type(z.object({ id: z.string() }))`
        SELECT id FROM shifts WHERE merchant_id = ${merchant.id} AND NOT livemode ORDER BY created_at DESC, id DESC`,
    ),
  );
  expect(expected).toHaveLength(3);
  expect(await everyPage("/v1/shifts")).toEqual(expected);
});
