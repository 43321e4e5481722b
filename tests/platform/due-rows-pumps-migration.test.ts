import { migrate } from "../../src/platform/db/migrate.ts";
import { createLogger } from "../../src/platform/telemetry/logger.ts";
import { atReleaseBefore } from "../support/release-before.ts";

/**
 * The upgrade to polls, expiries and payout passes claimed by pumps (migration
 * 1764720000000_due_rows_pumps) on a database holding what the release before left: the recurring
 * chain jobs, their cron entries and those of cron tasks removed earlier.
 */

const logger = createLogger({ level: "silent", service: "test" });
const MIGRATION = "1764720000000_due_rows_pumps";
const CHAIN_TASKS = [
  "poll_due_payments",
  "expire_due_payments",
  "poll_due_withdrawal_codes",
  "expire_due_withdrawal_codes",
  "process_due_payouts",
];

test("the unlocked chain jobs and the removed tasks' cron rows are gone; a running job and the kept tasks' stay", async () => {
  await atReleaseBefore(MIGRATION, async ({ client, url }) => {
    const addJob = (task: string, key: string) =>
      client.query<{ id: string }>("SELECT id FROM graphile_worker.add_job($1, '{}'::json, job_key := $2)", [
        task,
        key,
      ]);
    for (const task of CHAIN_TASKS) {
      await addJob(task, `${task}:0`);
    }
    await addJob("purge_idempotency_keys", "purge:cron");
    await addJob("reconcile_bank_change", "bank_change:other");
    // A chain's run on a pool of the release before while the migration runs: it finishes there.
    const running = (await addJob("poll_due_payments", "poll_due_payments:1")).rows[0]?.id;
    await client.query("UPDATE graphile_worker._private_jobs SET locked_at = now(), locked_by = 'old' WHERE id = $1", [
      running,
    ]);
    for (const identifier of [...CHAIN_TASKS, "requeue_stalled_payouts", "purge_idempotency_keys"]) {
      await client.query(
        "INSERT INTO graphile_worker._private_known_crontabs (identifier, known_since, last_execution) VALUES ($1, now(), now())",
        [identifier],
      );
    }

    expect((await migrate({ databaseUrl: url, logger })).applied).toContain(MIGRATION);

    const jobs = await client.query<{ key: string }>("SELECT key FROM graphile_worker.jobs ORDER BY key");
    expect(jobs.rows.map((job) => job.key)).toEqual(["bank_change:other", "poll_due_payments:1", "purge:cron"]);
    const crontabs = await client.query<{ identifier: string }>(
      "SELECT identifier FROM graphile_worker._private_known_crontabs ORDER BY identifier",
    );
    expect(crontabs.rows.map((row) => row.identifier)).toEqual(["purge_idempotency_keys"]);
  });
});
