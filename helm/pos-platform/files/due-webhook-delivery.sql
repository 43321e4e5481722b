SELECT count(*)
FROM webhook_deliveries
WHERE status = 'pending'
  AND greatest(next_attempt_at, lease_expires_at) <= now()
