-- Up Migration

-- Payments. The id is the hosted checkout's capability (pay_ + 24 base62 characters, 142 random
-- bits), so it is also unique on its own: the public checkout finds a payment by id alone.
CREATE TABLE payments (
  merchant_id text NOT NULL REFERENCES merchants (id),
  id text NOT NULL,
  livemode boolean NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'paid', 'expired', 'failed')),
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  currency text NOT NULL CHECK (currency IN ('USD', 'ZWG')),
  fee_cents bigint NOT NULL CHECK (fee_cents >= 0 AND fee_cents <= amount_cents),
  narration text CHECK (char_length(narration) <= 200),
  merchant_ref text CHECK (char_length(merchant_ref) <= 200),
  metadata jsonb NOT NULL DEFAULT '{}',
  success_url text CHECK (char_length(success_url) <= 2048),
  cancel_url text CHECK (char_length(cancel_url) <= 2048),
  reference text NOT NULL,
  code text NOT NULL CHECK (code ~ '^[0-9]{9}$'),
  gateway_reference text NOT NULL,
  qr_png_data_url text NOT NULL,
  expires_at timestamptz NOT NULL,
  paid_at timestamptz,
  payer_msisdn text,
  failure_reason text,
  -- When the gateway was last asked about this payment: the throttle shared by every API replica.
  last_inquiry_at timestamptz,
  inquiry_count integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (merchant_id, id),
  CHECK ((status = 'paid') = (paid_at IS NOT NULL)),
  CHECK ((status = 'failed') = (failure_reason IS NOT NULL))
);
CREATE UNIQUE INDEX payments_id_key ON payments (id);
CREATE UNIQUE INDEX payments_reference_key ON payments (reference);
-- A code identifies one payable payment in its world.
CREATE UNIQUE INDEX payments_pending_code_key ON payments (livemode, code) WHERE status = 'pending';
CREATE INDEX payments_list_idx ON payments (merchant_id, livemode, created_at DESC, id DESC);
CREATE INDEX payments_merchant_ref_idx ON payments (merchant_id, livemode, merchant_ref, created_at DESC, id DESC)
  WHERE merchant_ref IS NOT NULL;

-- Down Migration
