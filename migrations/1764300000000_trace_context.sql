-- Up Migration

-- The W3C traceparent of the span that emitted an event (null when tracing is off), so the webhook
-- deliveries fanned out from it continue the same trace in the webhook-delivery pool.
ALTER TABLE events ADD COLUMN traceparent text CHECK (char_length(traceparent) <= 128);

-- As before, and the job payload carries the event's traceparent (when there is one).
CREATE OR REPLACE FUNCTION fan_out_event() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
  v_jobs_added integer;
BEGIN
  WITH created AS (
    INSERT INTO webhook_deliveries (merchant_id, id, livemode, endpoint_id, event_id, event_type, status, next_attempt_at)
      SELECT e.merchant_id, 'whd_' || replace(gen_random_uuid()::text, '-', ''), NEW.livemode, e.id, NEW.id, NEW.type,
        'pending', now()
      FROM webhook_endpoints e
      WHERE e.merchant_id = NEW.merchant_id AND e.livemode = NEW.livemode AND e.active
        AND (e.event_types @> ARRAY['*'] OR e.event_types @> ARRAY[NEW.type])
      RETURNING merchant_id, id),
  specs AS (
    SELECT array_agg(ROW('deliver_webhook',
        json_strip_nulls(json_build_object('merchant_id', merchant_id, 'delivery_id', id,
          'traceparent', NEW.traceparent)),
        NULL, NULL, 5, 'webhook_delivery:' || id, NULL, NULL)::graphile_worker.job_spec) AS jobs
      FROM created)
  SELECT count(*) INTO v_jobs_added
    FROM (SELECT jobs FROM specs WHERE jobs IS NOT NULL) AS s, LATERAL graphile_worker.add_jobs(s.jobs);
  RETURN NULL;
END;
$$;

-- Down Migration
