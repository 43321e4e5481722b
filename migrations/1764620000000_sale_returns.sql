-- Up Migration

-- Returns: some or all lines of a completed sale come back. A return snapshots the lines and
-- quantities returned (by the line's position in the sale) and the cash refunded; like a sale it is
-- never changed. Stock comes back through the stock journal (kind 'return'), the refund leaves the
-- till's open drawer (a 'return' cash move naming the return).
CREATE TABLE sale_returns (
  merchant_id text NOT NULL,
  id text NOT NULL,
  livemode boolean NOT NULL,
  sale_id text NOT NULL,
  currency text NOT NULL CHECK (currency IN ('USD', 'ZWG')),
  refund_cents bigint NOT NULL CHECK (refund_cents >= 0),
  -- Only cash for now: a wallet refund through money-out is a later step.
  refund_tender text NOT NULL CHECK (refund_tender = 'cash'),
  items jsonb NOT NULL CHECK (jsonb_typeof(items) = 'array' AND jsonb_array_length(items) BETWEEN 1 AND 100),
  till_id text CHECK (char_length(till_id) BETWEEN 1 AND 100),
  shift_id text,
  reason text CHECK (char_length(reason) <= 500),
  actor_type text NOT NULL CHECK (actor_type IN ('api_key', 'dashboard_user', 'till_user')),
  actor_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (merchant_id, id),
  FOREIGN KEY (merchant_id, sale_id) REFERENCES sales (merchant_id, id),
  FOREIGN KEY (merchant_id, shift_id) REFERENCES shifts (merchant_id, id),
  CHECK (shift_id IS NULL OR till_id IS NOT NULL)
);
CREATE INDEX sale_returns_sale_idx ON sale_returns (merchant_id, sale_id, created_at);
CREATE TRIGGER sale_returns_append_only BEFORE UPDATE OR DELETE ON sale_returns
  FOR EACH ROW EXECUTE FUNCTION refuse_history_change();
CREATE TRIGGER sale_returns_no_truncate BEFORE TRUNCATE ON sale_returns
  FOR EACH STATEMENT EXECUTE FUNCTION refuse_history_change();

-- The drawer's refund names its return.
ALTER TABLE shift_cash_moves
  ADD COLUMN return_id text,
  ADD CONSTRAINT shift_cash_moves_return_fkey FOREIGN KEY (merchant_id, return_id) REFERENCES sale_returns (merchant_id, id),
  ADD CONSTRAINT shift_cash_moves_return_id CHECK ((kind = 'return') = (return_id IS NOT NULL));

-- Returned units come back on-hand as 'return' moves naming the sale (and the return in their note).
ALTER TABLE stock_moves
  DROP CONSTRAINT stock_moves_kind_check,
  ADD CONSTRAINT stock_moves_kind_check CHECK (kind IN ('receive', 'sale', 'adjust', 'count', 'return')),
  DROP CONSTRAINT stock_moves_check,
  ADD CONSTRAINT stock_moves_check CHECK ((kind IN ('sale', 'return')) = (sale_id IS NOT NULL)),
  ADD CONSTRAINT stock_moves_return_positive CHECK (kind <> 'return' OR qty_delta > 0);

-- Down Migration

ALTER TABLE stock_moves
  DROP CONSTRAINT stock_moves_return_positive,
  DROP CONSTRAINT stock_moves_check,
  ADD CONSTRAINT stock_moves_check CHECK ((kind = 'sale') = (sale_id IS NOT NULL)),
  DROP CONSTRAINT stock_moves_kind_check,
  ADD CONSTRAINT stock_moves_kind_check CHECK (kind IN ('receive', 'sale', 'adjust', 'count'));
ALTER TABLE shift_cash_moves DROP CONSTRAINT shift_cash_moves_return_id,
  DROP CONSTRAINT shift_cash_moves_return_fkey, DROP COLUMN return_id;
DROP TABLE sale_returns;
