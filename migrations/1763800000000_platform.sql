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

-- The rate limiter's sliding log: the times of a merchant's last `limit` accepted requests, oldest
-- first. Exact: never more than `limit` accepted in any window-long span. Unlogged, because it is
-- ephemeral and written on every request: after a crash or a failover the limiter starts afresh.
CREATE UNLOGGED TABLE rate_limit_windows (
  merchant_id text PRIMARY KEY REFERENCES merchants (id),
  accepted_at timestamptz[] NOT NULL
) WITH (fillfactor = 50);

-- Authenticates an API key and, for an active merchant, takes one request from its rate limit, in a
-- single round trip. Returns no row for an unknown key. The database clock decides the time, so every
-- API replica shares one limiter.
CREATE FUNCTION authenticate_api_key(p_secret_hash bytea, p_rate_limit integer, p_rate_window_ms integer)
RETURNS TABLE (
  key_id text,
  livemode boolean,
  key_revoked boolean,
  merchant_id text,
  merchant_name text,
  merchant_type text,
  merchant_status text,
  fee_bps integer,
  fee_fixed_cents bigint,
  payout_msisdn text,
  payout_verified boolean,
  merchant_created_at timestamptz,
  merchant_updated_at timestamptz,
  rate_limited boolean,
  rate_remaining integer,
  rate_reset_ms integer
)
LANGUAGE plpgsql
AS $$
DECLARE
  v_last_used_at timestamptz;
  v_log timestamptz[];
  v_now timestamptz;
  v_window interval := p_rate_window_ms * interval '1 millisecond';
  v_in_window integer;
  v_oldest timestamptz;
BEGIN
  -- The only writes here are the rate window and a coarse last-used time: losing the last fraction of
  -- a second of them in a server crash is harmless, so this statement's commit does not wait for the
  -- WAL flush. The setting is local to this statement's own transaction, never a money transaction.
  PERFORM set_config('synchronous_commit', 'off', true);
  SELECT k.id, k.livemode, k.revoked_at IS NOT NULL, k.last_used_at, m.id, m.name, m.type, m.status, m.fee_bps,
      m.fee_fixed_cents, m.payout_msisdn, m.payout_verified, m.created_at, m.updated_at
    INTO key_id, livemode, key_revoked, v_last_used_at, merchant_id, merchant_name, merchant_type, merchant_status,
      fee_bps, fee_fixed_cents, payout_msisdn, payout_verified, merchant_created_at, merchant_updated_at
    FROM api_keys k JOIN merchants m ON m.id = k.merchant_id
    WHERE k.secret_hash = p_secret_hash;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  rate_limited := false;
  rate_remaining := p_rate_limit;
  rate_reset_ms := 0;
  IF key_revoked OR merchant_status <> 'active' THEN
    RETURN NEXT;
    RETURN;
  END IF;

  -- Accept: one guarded UPDATE that keeps the log's in-window suffix and appends the time. Its
  -- condition is re-checked on the latest row version once the row is locked, and the appended time is
  -- read after the lock, so the log stays ordered and no window ever holds more than the limit.
  -- The log holds the times of the merchant's last `limit` accepted requests, oldest first. A request
  -- is accepted when the limit-th most recent of them has left the window: an O(1) test. The guarded
  -- UPDATE re-checks it on the latest row version once the row is locked, and reads the appended time
  -- after the lock, so the log stays ordered across replicas and no window holds more than the limit.
  FOR attempt IN 1..3 LOOP
    UPDATE rate_limit_windows w
      SET accepted_at = w.accepted_at[greatest(1, cardinality(w.accepted_at) - p_rate_limit + 2) : cardinality(w.accepted_at)]
        || clock_timestamp()
      WHERE w.merchant_id = authenticate_api_key.merchant_id
        AND (cardinality(w.accepted_at) < p_rate_limit
          OR w.accepted_at[cardinality(w.accepted_at) - p_rate_limit + 1] <= clock_timestamp() - v_window)
      RETURNING w.accepted_at INTO v_log;
    EXIT WHEN FOUND;
    -- Either the window is full, or this merchant has no log yet.
    INSERT INTO rate_limit_windows AS w (merchant_id, accepted_at)
      VALUES (authenticate_api_key.merchant_id, ARRAY[clock_timestamp()])
      ON CONFLICT ON CONSTRAINT rate_limit_windows_pkey DO NOTHING
      RETURNING w.accepted_at INTO v_log;
    EXIT WHEN FOUND;
    SELECT w.accepted_at INTO v_log FROM rate_limit_windows w WHERE w.merchant_id = authenticate_api_key.merchant_id;
    -- Not full means a concurrent first request created the log meanwhile: try again.
    IF (cardinality(v_log) >= p_rate_limit AND v_log[cardinality(v_log) - p_rate_limit + 1] > clock_timestamp() - v_window)
        OR attempt = 3 THEN
      rate_limited := true;
      EXIT;
    END IF;
  END LOOP;
  v_now := clock_timestamp();
  SELECT count(*), min(t) INTO v_in_window, v_oldest FROM unnest(v_log) AS t WHERE t > v_now - v_window;
  rate_remaining := p_rate_limit - v_in_window;
  -- Milliseconds until the oldest request in the window leaves it, freeing a slot.
  rate_reset_ms := coalesce(ceil(extract(epoch FROM (v_oldest + v_window - v_now)) * 1000)::integer, 0);

  -- Keep a coarse "last used" time without writing the key row on every request.
  IF v_last_used_at IS NULL OR v_last_used_at < v_now - interval '1 minute' THEN
    UPDATE api_keys k SET last_used_at = v_now WHERE k.merchant_id = authenticate_api_key.merchant_id AND k.id = key_id;
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
