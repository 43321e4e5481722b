-- Up Migration

-- Product search: trigram operator classes (substring search on name, sku and barcode) and btree_gin
-- (so the merchant id is a key of the same GIN index and a search never wanders into other merchants'
-- products). Both are trusted extensions: the database owner may create them. They live in their own
-- schema so the application schema (and its description in schema.sql) stays ours alone.
CREATE SCHEMA IF NOT EXISTS extensions;
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA extensions;
CREATE EXTENSION IF NOT EXISTS btree_gin WITH SCHEMA extensions;

-- The merchant's time zone (IANA name): "today" in sales reports is the merchant's day. A constant
-- default makes this instant, and the previous release simply does not read it.
ALTER TABLE merchants ADD COLUMN timezone text NOT NULL DEFAULT 'Africa/Harare'
  CHECK (char_length(timezone) BETWEEN 1 AND 64);

-- Authentication now also returns the merchant's time zone (GET /v1/me shows it without a query of
-- its own). The body is the platform migration's, plus that one column; the previous release reads
-- the rows it knows and ignores the new column.
DROP FUNCTION authenticate_api_key(bytea, integer, integer);
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
  rate_reset_ms integer,
  merchant_timezone text
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
      m.fee_fixed_cents, m.payout_msisdn, m.payout_verified, m.created_at, m.updated_at, m.timezone
    INTO key_id, livemode, key_revoked, v_last_used_at, merchant_id, merchant_name, merchant_type, merchant_status,
      fee_bps, fee_fixed_cents, payout_msisdn, payout_verified, merchant_created_at, merchant_updated_at,
      merchant_timezone
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

-- The catalog, shared by a merchant's test and live worlds (no livemode column). `stock_qty` is the
-- on-hand quantity of the real (live) inventory: only the stock module writes it, always together
-- with the journal row that explains the change. Other columns belong to the catalog module.
CREATE TABLE products (
  merchant_id text NOT NULL REFERENCES merchants (id),
  id text NOT NULL,
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
  sku text CHECK (char_length(sku) BETWEEN 1 AND 100),
  barcode text CHECK (char_length(barcode) BETWEEN 1 AND 100),
  category text CHECK (char_length(category) BETWEEN 1 AND 100),
  -- Null: priced at sale time (the sale's line must carry unit_cents).
  price_cents bigint CHECK (price_cents >= 0),
  currency text NOT NULL CHECK (currency IN ('USD', 'ZWG')),
  track_stock boolean NOT NULL,
  stock_qty bigint NOT NULL DEFAULT 0,
  low_stock_at bigint NOT NULL DEFAULT 0 CHECK (low_stock_at >= 0),
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (merchant_id, id),
  -- Unique per merchant, inactive products included (so a restore never collides); nulls are distinct.
  -- Also the scanner's lookup: one probe of this index.
  CONSTRAINT products_barcode_key UNIQUE (merchant_id, barcode)
) WITH (fillfactor = 90);
-- The list's order (name, id), per merchant; stock updates touch no indexed column, so they stay HOT.
CREATE INDEX products_name_idx ON products (merchant_id, name, id);
CREATE INDEX products_category_idx ON products (merchant_id, category, name, id) WHERE category IS NOT NULL;
-- `q`: substring match (ILIKE) on name, sku or barcode, within one merchant: one trigram index over
-- the three joined by a unit separator, chr(31) (a query cannot match across two fields), so a search is one
-- bitmap index scan whose merchant key keeps other merchants' products out.
CREATE INDEX products_search_idx ON products USING gin (
  merchant_id, (name || chr(31) || coalesce(sku, '') || chr(31) || coalesce(barcode, '')) extensions.gin_trgm_ops);

-- Sales, per merchant and world. `items` is the snapshot of the basket taken at sale time (name, unit
-- price, line total): a value, never edited, so later catalog edits cannot change a past sale.
CREATE TABLE sales (
  merchant_id text NOT NULL REFERENCES merchants (id),
  id text NOT NULL,
  livemode boolean NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'completed', 'cancelled')),
  tender text NOT NULL CHECK (tender IN ('cash', 'wallet')),
  currency text NOT NULL CHECK (currency IN ('USD', 'ZWG')),
  total_cents bigint NOT NULL CHECK (total_cents >= 0),
  items jsonb NOT NULL CHECK (jsonb_typeof(items) = 'array' AND jsonb_array_length(items) BETWEEN 1 AND 100),
  cashier text CHECK (char_length(cashier) <= 100),
  note text CHECK (char_length(note) <= 500),
  payment_id text,
  -- Who rang the sale up: an API key, or (later) a till user.
  actor_type text NOT NULL CHECK (actor_type IN ('api_key', 'till_user')),
  actor_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz,
  cancelled_at timestamptz,
  PRIMARY KEY (merchant_id, id),
  FOREIGN KEY (merchant_id, payment_id) REFERENCES payments (merchant_id, id),
  -- A payment pays for at most one sale.
  CONSTRAINT sales_payment_key UNIQUE (merchant_id, payment_id),
  CHECK ((tender = 'wallet') = (payment_id IS NOT NULL)),
  CHECK (tender = 'wallet' OR status = 'completed'),
  CHECK (tender = 'cash' OR total_cents > 0),
  CHECK ((status = 'completed') = (completed_at IS NOT NULL)),
  CHECK ((status = 'cancelled') = (cancelled_at IS NOT NULL))
);
CREATE INDEX sales_list_idx ON sales (merchant_id, livemode, created_at DESC, id DESC);
-- The sales report reads one period of completed sales: its cost follows the period, not the table.
CREATE INDEX sales_report_idx ON sales (merchant_id, livemode, completed_at) INCLUDE (tender, currency, total_cents)
  WHERE status = 'completed';

