-- Up Migration

-- Split and two-currency tender (issue 47 points 5 and 6; docs/shop.md "Split and two-currency
-- tender"). A sale made with `tenders` is `split`: its tenders are rows of sale_tenders, in the order
-- they were taken (`position`), each in its own currency with what it counted for in the basket's
-- currency (`credit_cents`, `contributed_cents` = credit less the change it gave) and the rate used.
-- A split sale has no payment of its own: each wallet tender has its payment. It is pending until its
-- tenders cover it and every wallet tender is paid; a failed wallet tender stays, `failed`, and the
-- sale stays pending with what was paid kept.
ALTER TABLE sales DROP CONSTRAINT sales_tender_check,
  ADD CONSTRAINT sales_tender_check CHECK (tender IN ('cash', 'wallet', 'split'));
ALTER TABLE sales DROP CONSTRAINT sales_check1,
  ADD CONSTRAINT sales_pending_tender CHECK (tender IN ('wallet', 'split') OR status = 'completed');
ALTER TABLE sales DROP CONSTRAINT sales_shift_cash,
  ADD CONSTRAINT sales_shift_cash CHECK (shift_id IS NULL OR (tender IN ('cash', 'split') AND till_id IS NOT NULL));

CREATE TABLE sale_tenders (
  merchant_id text NOT NULL,
  sale_id text NOT NULL,
  position int NOT NULL CHECK (position >= 0 AND position < 16),
  livemode boolean NOT NULL,
  kind text NOT NULL CHECK (kind IN ('cash', 'wallet')),
  status text NOT NULL CHECK (status IN ('paid', 'pending', 'failed')),
  currency text NOT NULL CHECK (currency IN ('USD', 'ZWG')),
  amount_cents int8 NOT NULL CHECK (amount_cents > 0),
  -- In the basket's currency: what the tender counts for, and that less the change it gave back.
  credit_cents int8 NOT NULL CHECK (credit_cents >= 0),
  contributed_cents int8 NOT NULL CHECK (contributed_cents >= 0 AND contributed_cents <= credit_cents),
  -- The rate the tender was taken at (null in the basket's currency), copied: rates are never changed, but a
  -- tender must read alone.
  exchange_rate_id text,
  other_per_base_micros int8 CHECK (other_per_base_micros > 0),
  -- The change given when this (cash) tender covered the sale, in the currency the cashier chose.
  change_currency text CHECK (change_currency IN ('USD', 'ZWG')),
  change_cents int8 CHECK (change_cents >= 0),
  payment_id text,
  -- The drawer a cash tender went into.
  shift_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (merchant_id, sale_id, position),
  FOREIGN KEY (merchant_id, sale_id) REFERENCES sales (merchant_id, id),
  FOREIGN KEY (merchant_id, payment_id) REFERENCES payments (merchant_id, id),
  FOREIGN KEY (merchant_id, exchange_rate_id) REFERENCES exchange_rates (merchant_id, id),
  FOREIGN KEY (merchant_id, shift_id) REFERENCES shifts (merchant_id, id),
  CONSTRAINT sale_tenders_payment_key UNIQUE (merchant_id, payment_id),
  CHECK ((kind = 'wallet') = (payment_id IS NOT NULL)),
  CHECK (kind = 'wallet' OR status = 'paid'),
  CHECK (shift_id IS NULL OR kind = 'cash'),
  CHECK ((exchange_rate_id IS NULL) = (other_per_base_micros IS NULL)),
  CHECK ((change_cents IS NULL) = (change_currency IS NULL)),
  CHECK (change_cents IS NULL OR kind = 'cash')
);

-- A tender changes only once: a pending wallet tender becomes paid or failed, nothing else.
CREATE FUNCTION guard_sale_tender_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'sale tenders are never deleted' USING ERRCODE = 'restrict_violation';
  END IF;
  IF OLD.status <> 'pending' OR NEW.status = 'pending'
      OR (NEW.merchant_id, NEW.sale_id, NEW.position, NEW.livemode, NEW.kind, NEW.currency, NEW.amount_cents,
        NEW.credit_cents, NEW.contributed_cents, NEW.exchange_rate_id, NEW.other_per_base_micros, NEW.change_currency,
        NEW.change_cents, NEW.payment_id, NEW.shift_id, NEW.created_at)
        IS DISTINCT FROM (OLD.merchant_id, OLD.sale_id, OLD.position, OLD.livemode, OLD.kind, OLD.currency,
        OLD.amount_cents, OLD.credit_cents, OLD.contributed_cents, OLD.exchange_rate_id, OLD.other_per_base_micros,
        OLD.change_currency, OLD.change_cents, OLD.payment_id, OLD.shift_id, OLD.created_at) THEN
    RAISE EXCEPTION 'sale tender %/%: only a pending tender changes, and only its status', OLD.sale_id, OLD.position
      USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER sale_tenders_guard BEFORE UPDATE OR DELETE ON sale_tenders
  FOR EACH ROW EXECUTE FUNCTION guard_sale_tender_change();

-- A return of a split sale pays each tender's share back in the tender's currency: what was paid out,
-- per share (null: a sale of one tender, refunded in its currency, refund_cents).
ALTER TABLE sale_returns ADD COLUMN refunds jsonb CHECK (refunds IS NULL OR jsonb_typeof(refunds) = 'array');

-- The drawer's moves of split sales: `change` (negative) is the change a split sale gave, in the
-- currency chosen; `sale_cancel` (negative) gives back what a cancelled split sale had taken.
ALTER TABLE shift_cash_moves DROP CONSTRAINT shift_cash_moves_kind_check,
  ADD CONSTRAINT shift_cash_moves_kind_check
  CHECK (kind IN ('float', 'sale', 'return', 'pay_in', 'pay_out', 'change', 'sale_cancel'));
ALTER TABLE shift_cash_moves DROP CONSTRAINT shift_cash_moves_check2,
  ADD CONSTRAINT shift_cash_moves_check2
  CHECK ((kind IN ('sale', 'return', 'change', 'sale_cancel')) = (sale_id IS NOT NULL));

-- Down Migration

ALTER TABLE shift_cash_moves DROP CONSTRAINT shift_cash_moves_check2,
  ADD CONSTRAINT shift_cash_moves_check2 CHECK ((kind IN ('sale', 'return')) = (sale_id IS NOT NULL));
ALTER TABLE shift_cash_moves DROP CONSTRAINT shift_cash_moves_kind_check,
  ADD CONSTRAINT shift_cash_moves_kind_check CHECK (kind IN ('float', 'sale', 'return', 'pay_in', 'pay_out'));
ALTER TABLE sale_returns DROP COLUMN refunds;
DROP TABLE sale_tenders;
DROP FUNCTION guard_sale_tender_change();
ALTER TABLE sales DROP CONSTRAINT sales_shift_cash,
  ADD CONSTRAINT sales_shift_cash CHECK (shift_id IS NULL OR (tender = 'cash' AND till_id IS NOT NULL));
ALTER TABLE sales DROP CONSTRAINT sales_pending_tender,
  ADD CONSTRAINT sales_check1 CHECK (tender = 'wallet' OR status = 'completed');
ALTER TABLE sales DROP CONSTRAINT sales_tender_check,
  ADD CONSTRAINT sales_tender_check CHECK (tender IN ('cash', 'wallet'));
