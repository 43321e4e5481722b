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
