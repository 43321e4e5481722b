-- Up Migration

-- Cash drawer shifts. A till (a device, named by the till: till_id) has at most one open shift per
-- world. The drawer's money is a journal of cash moves per currency (USD and ZWG side by side): the
-- opening float, cash sales, cash refunds of returns, pay-ins and pay-outs. Amounts are signed (into
-- the drawer positive), so a shift's expected cash per currency is the sum of its moves. Closing
-- freezes, per currency, what was expected and what was counted.
CREATE TABLE shifts (
  merchant_id text NOT NULL REFERENCES merchants (id),
  id text NOT NULL,
  livemode boolean NOT NULL,
  till_id text NOT NULL CHECK (char_length(till_id) BETWEEN 1 AND 100),
  status text NOT NULL CHECK (status IN ('open', 'closed')),
  opened_by_type text NOT NULL CHECK (opened_by_type IN ('api_key', 'dashboard_user', 'till_user')),
  opened_by_id text NOT NULL,
  closed_by_type text CHECK (closed_by_type IN ('api_key', 'dashboard_user', 'till_user')),
  closed_by_id text,
  close_note text CHECK (char_length(close_note) <= 500),
  created_at timestamptz NOT NULL DEFAULT now(),
  closed_at timestamptz,
  PRIMARY KEY (merchant_id, id),
  CHECK ((status = 'closed') = (closed_at IS NOT NULL)),
  CHECK ((status = 'closed') = (closed_by_id IS NOT NULL AND closed_by_type IS NOT NULL))
);
-- One open shift per till and world: the database decides between two tills opening at once.
CREATE UNIQUE INDEX shifts_one_open_per_till ON shifts (merchant_id, livemode, till_id) WHERE status = 'open';
CREATE INDEX shifts_list_idx ON shifts (merchant_id, livemode, created_at DESC, id DESC);

CREATE TABLE shift_cash_moves (
  merchant_id text NOT NULL,
  id text NOT NULL,
  shift_id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('float', 'sale', 'return', 'pay_in', 'pay_out')),
  currency text NOT NULL CHECK (currency IN ('USD', 'ZWG')),
  amount_cents bigint NOT NULL,
  reason text CHECK (char_length(reason) BETWEEN 1 AND 200),
  sale_id text,
  actor_type text NOT NULL CHECK (actor_type IN ('api_key', 'dashboard_user', 'till_user')),
  actor_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (merchant_id, id),
  FOREIGN KEY (merchant_id, shift_id) REFERENCES shifts (merchant_id, id),
  FOREIGN KEY (merchant_id, sale_id) REFERENCES sales (merchant_id, id),
  -- Into the drawer: float, sales (a free sale moves nothing but is still journaled), pay-ins;
  -- out of it: refunds and pay-outs.
  CHECK (CASE kind WHEN 'float' THEN amount_cents >= 0 WHEN 'sale' THEN amount_cents >= 0
    WHEN 'pay_in' THEN amount_cents > 0 ELSE amount_cents < 0 END),
  CHECK ((kind IN ('pay_in', 'pay_out')) = (reason IS NOT NULL)),
  CHECK ((kind IN ('sale', 'return')) = (sale_id IS NOT NULL))
);
CREATE INDEX shift_cash_moves_shift_idx ON shift_cash_moves (merchant_id, shift_id, created_at, id);
-- A float is given once per currency.
CREATE UNIQUE INDEX shift_cash_moves_one_float ON shift_cash_moves (merchant_id, shift_id, currency)
  WHERE kind = 'float';
CREATE TRIGGER shift_cash_moves_append_only BEFORE UPDATE OR DELETE ON shift_cash_moves
  FOR EACH ROW EXECUTE FUNCTION refuse_history_change();
CREATE TRIGGER shift_cash_moves_no_truncate BEFORE TRUNCATE ON shift_cash_moves
  FOR EACH STATEMENT EXECUTE FUNCTION refuse_history_change();

