import { z } from "zod";
import { DUE_PAYMENTS } from "../../src/modules/payments/queries.ts";
import { claimDueExpiries, claimDuePolls } from "../../src/platform/db/due-claims.ts";
import { sql } from "../../src/platform/db/pool.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { newMerchant } from "../support/factories.ts";

/**
 * Claims of due rows read O(batch) rows however many are pending, also when their plan is made on
 * statistics taken while nothing was pending (a quiet hour's ANALYZE): then "every pending row
 * through another partial index, then a sort" costs the planner as little as the due index, and a
 * claim planned that way reads every pending row (docs/performance.md). Measured by the rows each
 * of the payments' indexes returned (pg_stat_user_indexes), on one connection whose statistics the
 * test flushes.
 */

let db: TestDatabase;
const PENDING_DUE = 600;
const LIMIT = 8;

beforeAll(async () => {
  // One connection: the claims' index reads are this backend's, flushed on demand below.
  db = await createTestDatabase({ poolSize: 1 });
  const shop = await newMerchant(db.database);
  // A history of expired payments (no next poll, as the poll claim leaves a payment whose window
  // closes), analyzed: the statistics then say that no payment is pending, and none has a poll time.
  await db.database.query(sql.unsafe`
    INSERT INTO payments (merchant_id, id, livemode, status, amount_cents, currency, fee_cents, reference, code,
      gateway_reference, qr_png_data_url, expires_at, next_poll_at, created_at)
    SELECT ${shop.id}, 'pay_ended_' || n, false, 'expired', 500, 'USD', 0, 'ref_ended_' || n, lpad(n::text, 9, '0'),
      'gw_ended_' || n, '', now() - interval '1 day', NULL, now() - interval '1 day'
    FROM generate_series(1, 3000) AS n`);
  await db.database.query(sql.unsafe`ANALYZE payments`);
  // Then a surge: payments pending, half of them due for a poll, half past their window.
  await db.database.query(sql.unsafe`
    INSERT INTO payments (merchant_id, id, livemode, status, amount_cents, currency, fee_cents, reference, code,
      gateway_reference, qr_png_data_url, expires_at, next_poll_at, created_at)
    SELECT ${shop.id}, 'pay_pending_' || n, false, 'pending', 500, 'USD', 0, 'ref_pending_' || n,
      lpad((100000 + n)::text, 9, '0'), 'gw_pending_' || n, '',
      CASE WHEN n % 2 = 0 THEN now() + interval '10 minutes' ELSE now() - n * interval '1 millisecond' END,
      CASE WHEN n % 2 = 0 THEN now() - n * interval '1 millisecond' END,
      now() - interval '1 minute'
    FROM generate_series(1, ${2 * PENDING_DUE}::int) AS n`);
});

afterAll(async () => {
  await db.close();
});

const readsSchema = z.object({ index: z.string(), reads: z.number() });

/** The rows each index of `payments` has returned so far. */
async function indexReads(): Promise<Record<string, number>> {
  // Sent at this statement's end, whatever the interval between flushes; read by the next.
  await db.database.query(sql.unsafe`SELECT pg_stat_force_next_flush()`);
  const rows = await db.database.any(sql.type(readsSchema)`
    SELECT indexrelname AS index, idx_tup_read::int AS reads FROM pg_stat_user_indexes WHERE relname = 'payments'`);
  return Object.fromEntries(rows.map((row) => [row.index, row.reads]));
}

async function readsDuring(claim: () => Promise<readonly unknown[]>): Promise<Record<string, number>> {
  const before = await indexReads();
  // Beyond the five custom plans: the generic plan the prepared claim keeps is measured too.
  for (let round = 0; round < 7; round += 1) {
    expect(await claim()).toHaveLength(LIMIT);
  }
  const after = await indexReads();
  return Object.fromEntries(Object.keys(after).map((index) => [index, (after[index] ?? 0) - (before[index] ?? 0)]));
}

test("a poll claim reads the due index for its batch only, not every pending payment", async () => {
  const reads = await readsDuring(() =>
    claimDuePolls(db.database, DUE_PAYMENTS, { limit: LIMIT, scheduleMs: [60_000], inquiryMinIntervalMs: 0 }),
  );
  expect(reads.payments_pending_code_key).toBe(0);
  expect(reads.payments_due_expiry_idx).toBe(0);
  // Seven claims of eight, each row once (its next poll moved a minute ahead), and little else.
  expect(reads.payments_due_poll_idx).toBeGreaterThanOrEqual(7 * LIMIT);
  expect(reads.payments_due_poll_idx).toBeLessThan(PENDING_DUE / 2);
});

test("an expiry claim reads the expiry index for its batch only, not every pending payment", async () => {
  const reads = await readsDuring(() =>
    claimDueExpiries(db.database, DUE_PAYMENTS, { limit: LIMIT, retryMs: 60_000, retryMaxMs: 60_000 }),
  );
  expect(reads.payments_pending_code_key).toBe(0);
  expect(reads.payments_due_poll_idx).toBe(0);
  expect(reads.payments_due_expiry_idx).toBeGreaterThanOrEqual(7 * LIMIT);
  expect(reads.payments_due_expiry_idx).toBeLessThan(PENDING_DUE / 2);
});
