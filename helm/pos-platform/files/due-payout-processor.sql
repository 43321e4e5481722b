SELECT count(*)
FROM payouts
WHERE status IN ('requested', 'submitted') AND next_attempt_at <= now()
  AND (lease_until IS NULL OR lease_until <= now())
