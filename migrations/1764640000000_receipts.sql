-- Up Migration

-- Receipts: every sale and return made from now on carries an unguessable token (192 random bits)
-- that is the capability to view its public receipt page (/receipts/<token>), like a payment id is
-- for the hosted checkout. It shows no personal data, so it is stored as is (the API answers the
-- link with the sale). Older rows have none.
ALTER TABLE sales ADD COLUMN receipt_token text CHECK (char_length(receipt_token) = 32);
CREATE UNIQUE INDEX sales_receipt_token_key ON sales (receipt_token) WHERE receipt_token IS NOT NULL;
ALTER TABLE sale_returns ADD COLUMN receipt_token text CHECK (char_length(receipt_token) = 32);
CREATE UNIQUE INDEX sale_returns_receipt_token_key ON sale_returns (receipt_token) WHERE receipt_token IS NOT NULL;

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
        NEW.client_request_fingerprint, NEW.taken_at, NEW.till_id, NEW.shift_id, NEW.receipt_token)
        IS DISTINCT FROM (OLD.merchant_id, OLD.id, OLD.livemode, OLD.tender, OLD.currency, OLD.total_cents, OLD.items,
        OLD.cashier, OLD.note, OLD.payment_id, OLD.actor_type, OLD.actor_id, OLD.created_at, OLD.client_sale_id,
        OLD.client_request_fingerprint, OLD.taken_at, OLD.till_id, OLD.shift_id, OLD.receipt_token) THEN
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
DROP INDEX sale_returns_receipt_token_key;
ALTER TABLE sale_returns DROP COLUMN receipt_token;
DROP INDEX sales_receipt_token_key;
ALTER TABLE sales DROP COLUMN receipt_token;
