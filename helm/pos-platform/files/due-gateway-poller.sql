SELECT (SELECT count(*) FROM payments WHERE status = 'pending' AND next_poll_at <= now())
  + (SELECT count(*) FROM withdrawal_codes WHERE status = 'pending' AND next_poll_at <= now())
