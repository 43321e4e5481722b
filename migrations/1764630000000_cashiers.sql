-- Up Migration

-- Cashiers: people who work a paired till under the owner's till session, each with a 4-6 digit PIN
-- (stored as a scrypt hash, like passwords: a PIN's few digits must not be readable from a dump).
-- Repeated wrong PINs lock the cashier until the owner unlocks; a disabled cashier can no longer
-- switch in, and a till session's switched-in cashier stops acting the moment it is disabled.
CREATE TABLE cashiers (
  merchant_id text NOT NULL REFERENCES merchants (id),
  id text NOT NULL,
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
  pin_hash text NOT NULL,
  failed_pin_attempts integer NOT NULL DEFAULT 0 CHECK (failed_pin_attempts >= 0),
  locked_at timestamptz,
  disabled_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (merchant_id, id)
);

-- The cashier switched in on a till session: requests of the session act as that cashier.
ALTER TABLE sessions
  ADD COLUMN cashier_id text,
  ADD CONSTRAINT sessions_cashier_fkey FOREIGN KEY (merchant_id, cashier_id) REFERENCES cashiers (merchant_id, id),
  ADD CONSTRAINT sessions_cashier_till CHECK (cashier_id IS NULL OR kind = 'till');

-- Down Migration

ALTER TABLE sessions DROP CONSTRAINT sessions_cashier_till, DROP CONSTRAINT sessions_cashier_fkey,
  DROP COLUMN cashier_id;
DROP TABLE cashiers;
