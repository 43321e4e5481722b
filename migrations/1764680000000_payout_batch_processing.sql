-- Up Migration

-- Payouts picked up in batches (docs: src/modules/payouts/README.md). Before, every payout carried a
-- process_payout job (enqueued with the request and again for each next pass), and the
-- requeue_stalled_payouts cron re-enqueued the payouts whose job died with its worker. Now the
-- payout-processor's recurring process_due_payouts claims due payouts by their row (next_attempt_at
-- through payouts_unfinished_idx, the lease taken in the claim): a payout needs no job, and one whose
-- worker died falls due again when its lease lapses. Payouts unfinished at the upgrade need nothing:
-- the claim finds them by the same columns.
--
-- traceparent: the requesting span, so each pass continues the request's trace (as the per-payout
--   jobs' payloads did).
ALTER TABLE payouts ADD COLUMN traceparent text CHECK (char_length(traceparent) <= 128);

-- Their per-payout jobs are no task's any more (the graphile-worker schema exists once a pool or a
-- migration has installed it). A job running now finishes on its pool of the release before, under
-- the payout's lease; see docs/operations.md for the rolling upgrade.
DO $$
BEGIN
  IF to_regclass('graphile_worker._private_jobs') IS NOT NULL THEN
    DELETE FROM graphile_worker._private_jobs
    WHERE task_id IN (SELECT id FROM graphile_worker._private_tasks
      WHERE identifier IN ('process_payout', 'requeue_stalled_payouts'))
      AND locked_at IS NULL;
  END IF;
END $$;
