-- Up Migration

-- Refuses any change to a history table: rows are appended, never edited or removed. Corrections are
-- new rows that reference the ones they correct.
CREATE FUNCTION refuse_history_change() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP
    USING ERRCODE = 'restrict_violation';
END;
$$;

-- The double-entry ledger. Every movement of money is one ledger transaction whose postings sum to
-- zero per currency. All postings of a transaction belong to one merchant and one world: platform
-- accounts (fees, gateway clearing, ...) are kept per merchant, so summing them across merchants gives
-- the platform's figure, and a transaction never spans two merchants' shards.
CREATE TABLE ledger_transactions (
  merchant_id text NOT NULL REFERENCES merchants (id),
  id text NOT NULL,
  livemode boolean NOT NULL,
  -- Names the movement once and for all (e.g. `payment:pay_…:settle`): the database refuses to record
  -- the same movement twice, whoever retries it.
  posting_key text NOT NULL CHECK (char_length(posting_key) BETWEEN 1 AND 200),
  description text NOT NULL CHECK (char_length(description) <= 500),
  -- The object that caused the movement (a payment, a payout...).
  source_type text NOT NULL,
  source_id text NOT NULL,
  reverses_transaction_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (merchant_id, id),
  UNIQUE (merchant_id, id, livemode),
  UNIQUE (merchant_id, posting_key),
  -- A transaction is reversed at most once, by a transaction of the same world.
  UNIQUE (merchant_id, reverses_transaction_id),
  FOREIGN KEY (merchant_id, reverses_transaction_id, livemode) REFERENCES ledger_transactions (merchant_id, id, livemode)
);

CREATE TABLE ledger_postings (
  merchant_id text NOT NULL,
  id text NOT NULL,
  transaction_id text NOT NULL,
  livemode boolean NOT NULL,
  account text NOT NULL CHECK (account IN (
    'merchant_available', 'platform_fees', 'gateway_clearing', 'payouts_in_transit', 'commissions', 'adjustments')),
  entry_type text NOT NULL CHECK (entry_type IN (
    'payment', 'fee', 'payout', 'withdrawal', 'bank_change', 'utility_payment', 'commission', 'reversal', 'adjustment')),
  currency text NOT NULL CHECK (currency IN ('USD', 'ZWG')),
  -- Signed: positive increases the account's balance.
  amount_cents bigint NOT NULL CHECK (amount_cents <> 0),
  -- The account's balance in this currency and world right after this posting: set by the database.
  balance_after_cents bigint NOT NULL,
  -- Order of application: assigned, with the posting time, once the account's balance row is locked,
  -- so per account and currency neither ever disagrees with balance_after_cents (statements rely on it).
  seq bigint NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (merchant_id, id),
  FOREIGN KEY (merchant_id, transaction_id, livemode) REFERENCES ledger_transactions (merchant_id, id, livemode)
);
CREATE SEQUENCE ledger_postings_seq AS bigint;
-- The merchant's ledger and statement read one account newest-first (or oldest-first) by seq; a
-- statement's opening balance is the last posting before its start, per currency.
CREATE INDEX ledger_postings_account_seq_idx ON ledger_postings (merchant_id, livemode, account, seq);
CREATE INDEX ledger_postings_account_time_idx ON ledger_postings (merchant_id, livemode, account, currency, created_at);
CREATE INDEX ledger_postings_transaction_idx ON ledger_postings (merchant_id, transaction_id);

-- The running balance of each account, maintained only by the posting trigger below. The check is
-- the database's refusal of a merchant balance below zero: concurrent debits serialise on this row's
-- lock, and the one that would overdraw fails, whatever the application believed it saw.
CREATE TABLE ledger_balances (
  merchant_id text NOT NULL REFERENCES merchants (id),
  livemode boolean NOT NULL,
  account text NOT NULL,
  currency text NOT NULL,
  balance_cents bigint NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (merchant_id, livemode, account, currency),
  CONSTRAINT ledger_balances_available_not_negative CHECK (account <> 'merchant_available' OR balance_cents >= 0)
);

