SELECT (SELECT count(*) FROM payments
    WHERE status = 'pending' AND expires_at <= now() AND (expiry_retry_at IS NULL OR expiry_retry_at <= now()))
  + (SELECT count(*) FROM withdrawal_codes
    WHERE status = 'pending' AND expires_at <= now() AND (expiry_retry_at IS NULL OR expiry_retry_at <= now()))
