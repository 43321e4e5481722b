-- Up Migration

-- Polling and expiry in batches (docs/performance.md). Before, every pending payment had its own
-- poll_payment and expire_payment jobs (and a schedule_payment_jobs job per insert statement), so the
-- cost of waiting payments grew with their number. Now one recurring job per pool claims the due rows
-- through these partial indexes, which hold pending payments only: a payment that ends (by callback,
-- a client's GET, mockpay) leaves them and costs no more polling.
--
-- next_poll_at: the gateway-poller's next inquiry (null: no more polls before the code window closes);
--   poll_count: the polls claimed so far, which picks the next delay from the poll schedule.
-- expiry_retry_at: after a claimed expiry whose last inquiry could not decide (gateway down), not
--   before this; expiry_attempts grows its backoff.
-- traceparent: the creating request's span, so each poll continues the request's trace.
ALTER TABLE payments
  ADD COLUMN next_poll_at timestamptz,
  ADD COLUMN poll_count integer NOT NULL DEFAULT 0,
  ADD COLUMN expiry_retry_at timestamptz,
  ADD COLUMN expiry_attempts integer NOT NULL DEFAULT 0,
  ADD COLUMN traceparent text CHECK (char_length(traceparent) <= 128);

CREATE INDEX payments_due_poll_idx ON payments (next_poll_at) WHERE status = 'pending';
CREATE INDEX payments_due_expiry_idx ON payments (expires_at) WHERE status = 'pending';

-- Payments pending at the upgrade are polled from now on, on the schedule's later delays.
UPDATE payments SET next_poll_at = now(), poll_count = 1 WHERE status = 'pending' AND expires_at > now();

-- Their per-payment jobs are no task's any more (the graphile-worker schema exists once a pool or a
-- migration has installed it).
DO $$
BEGIN
  IF to_regclass('graphile_worker._private_jobs') IS NOT NULL THEN
    DELETE FROM graphile_worker._private_jobs
    WHERE task_id IN (SELECT id FROM graphile_worker._private_tasks
      WHERE identifier IN ('poll_payment', 'expire_payment', 'schedule_payment_jobs', 'schedule_unscheduled_payments'))
      AND locked_at IS NULL;
  END IF;
END $$;