CREATE FUNCTION apply_ledger_posting() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  -- Update first: an INSERT ... ON CONFLICT would check the constraint on the proposed new row (the
  -- bare amount) before finding the existing one.
  UPDATE ledger_balances AS b SET balance_cents = b.balance_cents + NEW.amount_cents, updated_at = now()
    WHERE b.merchant_id = NEW.merchant_id AND b.livemode = NEW.livemode AND b.account = NEW.account
      AND b.currency = NEW.currency
    RETURNING b.balance_cents INTO NEW.balance_after_cents;
  IF NOT FOUND THEN
    -- The account's first posting: create its row at zero (a concurrent first posting may win), then apply.
    INSERT INTO ledger_balances (merchant_id, livemode, account, currency, balance_cents)
      VALUES (NEW.merchant_id, NEW.livemode, NEW.account, NEW.currency, 0)
      ON CONFLICT (merchant_id, livemode, account, currency) DO NOTHING;
    UPDATE ledger_balances AS b SET balance_cents = b.balance_cents + NEW.amount_cents, updated_at = now()
      WHERE b.merchant_id = NEW.merchant_id AND b.livemode = NEW.livemode AND b.account = NEW.account
        AND b.currency = NEW.currency
      RETURNING b.balance_cents INTO NEW.balance_after_cents;
  END IF;
  NEW.seq := nextval('ledger_postings_seq');
  NEW.created_at := clock_timestamp();
  RETURN NEW;
END;
$$;
CREATE TRIGGER ledger_postings_apply BEFORE INSERT ON ledger_postings
  FOR EACH ROW EXECUTE FUNCTION apply_ledger_posting();

-- Balances change only through postings: a direct write (trigger depth 1) is refused.
CREATE FUNCTION refuse_direct_balance_write() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  IF pg_trigger_depth() < 2 THEN
    RAISE EXCEPTION 'ledger_balances changes only through ledger postings' USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END;
$$;
CREATE TRIGGER ledger_balances_guard BEFORE INSERT OR UPDATE OR DELETE ON ledger_balances
  FOR EACH ROW EXECUTE FUNCTION refuse_direct_balance_write();

-- At commit, every ledger transaction must have at least two postings summing to zero per currency.
CREATE FUNCTION check_ledger_transaction_balanced() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
  v_postings integer;
  v_unbalanced text;
BEGIN
  SELECT count(*) INTO v_postings
    FROM ledger_postings WHERE merchant_id = NEW.merchant_id AND transaction_id = NEW.id;
  SELECT string_agg(currency || ' ' || total, ', ') INTO v_unbalanced FROM (
    SELECT currency, sum(amount_cents) AS total FROM ledger_postings
      WHERE merchant_id = NEW.merchant_id AND transaction_id = NEW.id
      GROUP BY currency HAVING sum(amount_cents) <> 0) AS sums;
  IF v_postings < 2 OR v_unbalanced IS NOT NULL THEN
    RAISE EXCEPTION 'ledger transaction % does not balance (% postings; unbalanced: %)',
      NEW.id, v_postings, coalesce(v_unbalanced, 'none')
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END;
$$;
CREATE CONSTRAINT TRIGGER ledger_transactions_balanced AFTER INSERT ON ledger_transactions
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION check_ledger_transaction_balanced();

CREATE TRIGGER ledger_transactions_append_only BEFORE UPDATE OR DELETE ON ledger_transactions
  FOR EACH ROW EXECUTE FUNCTION refuse_history_change();
CREATE TRIGGER ledger_transactions_no_truncate BEFORE TRUNCATE ON ledger_transactions
  FOR EACH STATEMENT EXECUTE FUNCTION refuse_history_change();
CREATE TRIGGER ledger_postings_append_only BEFORE UPDATE OR DELETE ON ledger_postings
  FOR EACH ROW EXECUTE FUNCTION refuse_history_change();
CREATE TRIGGER ledger_postings_no_truncate BEFORE TRUNCATE ON ledger_postings
  FOR EACH STATEMENT EXECUTE FUNCTION refuse_history_change();

