-- Up Migration

-- Offline-safe sales. A till that lost the network keeps selling cash and replays its queue later,
-- possibly after the Idempotency-Key (kept about 48 hours) has been purged. So the till names each
-- sale itself (client_sale_id, unique per merchant and world, kept forever with the sale) and the
-- sale remembers the fingerprint of the request that made it: a replay with the same id and body
-- returns the recorded sale; the same id with another body is refused. taken_at is when the sale
-- was rung up at the counter (the till's clock, bounded by the API); null on older rows, where the
-- creation time stands for it.
ALTER TABLE sales
  ADD COLUMN client_sale_id text CHECK (char_length(client_sale_id) BETWEEN 1 AND 100),
  ADD COLUMN client_request_fingerprint bytea CHECK (octet_length(client_request_fingerprint) = 32),
  ADD COLUMN taken_at timestamptz,
  ADD CONSTRAINT sales_client_sale_fingerprint CHECK ((client_sale_id IS NULL) = (client_request_fingerprint IS NULL));
CREATE UNIQUE INDEX sales_client_sale_id_key ON sales (merchant_id, livemode, client_sale_id)
  WHERE client_sale_id IS NOT NULL;

-- The new columns are as immutable as the rest of a sale.
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
        NEW.note, NEW.payment_id, NEW.actor_type, NEW.actor_id, NEW.created_at)
        IS DISTINCT FROM (OLD.merchant_id, OLD.id, OLD.livemode, OLD.tender, OLD.currency, OLD.total_cents, OLD.items,
        OLD.cashier, OLD.note, OLD.payment_id, OLD.actor_type, OLD.actor_id, OLD.created_at) THEN
    RAISE EXCEPTION 'sale %: only a pending sale changes, and only its status', OLD.id
      USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN NEW;
END;
$$;
DROP INDEX sales_client_sale_id_key;
ALTER TABLE sales DROP CONSTRAINT sales_client_sale_fingerprint,
  DROP COLUMN taken_at, DROP COLUMN client_request_fingerprint, DROP COLUMN client_sale_id;
