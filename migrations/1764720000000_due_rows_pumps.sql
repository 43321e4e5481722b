-- Payments' and withdrawal codes' polls and expiries and payouts' passes are claimed from their rows by
-- pumps (src/platform/queue/due-pump.ts): the recurring chain jobs that claimed them are no task's any
-- more, nor are the cron entries that restored the chains. A job running now finishes on its pool of
-- the release before (its claims are safe beside the pumps'); see docs/operations.md for the rolling
-- upgrade. The known-crontab rows of cron tasks removed earlier (the sweepers and the payments'
-- scheduler) go too. The graphile-worker schema exists once a pool or a migration has installed it.
DO $$
BEGIN
  IF to_regclass('graphile_worker._private_jobs') IS NOT NULL THEN
    DELETE FROM graphile_worker._private_jobs
    WHERE task_id IN (SELECT id FROM graphile_worker._private_tasks
      WHERE identifier IN ('poll_due_payments', 'expire_due_payments', 'poll_due_withdrawal_codes',
        'expire_due_withdrawal_codes', 'process_due_payouts'))
      AND locked_at IS NULL;
  END IF;
  IF to_regclass('graphile_worker._private_known_crontabs') IS NOT NULL THEN
    DELETE FROM graphile_worker._private_known_crontabs
    WHERE identifier IN ('poll_due_payments', 'expire_due_payments', 'poll_due_withdrawal_codes',
      'expire_due_withdrawal_codes', 'process_due_payouts', 'requeue_stalled_webhook_deliveries',
      'requeue_stalled_payouts', 'schedule_unscheduled_payments');
  END IF;
END $$;
