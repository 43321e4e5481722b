-- Up Migration

-- The commit-time check that every ledger transaction has at least two postings summing to zero per
-- currency (1763900000000_money_core) read the transaction's postings twice, once to count them and
-- once to sum them per currency: two queries per ledger transaction at every commit that moves money.
-- One read now gives both. Same rule, same error (check_violation, same message).
CREATE OR REPLACE FUNCTION check_ledger_transaction_balanced() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
  v_postings integer;
  v_unbalanced text;
BEGIN
  SELECT coalesce(sum(postings), 0), string_agg(currency || ' ' || total, ', ') FILTER (WHERE total <> 0)
    INTO v_postings, v_unbalanced
    FROM (
      SELECT currency, count(*) AS postings, sum(amount_cents) AS total FROM ledger_postings
        WHERE merchant_id = NEW.merchant_id AND transaction_id = NEW.id
        GROUP BY currency) AS sums;
  IF v_postings < 2 OR v_unbalanced IS NOT NULL THEN
    RAISE EXCEPTION 'ledger transaction % does not balance (% postings; unbalanced: %)',
      NEW.id, v_postings, coalesce(v_unbalanced, 'none')
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END;
$$;
