-- Up Migration

-- A product's tax rate (issue 47 point 4), in basis points (15.5 % = 1550); null: the shop's default
-- rate (shop_profiles.default_tax_rate_bp), so changing the default re-rates every product that names none.
ALTER TABLE products
  ADD COLUMN tax_rate_bp integer CHECK (tax_rate_bp BETWEEN 0 AND 10000);

-- The largest discount a cashier gives without a manager (issue 47 point 3), as basis points of the
-- sale's gross; above it a till with cashiers asks for a manager's approval. 10000: no limit.
ALTER TABLE shop_profiles
  ADD COLUMN discount_limit_bp integer NOT NULL DEFAULT 10000 CHECK (discount_limit_bp BETWEEN 0 AND 10000);

ALTER TABLE manager_approvals DROP CONSTRAINT manager_approvals_action_check,
  ADD CONSTRAINT manager_approvals_action_check
  CHECK (action IN ('return', 'cash_pay_out', 'shift_close', 'product_update', 'exchange_rate', 'discount'));

-- Why a sale's cart discount was given (each line's own reason is kept on its item); guarded like the rest of a sale.
ALTER TABLE sales ADD COLUMN discount_reason text CHECK (char_length(discount_reason) <= 200);

CREATE OR REPLACE FUNCTION guard_sale_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'sales are never deleted' USING ERRCODE = 'restrict_violation';
  END IF;
  IF OLD.status <> 'pending' OR NEW.status = 'pending'
      OR (NEW.merchant_id, NEW.id, NEW.livemode, NEW.tender, NEW.currency, NEW.total_cents, NEW.items, NEW.cashier,
        NEW.note, NEW.payment_id, NEW.actor_type, NEW.actor_id, NEW.created_at, NEW.client_sale_id,
        NEW.client_request_fingerprint, NEW.taken_at, NEW.till_id, NEW.shift_id, NEW.receipt_token,
        NEW.discount_cents, NEW.tax_cents, NEW.taxes, NEW.tendered_cents, NEW.discount_reason)
        IS DISTINCT FROM (OLD.merchant_id, OLD.id, OLD.livemode, OLD.tender, OLD.currency, OLD.total_cents, OLD.items,
        OLD.cashier, OLD.note, OLD.payment_id, OLD.actor_type, OLD.actor_id, OLD.created_at, OLD.client_sale_id,
        OLD.client_request_fingerprint, OLD.taken_at, OLD.till_id, OLD.shift_id, OLD.receipt_token,
        OLD.discount_cents, OLD.tax_cents, OLD.taxes, OLD.tendered_cents, OLD.discount_reason) THEN
    RAISE EXCEPTION 'sale %: only a pending sale changes, and only its status', OLD.id
      USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN NEW;
END $$;

-- Down Migration

CREATE OR REPLACE FUNCTION guard_sale_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'sales are never deleted' USING ERRCODE = 'restrict_violation';
  END IF;
  IF OLD.status <> 'pending' OR NEW.status = 'pending'
      OR (NEW.merchant_id, NEW.id, NEW.livemode, NEW.tender, NEW.currency, NEW.total_cents, NEW.items, NEW.cashier,
        NEW.note, NEW.payment_id, NEW.actor_type, NEW.actor_id, NEW.created_at, NEW.client_sale_id,
        NEW.client_request_fingerprint, NEW.taken_at, NEW.till_id, NEW.shift_id, NEW.receipt_token,
        NEW.discount_cents, NEW.tax_cents, NEW.taxes, NEW.tendered_cents)
        IS DISTINCT FROM (OLD.merchant_id, OLD.id, OLD.livemode, OLD.tender, OLD.currency, OLD.total_cents, OLD.items,
        OLD.cashier, OLD.note, OLD.payment_id, OLD.actor_type, OLD.actor_id, OLD.created_at, OLD.client_sale_id,
        OLD.client_request_fingerprint, OLD.taken_at, OLD.till_id, OLD.shift_id, OLD.receipt_token,
        OLD.discount_cents, OLD.tax_cents, OLD.taxes, OLD.tendered_cents) THEN
    RAISE EXCEPTION 'sale %: only a pending sale changes, and only its status', OLD.id
      USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN NEW;
END $$;
ALTER TABLE sales DROP COLUMN discount_reason;

ALTER TABLE manager_approvals DROP CONSTRAINT manager_approvals_action_check,
  ADD CONSTRAINT manager_approvals_action_check
  CHECK (action IN ('return', 'cash_pay_out', 'shift_close', 'product_update', 'exchange_rate'));
ALTER TABLE shop_profiles DROP COLUMN discount_limit_bp;
ALTER TABLE products DROP COLUMN tax_rate_bp;
