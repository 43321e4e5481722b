-- Up Migration

-- An in-flight claim records the server it was made on (its postmaster's start time). A request cut
-- off by a database failure cannot release its claim (the release fails while the database is away),
-- and the claim, committed before the failure, is still there once the database returns: after a
-- crash restart, or on the standby promoted in its place. So a claim made under another postmaster is
-- abandoned at once instead of blocking its own retry until its lock times out. Taking it over is as
-- safe as taking over an expired lock: an owner still running commits its effects only with its
-- response, and that write checks its owner token, which the takeover replaced.
-- The default is evaluated on the primary that inserts the claim and replicated
-- with it; existing rows take this server's start time (they stay claims of the running server).
ALTER TABLE idempotency_keys ADD COLUMN claimed_under timestamptz NOT NULL DEFAULT pg_postmaster_start_time();

-- Down Migration

ALTER TABLE idempotency_keys DROP COLUMN claimed_under;
