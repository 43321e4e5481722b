import { migrate } from "../../src/platform/db/migrate.ts";
import { createLogger } from "../../src/platform/telemetry/logger.ts";
import { atReleaseBefore } from "../support/release-before.ts";

/**
 * The upgrade to payouts picked up in batches (migration 1764680000000_payout_batch_processing) on a
 * database holding what the release before left: per-payout jobs and the stalled-payout sweeper's.
 */

const logger = createLogger({ level: "silent", service: "test" });
const MIGRATION = "1764680000000_payout_batch_processing";

test("the unlocked per-payout jobs are gone, a running one is left to finish; payouts carry a traceparent", async () => {
  await atReleaseBefore(MIGRATION, async ({ client, url }) => {
    const addJob = (task: string, key: string) =>
      client.query<{ id: string }>(
        "SELECT id FROM graphile_worker.add_job($1, json_build_object('merchant_id', 'mer_upgrade'), job_key := $2)",
        [task, key],
      );
    await addJob("process_payout", "payout:po_waiting");
    await addJob("requeue_stalled_payouts", "requeue_stalled_payouts:cron");
    await addJob("reconcile_bank_change", "bank_change:other");
    // A pass running on a pool of the release before while the migration runs: it finishes there.
    const running = (await addJob("process_payout", "payout:po_running")).rows[0]?.id;
    await client.query("UPDATE graphile_worker._private_jobs SET locked_at = now(), locked_by = 'old' WHERE id = $1", [
      running,
    ]);

    expect((await migrate({ databaseUrl: url, logger })).applied).toContain(MIGRATION);

    const jobs = await client.query<{ key: string }>("SELECT key FROM graphile_worker.jobs ORDER BY key");
    expect(jobs.rows.map((job) => job.key)).toEqual(["bank_change:other", "payout:po_running"]);
    const column = await client.query<{ data_type: string }>(
      "SELECT data_type FROM information_schema.columns WHERE table_name = 'payouts' AND column_name = 'traceparent'",
    );
    expect(column.rows).toEqual([{ data_type: "text" }]);
  });
});
