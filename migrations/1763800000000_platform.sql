-- Up Migration

-- Merchants, their dashboard users and API keys. Tenant tables lead their keys with merchant_id so
-- they can later be distributed by merchant.
CREATE TABLE merchants (
  id text PRIMARY KEY,
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
  type text NOT NULL CHECK (type IN ('business', 'individual', 'agent')),
  status text NOT NULL CHECK (status IN ('pending', 'active', 'suspended')),
  fee_bps integer NOT NULL CHECK (fee_bps BETWEEN 0 AND 10000),
  fee_fixed_cents bigint NOT NULL CHECK (fee_fixed_cents >= 0),
  payout_msisdn text CHECK (payout_msisdn ~ '^263[0-9]{6,12}$'),
  payout_verified boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (payout_msisdn IS NOT NULL OR NOT payout_verified)
);

CREATE TABLE dashboard_users (
  merchant_id text NOT NULL REFERENCES merchants (id),
  id text NOT NULL,
  email text NOT NULL CHECK (email = lower(email) AND position('@' IN email) > 1),
  password_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (merchant_id, id)
);
-- Sign-in looks a user up by email alone.
CREATE UNIQUE INDEX dashboard_users_email_key ON dashboard_users (email);

CREATE TABLE api_keys (
  merchant_id text NOT NULL REFERENCES merchants (id),
  id text NOT NULL,
  livemode boolean NOT NULL,
  -- SHA-256 of the whole secret. The secret carries 190 random bits, so a fast hash is enough: no
  -- dictionary exists to attack it, and authentication stays one indexed probe.
  secret_hash bytea NOT NULL CHECK (octet_length(secret_hash) = 32),
  secret_last4 text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at timestamptz,
  PRIMARY KEY (merchant_id, id)
);
CREATE UNIQUE INDEX api_keys_secret_hash_key ON api_keys (secret_hash);

-- The rate limiter's sliding log: the times of the requests accepted in the current window, oldest
-- first, at most `limit` of them. Exact: never more than `limit` accepted in any window-long span.
CREATE TABLE rate_limit_windows (
  merchant_id text PRIMARY KEY REFERENCES merchants (id),
  accepted_at timestamptz[] NOT NULL
);

-- Authenticates an API key and, for an active merchant, takes one request from its rate limit, in a
-- single round trip. Returns no row for an unknown key. The database clock decides the time, so every
-- API replica shares one limiter.
CREATE FUNCTION authenticate_api_key(p_secret_hash bytea, p_rate_limit integer, p_rate_window_ms integer)
RETURNS TABLE (
  key_id text,
  livemode boolean,
  key_revoked boolean,
  merchant jsonb,
  rate_limited boolean,
  rate_remaining integer,
  rate_reset_ms integer
)
LANGUAGE plpgsql
AS $$
DECLARE
  v_key api_keys%ROWTYPE;
  v_merchant merchants%ROWTYPE;
  v_log timestamptz[];
  v_now timestamptz;
  v_window interval := p_rate_window_ms * interval '1 millisecond';
BEGIN
  SELECT * INTO v_key FROM api_keys WHERE secret_hash = p_secret_hash;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  SELECT * INTO v_merchant FROM merchants WHERE id = v_key.merchant_id;
  key_id := v_key.id;
  livemode := v_key.livemode;
  key_revoked := v_key.revoked_at IS NOT NULL;
  merchant := to_jsonb(v_merchant);
  rate_limited := false;
  rate_remaining := p_rate_limit;
  rate_reset_ms := 0;
  IF key_revoked OR v_merchant.status <> 'active' THEN
    RETURN NEXT;
    RETURN;
  END IF;

  SELECT accepted_at INTO v_log FROM rate_limit_windows WHERE merchant_id = v_key.merchant_id FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO rate_limit_windows (merchant_id, accepted_at) VALUES (v_key.merchant_id, '{}')
      ON CONFLICT (merchant_id) DO NOTHING;
    SELECT accepted_at INTO v_log FROM rate_limit_windows WHERE merchant_id = v_key.merchant_id FOR UPDATE;
  END IF;
  -- Read the clock only once the row is locked, so the log stays ordered across concurrent callers.
  v_now := clock_timestamp();
  v_log := ARRAY(SELECT t FROM unnest(v_log) AS t WHERE t > v_now - v_window ORDER BY t);
  IF cardinality(v_log) < p_rate_limit THEN
    v_log := v_log || v_now;
  ELSE
    rate_limited := true;
  END IF;
  UPDATE rate_limit_windows SET accepted_at = v_log WHERE merchant_id = v_key.merchant_id;
  rate_remaining := p_rate_limit - cardinality(v_log);
  -- Milliseconds until the oldest accepted request leaves the window and frees a slot.
  rate_reset_ms := ceil(extract(epoch FROM (v_log[1] + v_window - v_now)) * 1000)::integer;

  -- Keep a coarse "last used" time without writing the key row on every request.
  IF v_key.last_used_at IS NULL OR v_key.last_used_at < v_now - interval '1 minute' THEN
    UPDATE api_keys SET last_used_at = v_now WHERE merchant_id = v_key.merchant_id AND id = v_key.id;
  END IF;
  RETURN NEXT;
END;
$$;

-- Idempotency records for money-moving POSTs, scoped by (merchant, world, key). The response is stored
-- as the exact bytes sent, so a replay is byte-for-byte identical.
CREATE TABLE idempotency_keys (
  merchant_id text NOT NULL REFERENCES merchants (id),
  livemode boolean NOT NULL,
  key text NOT NULL CHECK (char_length(key) BETWEEN 1 AND 255),
  request_method text NOT NULL,
  request_path text NOT NULL,
  request_fingerprint bytea NOT NULL,
  state text NOT NULL CHECK (state IN ('in_flight', 'completed')),
  -- Identifies the execution that owns an in-flight record, so a crashed owner's late commit cannot
  -- overwrite the work of the request that took over after the lock expired.
  owner_token text NOT NULL,
  locked_until timestamptz NOT NULL,
  response_status integer,
  response_body text,
  created_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz,
  PRIMARY KEY (merchant_id, livemode, key),
  CHECK ((state = 'completed') = (response_status IS NOT NULL AND response_body IS NOT NULL))
);
CREATE INDEX idempotency_keys_created_at_idx ON idempotency_keys (created_at);

-- Down Migration
