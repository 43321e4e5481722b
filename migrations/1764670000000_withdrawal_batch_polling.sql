-- Up Migration

-- Withdrawal codes polled and expired in batches, as payments are since 1764600000000_payment_batch_polling
-- (docs/performance.md). Before, every pending code had its own poll_withdrawal_code job (re-enqueued
-- after every inquiry) and expire_withdrawal_code job. Now the recurring poll_due_withdrawal_codes
-- (gateway-poller) and expire_due_withdrawal_codes (code-expiry) claim the due rows through these
-- partial indexes, which hold pending codes only: a code that ends (a client's GET, the test claim)
-- leaves them and costs no more polling.
--
-- next_poll_at: the gateway-poller's next inquiry (null: no more polls before the code's expiry);
--   poll_count: the polls claimed so far, which picks the next delay from the poll schedule.
-- expiry_retry_at: after a claimed expiry whose last inquiry could not decide (gateway down), not
--   before this; expiry_attempts grows its backoff.
-- traceparent: the creating request's span, so each poll continues the request's trace (as the
--   per-code jobs' payloads did).
ALTER TABLE withdrawal_codes
  ADD COLUMN next_poll_at timestamptz,
  ADD COLUMN poll_count integer NOT NULL DEFAULT 0,
  ADD COLUMN expiry_retry_at timestamptz,
  ADD COLUMN expiry_attempts integer NOT NULL DEFAULT 0,
  ADD COLUMN traceparent text CHECK (char_length(traceparent) <= 128);

CREATE INDEX withdrawal_codes_due_poll_idx ON withdrawal_codes (next_poll_at) WHERE status = 'pending';
CREATE INDEX withdrawal_codes_due_expiry_idx ON withdrawal_codes (expires_at) WHERE status = 'pending';

-- Codes pending at the upgrade are polled from now on, on the schedule's later delays (their expiry
-- needs nothing: the expiry's claim finds every pending code by expires_at).
UPDATE withdrawal_codes SET next_poll_at = now(), poll_count = 1 WHERE status = 'pending' AND expires_at > now();

-- A code inserted without a poll time (by an API pod of the release before, during the rolling
-- upgrade) is polled at once, then on the schedule; this release always writes the column.
ALTER TABLE withdrawal_codes ALTER COLUMN next_poll_at SET DEFAULT now();

-- Their per-code jobs are no task's any more: the batch tasks poll and expire those codes (the
-- graphile-worker schema exists once a pool or a migration has installed it). A job running now
-- finishes on its pool of the release before; see docs/operations.md for the rolling upgrade.
DO $$
BEGIN
  IF to_regclass('graphile_worker._private_jobs') IS NOT NULL THEN
    DELETE FROM graphile_worker._private_jobs
    WHERE task_id IN (SELECT id FROM graphile_worker._private_tasks
      WHERE identifier IN ('poll_withdrawal_code', 'expire_withdrawal_code'))
      AND locked_at IS NULL;
  END IF;
END $$;
