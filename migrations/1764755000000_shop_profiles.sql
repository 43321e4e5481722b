-- Up Migration

-- What a shop prints on its receipts and how it prices tax (issue 47): one row per merchant, shared by
-- both worlds (a TEST receipt shows the shop as the LIVE one will). No row: the defaults below and the
-- merchant's account name.
CREATE TABLE shop_profiles (
  merchant_id text PRIMARY KEY REFERENCES merchants (id),
  display_name text CHECK (char_length(display_name) BETWEEN 1 AND 100),
  address text CHECK (char_length(address) <= 300),
  tax_number text CHECK (char_length(tax_number) <= 50),
  receipt_footer text CHECK (char_length(receipt_footer) <= 300),
  -- Prices entered with tax in them (what a shopper pays) or tax added on top.
  tax_mode text NOT NULL DEFAULT 'inclusive' CHECK (tax_mode IN ('inclusive', 'exclusive')),
  -- The rate of a product that names none, in basis points (15.5 % = 1550).
  default_tax_rate_bp integer NOT NULL DEFAULT 0 CHECK (default_tax_rate_bp BETWEEN 0 AND 10000),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Down Migration

DROP TABLE shop_profiles;
