-- Up Migration

-- Webhook deliveries claimed in batches (docs: src/modules/webhooks/README.md). Before, every delivery
-- carried a deliver_webhook job: the fan-out trigger inserted one with each delivery (and its NOTIFY
-- woke every pool listening for jobs), a failed attempt inserted the next, and the
-- requeue_stalled_webhook_deliveries cron re-enqueued deliveries whose job died with its worker. Now
-- the webhook-delivery pool claims due deliveries by their row, in batches (SKIP LOCKED, the lease
-- taken in the claim), woken by a NOTIFY on a channel of its own (webhook_deliveries_due) that only
-- it listens to, and every WORKER_POLL_INTERVAL_MS without one: a delivery needs no job, a retry falls due by
-- its next_attempt_at, and one whose worker died falls due again when its lease lapses. Deliveries
-- pending at the upgrade need nothing: the claim finds them by the same columns.

-- Due: pending, its next attempt's time come, and no live lease (greatest() skips a null lease).
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries ((greatest(next_attempt_at, lease_expires_at)))
  WHERE status = 'pending';
DROP INDEX webhook_deliveries_pending_idx;

-- As before (1764500000000_webhook_developer_api), except that the deliveries get no job: the
-- transaction announces them on webhook_deliveries_due, once however many it made (NOTIFY folds
-- repeats of a channel and payload within a transaction), delivered at its commit.
CREATE OR REPLACE FUNCTION fan_out_event() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
  v_created integer;
BEGIN
  IF NEW.type = 'webhook.test' THEN
    RETURN NULL;
  END IF;
  INSERT INTO webhook_deliveries (merchant_id, id, livemode, endpoint_id, event_id, event_type, status, next_attempt_at)
    SELECT e.merchant_id, 'whd_' || replace(gen_random_uuid()::text, '-', ''), NEW.livemode, e.id, NEW.id, NEW.type,
      'pending', now()
    FROM webhook_endpoints e
    WHERE e.merchant_id = NEW.merchant_id AND e.livemode = NEW.livemode AND e.active
      AND (e.event_types @> ARRAY['*'] OR e.event_types @> ARRAY[NEW.type]);
  GET DIAGNOSTICS v_created = ROW_COUNT;
  IF v_created > 0 THEN
    PERFORM pg_notify('webhook_deliveries_due', '');
  END IF;
  RETURN NULL;
END;
$$;

-- Their per-delivery jobs are no task's any more (the graphile-worker schema exists once a pool or a
-- migration has installed it). A job running now finishes on its pool of the release before, under
-- the delivery's lease; see docs/operations.md for the rolling upgrade.
DO $$
BEGIN
  IF to_regclass('graphile_worker._private_jobs') IS NOT NULL THEN
    DELETE FROM graphile_worker._private_jobs
    WHERE task_id IN (SELECT id FROM graphile_worker._private_tasks
      WHERE identifier IN ('deliver_webhook', 'requeue_stalled_webhook_deliveries'))
      AND locked_at IS NULL;
  END IF;
END $$;
