-- Up Migration

-- Till devices: the owner pairs a till once from the dashboard (with a fresh password); the device
-- keeps a long-lived device token (only its SHA-256 is stored, as for sessions and keys) and trades
-- it for till sessions without anyone typing the owner's password at the counter. Revoking the
-- device refuses its token and, at their next request, every session it opened.
CREATE TABLE till_devices (
  merchant_id text NOT NULL,
  id text NOT NULL,
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
  user_id text NOT NULL,
  token_hash bytea NOT NULL CHECK (octet_length(token_hash) = 32),
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at timestamptz,
  PRIMARY KEY (merchant_id, id),
  FOREIGN KEY (merchant_id, user_id) REFERENCES dashboard_users (merchant_id, id)
);
CREATE UNIQUE INDEX till_devices_token_hash_key ON till_devices (token_hash);

ALTER TABLE sessions
  ADD COLUMN device_id text,
  ADD CONSTRAINT sessions_device_fkey FOREIGN KEY (merchant_id, device_id) REFERENCES till_devices (merchant_id, id),
  ADD CONSTRAINT sessions_device_till CHECK (device_id IS NULL OR kind = 'till');

-- Down Migration

ALTER TABLE sessions DROP CONSTRAINT sessions_device_till, DROP CONSTRAINT sessions_device_fkey,
  DROP COLUMN device_id;
DROP TABLE till_devices;
