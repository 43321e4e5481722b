-- Up Migration

-- Money owed to utility billers (ZESA, the mobile networks, DStv, the city) for tokens and top-ups the
-- merchant sold, kept apart from wallet money in gateway clearing. Added NOT VALID then validated, so
-- the scan of existing postings does not block their insertion.
ALTER TABLE ledger_postings DROP CONSTRAINT ledger_postings_account_check;
ALTER TABLE ledger_postings ADD CONSTRAINT ledger_postings_account_check CHECK (account IN (
  'merchant_available', 'platform_fees', 'gateway_clearing', 'payouts_in_transit', 'commissions', 'adjustments',
  'utility_clearing')) NOT VALID;
ALTER TABLE ledger_postings VALIDATE CONSTRAINT ledger_postings_account_check;

-- Payouts: money from the merchant's balance to its verified wallet. The amount leaves the balance for
-- payouts in transit when requested (request_transaction_id), reaches gateway clearing when the gateway
-- confirms (confirm_transaction_id), and comes back by reversal when it fails or an operator reverses it.
-- The payout-processor pool drives it; one actor at a time holds its lease.
CREATE TABLE payouts (
  merchant_id text NOT NULL REFERENCES merchants (id),
  id text NOT NULL,
  livemode boolean NOT NULL,
  status text NOT NULL CHECK (status IN ('requested', 'submitted', 'confirmed', 'failed', 'reversed')),
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  currency text NOT NULL CHECK (currency IN ('USD', 'ZWG')),
  destination_account text NOT NULL CHECK (destination_account ~ '^263[0-9]{6,12}$'),
  destination_name text,
  reference text NOT NULL,
  gateway_reference text,
  failure_reason text,
  reversal_reason text,
  request_transaction_id text NOT NULL,
  confirm_transaction_id text,
  -- Submissions attempted: any attempt whose answer was not received makes the next pass ask the
  -- gateway first (an unclear outcome is settled by inquiry, never guessed).
  submit_attempts integer NOT NULL DEFAULT 0,
  last_submit_attempt_at timestamptz,
  -- When the processor should look at it again; the stalled-payout sweeper re-enqueues overdue ones.
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  -- Held by the one worker acting on it (gateway call included), so two never submit concurrently.
  lease_until timestamptz,
  submitted_at timestamptz,
  confirmed_at timestamptz,
  failed_at timestamptz,
  reversed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (merchant_id, id),
  FOREIGN KEY (merchant_id, request_transaction_id, livemode)
    REFERENCES ledger_transactions (merchant_id, id, livemode),
  FOREIGN KEY (merchant_id, confirm_transaction_id, livemode)
    REFERENCES ledger_transactions (merchant_id, id, livemode),
  CHECK ((status = 'failed') = (failure_reason IS NOT NULL AND failed_at IS NOT NULL)),
  CHECK ((status IN ('confirmed', 'reversed')) = (confirmed_at IS NOT NULL AND confirm_transaction_id IS NOT NULL)),
  CHECK ((status = 'reversed') = (reversed_at IS NOT NULL)),
  CHECK (status = 'requested' OR status = 'failed' OR submitted_at IS NOT NULL)
);
CREATE UNIQUE INDEX payouts_id_key ON payouts (id);
CREATE UNIQUE INDEX payouts_reference_key ON payouts (reference);
CREATE INDEX payouts_list_idx ON payouts (merchant_id, livemode, created_at DESC, id DESC);
-- The stalled-payout sweeper scans only unfinished payouts.
CREATE INDEX payouts_unfinished_idx ON payouts (next_attempt_at) WHERE status IN ('requested', 'submitted');