-- A sale changes once, from pending to completed or cancelled, and nothing else about it ever changes.
CREATE FUNCTION guard_sale_change() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'sales are never deleted' USING ERRCODE = 'restrict_violation';
  END IF;
  IF OLD.status <> 'pending' OR NEW.status = 'pending'
      OR (NEW.merchant_id, NEW.id, NEW.livemode, NEW.tender, NEW.currency, NEW.total_cents, NEW.items, NEW.cashier,
        NEW.note, NEW.payment_id, NEW.actor_type, NEW.actor_id, NEW.created_at)
        IS DISTINCT FROM (OLD.merchant_id, OLD.id, OLD.livemode, OLD.tender, OLD.currency, OLD.total_cents, OLD.items,
        OLD.cashier, OLD.note, OLD.payment_id, OLD.actor_type, OLD.actor_id, OLD.created_at) THEN
    RAISE EXCEPTION 'sale %: only a pending sale changes, and only its status', OLD.id
      USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER sales_guard BEFORE UPDATE OR DELETE ON sales
  FOR EACH ROW EXECUTE FUNCTION guard_sale_change();
CREATE TRIGGER sales_no_truncate BEFORE TRUNCATE ON sales
  FOR EACH STATEMENT EXECUTE FUNCTION refuse_history_change();

-- The stock journal: append-only. Every live move changes on-hand by qty_delta under the product
-- row's lock and records the result, so per product the live moves in seq order replay on-hand
-- exactly (the opening quantity given at creation is a live move too, whichever key created the
-- product). Test-world moves record what would have happened and change nothing: their
-- stock_qty_after is the real on-hand, unchanged.
CREATE TABLE stock_moves (
  merchant_id text NOT NULL,
  id text NOT NULL,
  livemode boolean NOT NULL,
  product_id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('receive', 'sale', 'adjust', 'count')),
  qty_delta bigint NOT NULL,
  stock_qty_after bigint NOT NULL,
  note text CHECK (char_length(note) <= 500),
  actor_type text NOT NULL CHECK (actor_type IN ('api_key', 'till_user')),
  actor_id text NOT NULL,
  sale_id text,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (merchant_id, id),
  FOREIGN KEY (merchant_id, product_id) REFERENCES products (merchant_id, id),
  FOREIGN KEY (merchant_id, sale_id) REFERENCES sales (merchant_id, id),
  CHECK ((kind = 'sale') = (sale_id IS NOT NULL)),
  CHECK (kind = 'count' OR qty_delta <> 0),
  CHECK (kind <> 'receive' OR qty_delta > 0),
  CHECK (kind <> 'sale' OR qty_delta < 0)
);
CREATE INDEX stock_moves_list_idx ON stock_moves (merchant_id, livemode, seq);
CREATE INDEX stock_moves_product_idx ON stock_moves (merchant_id, livemode, product_id, seq);
CREATE TRIGGER stock_moves_append_only BEFORE UPDATE OR DELETE ON stock_moves
  FOR EACH ROW EXECUTE FUNCTION refuse_history_change();
CREATE TRIGGER stock_moves_no_truncate BEFORE TRUNCATE ON stock_moves
  FOR EACH STATEMENT EXECUTE FUNCTION refuse_history_change();

-- Down Migration