-- The close, per currency: the expected cash (the moves' sum at closing) and the count.
CREATE TABLE shift_counts (
  merchant_id text NOT NULL,
  shift_id text NOT NULL,
  currency text NOT NULL CHECK (currency IN ('USD', 'ZWG')),
  expected_cents bigint NOT NULL,
  counted_cents bigint NOT NULL CHECK (counted_cents >= 0),
  PRIMARY KEY (merchant_id, shift_id, currency),
  FOREIGN KEY (merchant_id, shift_id) REFERENCES shifts (merchant_id, id)
);
CREATE TRIGGER shift_counts_append_only BEFORE UPDATE OR DELETE ON shift_counts
  FOR EACH ROW EXECUTE FUNCTION refuse_history_change();

-- A sale rung up on a till names it; a cash sale on a till with an open shift belongs to that shift.
ALTER TABLE sales
  ADD COLUMN till_id text CHECK (char_length(till_id) BETWEEN 1 AND 100),
  ADD COLUMN shift_id text,
  ADD CONSTRAINT sales_shift_fkey FOREIGN KEY (merchant_id, shift_id) REFERENCES shifts (merchant_id, id),
  ADD CONSTRAINT sales_shift_cash CHECK (shift_id IS NULL OR (tender = 'cash' AND till_id IS NOT NULL));
CREATE INDEX sales_shift_idx ON sales (merchant_id, shift_id) WHERE shift_id IS NOT NULL;

CREATE OR REPLACE FUNCTION guard_sale_change() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'sales are never deleted' USING ERRCODE = 'restrict_violation';
  END IF;
  IF OLD.status <> 'pending' OR NEW.status = 'pending'
      OR (NEW.merchant_id, NEW.id, NEW.livemode, NEW.tender, NEW.currency, NEW.total_cents, NEW.items, NEW.cashier,
        NEW.note, NEW.payment_id, NEW.actor_type, NEW.actor_id, NEW.created_at, NEW.client_sale_id,
        NEW.client_request_fingerprint, NEW.taken_at, NEW.till_id, NEW.shift_id)
        IS DISTINCT FROM (OLD.merchant_id, OLD.id, OLD.livemode, OLD.tender, OLD.currency, OLD.total_cents, OLD.items,
        OLD.cashier, OLD.note, OLD.payment_id, OLD.actor_type, OLD.actor_id, OLD.created_at, OLD.client_sale_id,
        OLD.client_request_fingerprint, OLD.taken_at, OLD.till_id, OLD.shift_id) THEN
    RAISE EXCEPTION 'sale %: only a pending sale changes, and only its status', OLD.id
      USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN NEW;
END;
$$;

-- Down Migration

CREATE OR REPLACE FUNCTION guard_sale_change() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'sales are never deleted' USING ERRCODE = 'restrict_violation';
  END IF;
  IF OLD.status <> 'pending' OR NEW.status = 'pending'
      OR (NEW.merchant_id, NEW.id, NEW.livemode, NEW.tender, NEW.currency, NEW.total_cents, NEW.items, NEW.cashier,
        NEW.note, NEW.payment_id, NEW.actor_type, NEW.actor_id, NEW.created_at, NEW.client_sale_id,
        NEW.client_request_fingerprint, NEW.taken_at)
        IS DISTINCT FROM (OLD.merchant_id, OLD.id, OLD.livemode, OLD.tender, OLD.currency, OLD.total_cents, OLD.items,
        OLD.cashier, OLD.note, OLD.payment_id, OLD.actor_type, OLD.actor_id, OLD.created_at, OLD.client_sale_id,
        OLD.client_request_fingerprint, OLD.taken_at) THEN
    RAISE EXCEPTION 'sale %: only a pending sale changes, and only its status', OLD.id
      USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN NEW;
END;
$$;
DROP INDEX sales_shift_idx;
ALTER TABLE sales DROP CONSTRAINT sales_shift_cash, DROP CONSTRAINT sales_shift_fkey, DROP COLUMN shift_id,
  DROP COLUMN till_id;
DROP TABLE shift_counts;
DROP TABLE shift_cash_moves;
DROP TABLE shifts;