-- Withdrawal codes: the merchant acts as a cash-out agent. A customer claims the code in their wallet,
-- the network debits them, and the merchant's balance is credited from gateway clearing; unclaimed,
-- the code expires with nothing moved.
CREATE TABLE withdrawal_codes (
  merchant_id text NOT NULL REFERENCES merchants (id),
  id text NOT NULL,
  livemode boolean NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'redeemed', 'expired')),
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  currency text NOT NULL CHECK (currency IN ('USD', 'ZWG')),
  code text NOT NULL CHECK (code ~ '^[0-9]{9}$'),
  reference text NOT NULL,
  gateway_reference text NOT NULL,
  qr_png_data_url text NOT NULL,
  expires_at timestamptz NOT NULL,
  redeemed_at timestamptz,
  customer_msisdn text,
  -- The throttle of gateway inquiries shared by every API replica and the poller.
  last_inquiry_at timestamptz,
  inquiry_count integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (merchant_id, id),
  CHECK ((status = 'redeemed') = (redeemed_at IS NOT NULL))
);
CREATE UNIQUE INDEX withdrawal_codes_id_key ON withdrawal_codes (id);
CREATE UNIQUE INDEX withdrawal_codes_reference_key ON withdrawal_codes (reference);
CREATE UNIQUE INDEX withdrawal_codes_pending_code_key ON withdrawal_codes (livemode, code) WHERE status = 'pending';

-- Change-to-wallet and utility payments are instant transfers: the row and the debit commit first
-- (keyed by the request's Idempotency-Key, so a retry resumes the same transfer), then the gateway is
-- called, then the outcome is recorded. One actor at a time holds the lease; a transfer left
-- `processing` is settled by inquiry (reconcile job).
CREATE TABLE bank_changes (
  merchant_id text NOT NULL REFERENCES merchants (id),
  id text NOT NULL,
  livemode boolean NOT NULL,
  idempotency_key text NOT NULL,
  status text NOT NULL CHECK (status IN ('processing', 'completed', 'failed')),
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  currency text NOT NULL CHECK (currency IN ('USD', 'ZWG')),
  destination_msisdn text NOT NULL CHECK (destination_msisdn ~ '^263[0-9]{6,12}$'),
  recipient_name text,
  narration text CHECK (char_length(narration) <= 200),
  reference text NOT NULL,
  gateway_reference text,
  failure_reason text,
  debit_transaction_id text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  last_attempt_at timestamptz,
  lease_until timestamptz,
  completed_at timestamptz,
  failed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (merchant_id, id),
  UNIQUE (merchant_id, livemode, idempotency_key),
  FOREIGN KEY (merchant_id, debit_transaction_id, livemode) REFERENCES ledger_transactions (merchant_id, id, livemode),
  CHECK ((status = 'completed') = (completed_at IS NOT NULL)),
  CHECK ((status = 'failed') = (failure_reason IS NOT NULL AND failed_at IS NOT NULL))
);
CREATE UNIQUE INDEX bank_changes_id_key ON bank_changes (id);
CREATE UNIQUE INDEX bank_changes_reference_key ON bank_changes (reference);

CREATE TABLE utility_payments (
  merchant_id text NOT NULL REFERENCES merchants (id),
  id text NOT NULL,
  livemode boolean NOT NULL,
  idempotency_key text NOT NULL,
  status text NOT NULL CHECK (status IN ('processing', 'completed', 'failed')),
  provider text NOT NULL,
  provider_product text NOT NULL,
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  fee_cents bigint NOT NULL CHECK (fee_cents >= 0),
  commission_cents bigint NOT NULL CHECK (commission_cents >= 0),
  currency text NOT NULL CHECK (currency IN ('USD', 'ZWG')),
  destination_account text NOT NULL CHECK (char_length(destination_account) <= 64),
  narration text CHECK (char_length(narration) <= 200),
  additional_data jsonb NOT NULL DEFAULT '{}',
  reference text NOT NULL,
  provider_reference text,
  token text,
  receipt jsonb,
  failure_reason text,
  debit_transaction_id text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  last_attempt_at timestamptz,
  lease_until timestamptz,
  completed_at timestamptz,
  failed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (merchant_id, id),
  UNIQUE (merchant_id, livemode, idempotency_key),
  FOREIGN KEY (merchant_id, debit_transaction_id, livemode) REFERENCES ledger_transactions (merchant_id, id, livemode),
  CHECK ((status = 'completed') = (completed_at IS NOT NULL AND receipt IS NOT NULL)),
  CHECK ((status = 'failed') = (failure_reason IS NOT NULL AND failed_at IS NOT NULL))
);
CREATE UNIQUE INDEX utility_payments_id_key ON utility_payments (id);
CREATE UNIQUE INDEX utility_payments_reference_key ON utility_payments (reference);

-- Down Migration
