-- Up Migration

-- Two-factor sign-in (TOTP, RFC 6238). The secret is sealed with the operator key that seals webhook
-- secrets (AES-256-GCM, bound to the user by its associated data), never stored in clear. It is
-- written when enrolment starts and only counts once confirmed with a right code (two_factor_enabled_at).
-- two_factor_last_step is the last TOTP time step accepted: a code of that step or an earlier one is a
-- replay and is refused.
ALTER TABLE dashboard_users
  ADD COLUMN two_factor_secret_ciphertext bytea,
  ADD COLUMN two_factor_enabled_at timestamptz,
  ADD COLUMN two_factor_last_step bigint,
  ADD CONSTRAINT dashboard_users_two_factor_enabled_has_secret
    CHECK (two_factor_enabled_at IS NULL OR two_factor_secret_ciphertext IS NOT NULL);

-- One-time recovery codes: only their SHA-256 (they are random, 50 bits each, so a slow hash adds
-- nothing); a spent code keeps its row with used_at, so it cannot be spent twice.
CREATE TABLE two_factor_recovery_codes (
  merchant_id text NOT NULL,
  user_id text NOT NULL,
  code_hash bytea NOT NULL CHECK (octet_length(code_hash) = 32),
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (merchant_id, user_id, code_hash),
  FOREIGN KEY (merchant_id, user_id) REFERENCES dashboard_users (merchant_id, id) ON DELETE CASCADE
);

-- Down Migration

DROP TABLE two_factor_recovery_codes;
ALTER TABLE dashboard_users
  DROP CONSTRAINT dashboard_users_two_factor_enabled_has_secret,
  DROP COLUMN two_factor_last_step,
  DROP COLUMN two_factor_enabled_at,
  DROP COLUMN two_factor_secret_ciphertext;
