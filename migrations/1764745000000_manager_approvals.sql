-- Up Migration

-- A manager's PIN typed at a till approves one restricted request (a return, a cash pay-out, a drawer
-- closed with a difference, a product change): the till gets a short-lived token, stored here as its
-- SHA-256, bound to the till session that asked and to the one action it approves. The row stays as the
-- record of who approved what (used_for_*), next to the audit entry `manager.approved`.
CREATE TABLE manager_approvals (
  merchant_id text NOT NULL,
  id text NOT NULL,
  session_id text NOT NULL,
  manager_id text NOT NULL,
  -- Who asked: the cashier switched in at the till then (null: nobody was).
  requested_by text,
  action text NOT NULL CHECK (action IN ('return', 'cash_pay_out', 'shift_close', 'product_update')),
  token_hash bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  used_for_type text CHECK (char_length(used_for_type) <= 50),
  used_for_id text CHECK (char_length(used_for_id) <= 100),
  PRIMARY KEY (merchant_id, id),
  FOREIGN KEY (merchant_id, session_id) REFERENCES sessions (merchant_id, id),
  FOREIGN KEY (merchant_id, manager_id) REFERENCES cashiers (merchant_id, id),
  CHECK (expires_at > created_at)
);
-- The session lookup finds an approval by its token's hash.
CREATE UNIQUE INDEX manager_approvals_token_hash ON manager_approvals (token_hash);

-- Down Migration

DROP TABLE manager_approvals;
