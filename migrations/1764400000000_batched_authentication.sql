-- Up Migration

-- Authentication takes rate-limit slots for a whole batch of requests in one statement, in which a
-- merchant may appear several times. The update records how many of them it granted, so the
-- statement can tell which requests were accepted (RETURNING sees only the new row, not the old log).
-- An expand: images that do not batch leave it alone.
ALTER TABLE rate_limit_windows ADD COLUMN last_granted integer NOT NULL DEFAULT 0
  CHECK (last_granted >= 0);
