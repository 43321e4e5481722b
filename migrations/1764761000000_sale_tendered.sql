-- Up Migration

-- What a cash customer handed over (issue 46: "the receipt shows tendered and change"; issue 47
-- point 7): the till sends it when the cashier types the cash given, so the receipt shows tendered
-- and change (tendered_cents − total_cents, never stored: it follows). Null for a wallet sale, a
-- cash sale rung up without it and every sale made before it. Like the rest of a sale, it never changes.
ALTER TABLE sales
  ADD COLUMN tendered_cents int8,
  ADD CONSTRAINT sales_tendered_cash CHECK (tendered_cents IS NULL OR (tender = 'cash' AND tendered_cents >= total_cents));

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
        NEW.discount_cents, NEW.tax_cents, NEW.taxes)
        IS DISTINCT FROM (OLD.merchant_id, OLD.id, OLD.livemode, OLD.tender, OLD.currency, OLD.total_cents, OLD.items,
        OLD.cashier, OLD.note, OLD.payment_id, OLD.actor_type, OLD.actor_id, OLD.created_at, OLD.client_sale_id,
        OLD.client_request_fingerprint, OLD.taken_at, OLD.till_id, OLD.shift_id, OLD.receipt_token,
        OLD.discount_cents, OLD.tax_cents, OLD.taxes) THEN
    RAISE EXCEPTION 'sale %: only a pending sale changes, and only its status', OLD.id
      USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN NEW;
END $$;
ALTER TABLE sales DROP COLUMN tendered_cents;
