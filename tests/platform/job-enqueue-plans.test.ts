import { z } from "zod";
import { type Queryable, sql } from "../../src/platform/db/pool.ts";
import { addJobsPlannedPerCall } from "../../src/platform/queue/add-jobs-batch.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";

/**
 * graphile_worker.add_jobs clears the keys it replaces with an UPDATE joined on the jobs table, and
 * PL/pgSQL caches that plan per connection. Batched enqueues plan it per call
 * (`addJobsPlannedPerCall`); otherwise a connection that enqueued while the table was small keeps
 * scanning the whole table on every later enqueue.
 */
describe("batched job enqueues on a jobs table that grew", () => {
  let testDatabase: TestDatabase;
  let jobNumber = 0;
  /** Enqueues `count` keyed jobs in one batched statement, as the webhook fan-out and retries do. */
  const enqueueJobs = async (database: Queryable, count: number) => {
    const first = jobNumber + 1;
    jobNumber += count;
    await database.query(
      sql.unsafe`${addJobsPlannedPerCall(sql.fragment`ARRAY(
      SELECT ROW('plan_probe'::text, '{}'::json, NULL::text, now() + interval '1 hour', 3::integer,
        'plan_probe:' || n, NULL::integer, NULL::text[])::graphile_worker.job_spec
      FROM generate_series(${first}::integer, ${jobNumber}::integer) AS n)`)}`,
    );
  };
  const scansOfJobsTable = z.object({ seq_scan: z.number(), idx_scan: z.number() });

  beforeAll(async () => {
    // One connection: every statement below shares its plan cache.
    testDatabase = await createTestDatabase({ poolSize: 1 });
  });

  afterAll(async () => {
    await testDatabase.close();
  });

  it("finds the keys to replace through the key index, not a scan of every job", async () => {
    const { database } = testDatabase;
    // Enough calls while the table is small for a cached plan to settle on scanning it.
    for (let call = 0; call < 8; call += 1) {
      await enqueueJobs(database, 1);
    }
    await enqueueJobs(database, 20_000);

    const scans = await database.transaction(async (transaction) => {
      // This connection's counters not yet reported to the statistics (earlier statements' included).
      const counters = () =>
        transaction.one(sql.type(scansOfJobsTable)`
          SELECT seq_scan::integer, coalesce(idx_scan, 0)::integer AS idx_scan FROM pg_stat_xact_all_tables
          WHERE relid = 'graphile_worker._private_jobs'::regclass`);
      const before = await counters();
      await enqueueJobs(transaction, 3);
      const after = await counters();
      return { seq_scan: after.seq_scan - before.seq_scan, idx_scan: after.idx_scan - before.idx_scan };
    });
    expect(scans.seq_scan).toBe(0);
    expect(scans.idx_scan).toBeGreaterThan(0);
    const enqueued = await database.oneFirst(sql.type(z.object({ jobs: z.number() }))`
      SELECT count(*)::integer AS jobs FROM graphile_worker.jobs WHERE key LIKE 'plan_probe:%'`);
    expect(enqueued).toBe(jobNumber);
  });
});
