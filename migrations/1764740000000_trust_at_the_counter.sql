-- Up Migration

-- Step-up means a password typed in this session just now. The column's default of now() made every
-- new session (a paired till's too) read as "just verified"; a session now starts unverified, and the
-- ones open at this migration are unverified until their owner types the password again.
ALTER TABLE sessions ALTER COLUMN password_verified_at DROP NOT NULL,
  ALTER COLUMN password_verified_at DROP DEFAULT;
UPDATE sessions SET password_verified_at = NULL WHERE password_verified_at IS NOT NULL;

-- A till session is opened by a paired device (its token, or the owner's password at it): the till
-- sessions signed in with a password alone end now, and no new one can be written.
UPDATE sessions SET revoked_at = now() WHERE kind = 'till' AND device_id IS NULL AND revoked_at IS NULL;
ALTER TABLE sessions ADD CONSTRAINT sessions_till_has_device CHECK (kind <> 'till' OR device_id IS NOT NULL) NOT VALID;

-- Cashier roles (Loyverse's access rights): a manager's PIN approves returns, cash pay-outs and a
-- drawer closed with a difference.
ALTER TABLE cashiers ADD COLUMN role text NOT NULL DEFAULT 'cashier' CHECK (role IN ('cashier', 'manager'));

-- Attempt limits that hold under concurrency: an attempt takes its slot (one row per subject, counted
-- by an upsert that locks the row) before its password is checked, so a burst of guesses cannot all
-- read the count before any is recorded. A fixed window per subject: it starts at the first attempt
-- and the count restarts once it has passed. sign_in_failures is no longer written (the release
-- before this one still reads it while both run; a later migration drops it).
CREATE TABLE auth_attempts (
  subject text PRIMARY KEY CHECK (char_length(subject) <= 300),
  attempts integer NOT NULL CHECK (attempts >= 0),
  window_started_at timestamptz NOT NULL
);

-- Down Migration

DROP TABLE auth_attempts;
ALTER TABLE cashiers DROP COLUMN role;
ALTER TABLE sessions DROP CONSTRAINT sessions_till_has_device;
UPDATE sessions SET password_verified_at = created_at WHERE password_verified_at IS NULL;
ALTER TABLE sessions ALTER COLUMN password_verified_at SET DEFAULT now(),
  ALTER COLUMN password_verified_at SET NOT NULL;
