import { migrate } from "../../src/platform/db/migrate.ts";
import { createLogger } from "../../src/platform/telemetry/logger.ts";
import { atReleaseBefore } from "../support/release-before.ts";

/**
 * The upgrade to withdrawal codes polled in batches (migration 1764670000000_withdrawal_batch_polling)
 * on a database holding what the release before left: pending codes with their per-code jobs.
 */

const logger = createLogger({ level: "silent", service: "test" });
const MIGRATION = "1764670000000_withdrawal_batch_polling";

test("codes pending at the upgrade are polled from then on; their unlocked per-code jobs are gone", async () => {
  await atReleaseBefore(MIGRATION, async ({ client, url }) => {
    await client.query(`
      INSERT INTO merchants (id, name, type, status, fee_bps, fee_fixed_cents)
      VALUES ('mer_upgrade', 'Upgrade', 'agent', 'active', 0, 0)`);
    const insertCode = (id: string, status: string, expiresAt: string) =>
      client.query(
        `INSERT INTO withdrawal_codes (merchant_id, id, livemode, status, amount_cents, currency, code, reference,
          gateway_reference, qr_png_data_url, expires_at, redeemed_at)
        VALUES ('mer_upgrade', $1, false, $2, 100, 'USD', lpad((abs(hashtext($1)) % 1000000000)::text, 9, '0'),
          'WD' || $1, 'gw', '', ${expiresAt}, CASE WHEN $2 = 'redeemed' THEN now() END)`,
        [id, status],
      );
    await insertCode("wdc_open", "pending", "now() + interval '5 minutes'");
    await insertCode("wdc_lapsed", "pending", "now() - interval '1 minute'");
    await insertCode("wdc_redeemed", "redeemed", "now() + interval '5 minutes'");
    const addJob = (task: string, key: string) =>
      client.query<{ id: string }>(
        "SELECT id FROM graphile_worker.add_job($1, json_build_object('merchant_id', 'mer_upgrade'), job_key := $2)",
        [task, key],
      );
    await addJob("poll_withdrawal_code", "withdrawal_poll:wdc_open");
    await addJob("expire_withdrawal_code", "withdrawal_expiry:wdc_open");
    await addJob("expire_withdrawal_code", "withdrawal_expiry:wdc_lapsed");
    await addJob("reconcile_bank_change", "bank_change:other");
    // A poll running on a pool of the release before while the migration runs: it finishes there.
    const running = (await addJob("poll_withdrawal_code", "withdrawal_poll:wdc_lapsed")).rows[0]?.id;
    await client.query("UPDATE graphile_worker._private_jobs SET locked_at = now(), locked_by = 'old' WHERE id = $1", [
      running,
    ]);

    expect((await migrate({ databaseUrl: url, logger })).applied).toContain(MIGRATION);

    const codes = await client.query<{ id: string; polled_now: boolean | null; poll_count: number }>(`
      SELECT id, next_poll_at <= now() AS polled_now, poll_count FROM withdrawal_codes ORDER BY id`);
    expect(codes.rows).toEqual([
      // Its expiry's claim finds it by expires_at, with the last inquiry first.
      { id: "wdc_lapsed", polled_now: null, poll_count: 0 },
      { id: "wdc_open", polled_now: true, poll_count: 1 },
      { id: "wdc_redeemed", polled_now: null, poll_count: 0 },
    ]);
    const jobs = await client.query<{ key: string }>("SELECT key FROM graphile_worker.jobs ORDER BY key");
    expect(jobs.rows.map((job) => job.key)).toEqual(["bank_change:other", "withdrawal_poll:wdc_lapsed"]);
    // A code an API pod of the release before inserts (without a poll time) is polled at once.
    await insertCode("wdc_old_pod", "pending", "now() + interval '5 minutes'");
    const oldPod = await client.query<{ due: boolean }>(
      "SELECT next_poll_at <= now() AS due FROM withdrawal_codes WHERE id = 'wdc_old_pod'",
    );
    expect(oldPod.rows).toEqual([{ due: true }]);
  });
});
