-- Up Migration

-- Browser sign-in (the dashboard and the till). A session is a random opaque token carried by an
-- HttpOnly cookie; only its SHA-256 is stored (the token carries 190 random bits, so a fast hash is
-- enough, as for API keys). A dashboard session ends after an idle period and at an absolute time; a
-- till session has no idle limit (a shift) and only the absolute one. password_verified_at is the
-- last time the password was entered in this session (sign-in, step-up): live key minting needs it fresh.
CREATE TABLE sessions (
  merchant_id text NOT NULL,
  id text NOT NULL,
  user_id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('dashboard', 'till')),
  token_hash bytea NOT NULL CHECK (octet_length(token_hash) = 32),
  user_agent text CHECK (char_length(user_agent) <= 512),
  client_address text CHECK (char_length(client_address) <= 64),
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  idle_timeout_seconds integer CHECK (idle_timeout_seconds > 0),
  expires_at timestamptz NOT NULL,
  password_verified_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz,
  PRIMARY KEY (merchant_id, id),
  FOREIGN KEY (merchant_id, user_id) REFERENCES dashboard_users (merchant_id, id)
);
-- Every session request looks its session up by token alone.
CREATE UNIQUE INDEX sessions_token_hash_key ON sessions (token_hash);
CREATE INDEX sessions_user_live ON sessions (merchant_id, user_id) WHERE revoked_at IS NULL;

-- Failed sign-ins (and failed password checks of step-up and password change), per account (the
-- email as typed, whether or not a user has it) and per client address. API replicas are stateless,
-- so the brute-force limit is counted here; rows older than the window are deleted as new ones come.
CREATE TABLE sign_in_failures (
  subject text NOT NULL CHECK (char_length(subject) <= 300),
  failed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sign_in_failures_subject ON sign_in_failures (subject, failed_at);

-- Who did what on a merchant's account: sign-ins, failed sign-ins, sign-outs, password changes, keys
-- minted, rolled and revoked (later endpoints changed and payouts requested). Append-only.
CREATE TABLE audit_log (
  merchant_id text NOT NULL REFERENCES merchants (id),
  id text NOT NULL,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  action text NOT NULL CHECK (char_length(action) <= 100),
  actor_type text NOT NULL CHECK (actor_type IN ('api_key', 'dashboard_user', 'till_user', 'anonymous')),
  actor_id text,
  -- The world the action was taken in; null for actions on the account itself (sign-in, password).
  livemode boolean,
  target_type text,
  target_id text,
  client_address text CHECK (char_length(client_address) <= 64),
  user_agent text CHECK (char_length(user_agent) <= 512),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (merchant_id, id)
);
CREATE INDEX audit_log_merchant_seq ON audit_log (merchant_id, seq);
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION refuse_history_change();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION refuse_history_change();

-- Rolling a key lets the old one work until a chosen time; authentication refuses it afterwards as
-- it refuses a revoked one.
ALTER TABLE api_keys ADD COLUMN expires_at timestamptz;

-- Sales and stock moves made from a dashboard session record its user as the actor.
ALTER TABLE sales DROP CONSTRAINT sales_actor_type_check,
  ADD CONSTRAINT sales_actor_type_check CHECK (actor_type IN ('api_key', 'dashboard_user', 'till_user'));
ALTER TABLE stock_moves DROP CONSTRAINT stock_moves_actor_type_check,
  ADD CONSTRAINT stock_moves_actor_type_check CHECK (actor_type IN ('api_key', 'dashboard_user', 'till_user'));

-- Down Migration

ALTER TABLE stock_moves DROP CONSTRAINT stock_moves_actor_type_check,
  ADD CONSTRAINT stock_moves_actor_type_check CHECK (actor_type IN ('api_key', 'till_user'));
ALTER TABLE sales DROP CONSTRAINT sales_actor_type_check,
  ADD CONSTRAINT sales_actor_type_check CHECK (actor_type IN ('api_key', 'till_user'));
ALTER TABLE api_keys DROP COLUMN expires_at;
DROP TABLE audit_log;
DROP TABLE sign_in_failures;
DROP TABLE sessions;
