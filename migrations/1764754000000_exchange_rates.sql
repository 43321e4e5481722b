-- Up Migration

-- The shop's rate of the day between its two currencies (issue 47): a USD basket paid in ZWG is
-- converted at the rate in force when the sale is rung up. Rates are never edited: a new rate is a
-- new row, so every sale can name the rate it used and the history says who set which rate when.
-- Each direction is its own rate (a shop may buy and sell at different rates).
CREATE TABLE exchange_rates (
  merchant_id text NOT NULL REFERENCES merchants (id),
  id text NOT NULL,
  livemode boolean NOT NULL,
  base_currency text NOT NULL CHECK (base_currency IN ('USD', 'ZWG')),
  other_currency text NOT NULL CHECK (other_currency IN ('USD', 'ZWG')),
  -- Cents of the other currency one cent of the base is worth, in millionths (26.7843 → 26784300).
  other_per_base_micros int8 NOT NULL CHECK (other_per_base_micros > 0 AND other_per_base_micros < 1000000000000000),
  actor_type text NOT NULL CHECK (actor_type IN ('api_key', 'dashboard_user', 'till_user')),
  actor_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (merchant_id, id),
  CHECK (base_currency <> other_currency)
);
-- The rate in force (the newest per pair) and the history, newest first.
CREATE INDEX exchange_rates_newest ON exchange_rates (merchant_id, livemode, base_currency, other_currency, created_at DESC, id DESC);

CREATE FUNCTION exchange_rates_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'exchange_rates rows are never changed or deleted: post a new rate';
END $$;
CREATE TRIGGER exchange_rates_append_only BEFORE UPDATE OR DELETE ON exchange_rates
  FOR EACH ROW EXECUTE FUNCTION exchange_rates_append_only();

-- Setting a rate at a till is a manager's act: a manager's PIN may approve it.
ALTER TABLE manager_approvals DROP CONSTRAINT manager_approvals_action_check,
  ADD CONSTRAINT manager_approvals_action_check
  CHECK (action IN ('return', 'cash_pay_out', 'shift_close', 'product_update', 'exchange_rate'));

-- Down Migration

ALTER TABLE manager_approvals DROP CONSTRAINT manager_approvals_action_check,
  ADD CONSTRAINT manager_approvals_action_check
  CHECK (action IN ('return', 'cash_pay_out', 'shift_close', 'product_update'));

DROP TABLE exchange_rates;
DROP FUNCTION exchange_rates_append_only();
