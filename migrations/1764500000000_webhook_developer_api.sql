-- Up Migration

-- Rolling an endpoint's signing secret keeps the previous one signing too until it expires, so that a
-- receiver can switch at its own pace (Stripe's scheme: `v1=` twice in X-Pos-Signature). The previous
-- secret is encrypted like the current one, under the same associated data (the endpoint).
-- An expand: images that do not roll secrets never read or write these columns.
ALTER TABLE webhook_endpoints
  ADD COLUMN previous_secret_ciphertext bytea,
  ADD COLUMN previous_secret_expires_at timestamptz,
  ADD CONSTRAINT webhook_endpoints_previous_secret_check
    CHECK ((previous_secret_ciphertext IS NULL) = (previous_secret_expires_at IS NULL));

-- The first bytes of each attempt's response body, for the delivery log (bounded in characters; the
-- poster reads at most 512 bytes of it). Older attempts and failed connections have none.
ALTER TABLE webhook_delivery_attempts
  ADD COLUMN response_excerpt text CHECK (char_length(response_excerpt) <= 512);

-- As before, except for `webhook.test` events: a test event is addressed to one endpoint, whose
-- delivery the API creates itself in the same transaction.
CREATE OR REPLACE FUNCTION fan_out_event() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
  v_jobs_added integer;
BEGIN
  IF NEW.type = 'webhook.test' THEN
    RETURN NULL;
  END IF;
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
