-- Up Migration

-- A sale's discounts and tax (issue 47): what came off the lines' gross (line and cart discounts) and
-- the tax the total holds (tax-inclusive prices) or adds (tax-exclusive), per rate in `taxes`
-- ([{rate_bp, taxable_cents, tax_cents}], rounded once per rate: src/kernel/basket.ts). A sale made
-- before discounts and tax has none: 0 and []. Reports total them; like the rest of a sale, they
-- never change.
ALTER TABLE sales
  ADD COLUMN discount_cents int8 NOT NULL DEFAULT 0 CHECK (discount_cents >= 0),
  ADD COLUMN tax_cents int8 NOT NULL DEFAULT 0 CHECK (tax_cents >= 0),
  ADD COLUMN taxes jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(taxes) = 'array');

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

-- Down Migration

CREATE OR REPLACE FUNCTION guard_sale_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'sales are never deleted' USING ERRCODE = 'restrict_violation';
  END IF;
  IF OLD.status <> 'pending' OR NEW.status = 'pending'
      OR (NEW.merchant_id, NEW.id, NEW.livemode, NEW.tender, NEW.currency, NEW.total_cents, NEW.items, NEW.cashier,
        NEW.note, NEW.payment_id, NEW.actor_type, NEW.actor_id, NEW.created_at, NEW.client_sale_id,
        NEW.client_request_fingerprint, NEW.taken_at, NEW.till_id, NEW.shift_id, NEW.receipt_token)
        IS DISTINCT FROM (OLD.merchant_id, OLD.id, OLD.livemode, OLD.tender, OLD.currency, OLD.total_cents, OLD.items,
        OLD.cashier, OLD.note, OLD.payment_id, OLD.actor_type, OLD.actor_id, OLD.created_at, OLD.client_sale_id,
        OLD.client_request_fingerprint, OLD.taken_at, OLD.till_id, OLD.shift_id, OLD.receipt_token) THEN
    RAISE EXCEPTION 'sale %: only a pending sale changes, and only its status', OLD.id
      USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN NEW;
END $$;
ALTER TABLE sales DROP COLUMN discount_cents, DROP COLUMN tax_cents, DROP COLUMN taxes;
