import { z } from "zod";
import * as events from "../../src/modules/events/service.ts";
import { DUE_PAYMENTS } from "../../src/modules/payments/queries.ts";
import { claimDueDeliveries } from "../../src/modules/webhooks/queries.ts";
import { createEndpoint } from "../../src/modules/webhooks/service.ts";
import { claimDueExpiries, claimDuePolls } from "../../src/platform/db/due-claims.ts";
import { sql } from "../../src/platform/db/pool.ts";
import { testConfig } from "../support/app.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { newMerchant } from "../support/factories.ts";

/** The changer the audit log records for endpoints made here. */
const byTestKey = {
  actor: { kind: "api_key", id: "key_test" },
  client: { address: undefined, userAgent: undefined },
} as const;

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
  // Seven claims of eight, each row once (its next poll moved a minute ahead), and the entries the
  // claims before left: a scan marks an entry dead only once no snapshot can see its row, and an
  // autovacuum of this database can hold one meanwhile (224 reads with a snapshot held throughout).
  expect(reads.payments_due_poll_idx).toBeGreaterThanOrEqual(7 * LIMIT);
  expect(reads.payments_due_poll_idx).toBeLessThan(PENDING_DUE);
});

test("an expiry claim reads the expiry index for its batch only, not every pending payment", async () => {
  const reads = await readsDuring(() =>
    claimDueExpiries(db.database, DUE_PAYMENTS, { limit: LIMIT, retryMs: 60_000, retryMaxMs: 60_000 }),
  );
  expect(reads.payments_pending_code_key).toBe(0);
  expect(reads.payments_due_poll_idx).toBe(0);
  // As for polls; a claimed row keeps its place in this index (its retry is another column), so a
  // held snapshot makes each claim read the rows claimed before it twice (392 reads).
  expect(reads.payments_due_expiry_idx).toBeGreaterThanOrEqual(7 * LIMIT);
  expect(reads.payments_due_expiry_idx).toBeLessThan(PENDING_DUE);
});

const tableReadsSchema = z.object({ sequential: z.number(), due: z.number() });

/** The rows `webhook_deliveries` has given to sequential scans, and its due index, so far. */
async function deliveryReads(): Promise<z.infer<typeof tableReadsSchema>> {
  await db.database.query(sql.unsafe`SELECT pg_stat_force_next_flush()`);
  return db.database.one(sql.type(tableReadsSchema)`
    SELECT t.seq_tup_read::int AS sequential, i.idx_tup_read::int AS due
    FROM pg_stat_user_tables t JOIN pg_stat_user_indexes i ON i.relid = t.relid
    WHERE t.relname = 'webhook_deliveries' AND i.indexrelname = 'webhook_deliveries_due_idx'`);
}

test("a delivery claim reads the due index for its batch only, also when first planned while the table was small", async () => {
  const shop = await newMerchant(db.database);
  const world = { merchantId: shop.id, livemode: false };
  await createEndpoint(
    db.database,
    testConfig(db.url),
    world,
    { url: "http://127.0.0.1:9/hooks", event_types: ["*"] },
    byTestKey,
  );
  const emit = (count: number) =>
    db.database.transaction(async (transaction) => {
      for (let index = 0; index < count; index += 1) {
        await events.emit(transaction, { ...world, type: "payment.paid", data: { index } });
      }
    });
  const claimSeven = async () => {
    // Beyond the five custom plans, as in readsDuring.
    for (let round = 0; round < 7; round += 1) {
      expect(await claimDueDeliveries(db.database, { limit: LIMIT, leaseMs: 60_000, merchantId: null })).toHaveLength(
        LIMIT,
      );
    }
  };
  // A few deliveries, delivered, analyzed, and the claim planned while the table is that small; then
  // many due at once.
  await emit(20);
  await db.database.query(sql.unsafe`
    UPDATE webhook_deliveries SET status = 'succeeded', next_attempt_at = NULL, delivered_at = now()`);
  await db.database.query(sql.unsafe`ANALYZE webhook_deliveries`);
  await emit(7 * LIMIT);
  await claimSeven();
  await emit(1200);
  const before = await deliveryReads();
  await claimSeven();
  const after = await deliveryReads();
  expect(after.sequential - before.sequential).toBe(0);
  expect(after.due - before.due).toBeGreaterThanOrEqual(7 * LIMIT);
  // A claim also reads the index entries that rows no longer due left before the due ones: the 20
  // delivered, the 7 × LIMIT claimed before the surge and those claimed earlier in this round. A scan
  // marks such an entry dead only once no snapshot can see its row, and an autovacuum or autoanalyze
  // of this database (the surge's inserts start one) can hold such a snapshot meanwhile: in the worst
  // case each claim reads them all (636 seen once, 756 with a snapshot held throughout). Every
  // pending delivery, the plan this guards against, would be 7 × 1,256 reads.
  expect(after.due - before.due).toBeLessThan(7 * (20 + 2 * 7 * LIMIT + LIMIT));
});