-- Webhook endpoints, per merchant and world. The signing secret is stored encrypted (AES-256-GCM with
-- an operator key); only its last four characters are kept in clear, to help merchants tell secrets apart.
CREATE TABLE webhook_endpoints (
  merchant_id text NOT NULL REFERENCES merchants (id),
  id text NOT NULL,
  livemode boolean NOT NULL,
  url text NOT NULL CHECK (char_length(url) <= 2048),
  event_types text[] NOT NULL CHECK (cardinality(event_types) >= 1),
  secret_ciphertext bytea NOT NULL,
  secret_last4 text NOT NULL,
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  deactivated_at timestamptz,
  PRIMARY KEY (merchant_id, id),
  CHECK (active = (deactivated_at IS NULL))
);
CREATE INDEX webhook_endpoints_active_idx ON webhook_endpoints (merchant_id, livemode) WHERE active;

-- Events: what happened to a merchant's money, per merchant and world, written in the transaction of
-- the change. Pollers read them in (transaction_xid, seq) order and only once every transaction that
-- could still add an earlier one has ended, so no event is ever skipped (see the events module).
CREATE TABLE events (
  merchant_id text NOT NULL REFERENCES merchants (id),
  id text NOT NULL,
  livemode boolean NOT NULL,
  type text NOT NULL,
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  transaction_xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
  seq bigint GENERATED ALWAYS AS IDENTITY,
  PRIMARY KEY (merchant_id, id)
);
CREATE INDEX events_feed_idx ON events (merchant_id, livemode, transaction_xid, seq);
CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events
  FOR EACH ROW EXECUTE FUNCTION refuse_history_change();

-- One delivery per (event, matching endpoint). The row is the truth about a delivery; jobs only make it
-- timely. A claimed attempt holds a lease: if its worker dies, the lease lapses and the delivery is
-- picked up again (the receiver deduplicates on the event id).
CREATE TABLE webhook_deliveries (
  merchant_id text NOT NULL,
  id text NOT NULL,
  livemode boolean NOT NULL,
  endpoint_id text NOT NULL,
  event_id text NOT NULL,
  event_type text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'dead', 'canceled')),
  attempt_count integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  lease_expires_at timestamptz,
  delivered_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (merchant_id, id),
  FOREIGN KEY (merchant_id, endpoint_id) REFERENCES webhook_endpoints (merchant_id, id),
  FOREIGN KEY (merchant_id, event_id) REFERENCES events (merchant_id, id),
  CHECK ((status = 'pending') = (next_attempt_at IS NOT NULL))
);
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (merchant_id, endpoint_id, created_at DESC, id DESC);
-- The stalled-delivery sweeper scans only pending deliveries.
CREATE INDEX webhook_deliveries_pending_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';

CREATE TABLE webhook_delivery_attempts (
  merchant_id text NOT NULL,
  delivery_id text NOT NULL,
  attempt integer NOT NULL CHECK (attempt >= 1),
  started_at timestamptz NOT NULL,
  duration_ms integer NOT NULL CHECK (duration_ms >= 0),
  -- The receiver's HTTP status, or null when no response arrived (timeout, refused, blocked target).
  response_status integer,
  error text,
  succeeded boolean NOT NULL,
  PRIMARY KEY (merchant_id, delivery_id, attempt),
  FOREIGN KEY (merchant_id, delivery_id) REFERENCES webhook_deliveries (merchant_id, id)
);
CREATE TRIGGER webhook_delivery_attempts_append_only BEFORE UPDATE OR DELETE ON webhook_delivery_attempts
  FOR EACH ROW EXECUTE FUNCTION refuse_history_change();

-- Fans each new event out to the merchant's active endpoints of the same world whose event_types
-- match, and enqueues one `deliver_webhook` job per delivery, all in the event's own transaction: an
-- event and its deliveries commit together or not at all, whoever inserts the event.
CREATE FUNCTION fan_out_event() RETURNS trigger
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
    SELECT array_agg(ROW('deliver_webhook', json_build_object('merchant_id', merchant_id, 'delivery_id', id),
        NULL, NULL, 5, 'webhook_delivery:' || id, NULL, NULL)::graphile_worker.job_spec) AS jobs
      FROM created)
  SELECT count(*) INTO v_jobs_added
    FROM (SELECT jobs FROM specs WHERE jobs IS NOT NULL) AS s, LATERAL graphile_worker.add_jobs(s.jobs);
  RETURN NULL;
END;
$$;
CREATE TRIGGER events_fan_out AFTER INSERT ON events
  FOR EACH ROW EXECUTE FUNCTION fan_out_event();

-- Down Migration
