-- Up Migration

-- A pending payment can be cancelled (the till's "Cancel payment", the sale's cancel, the checkout's
-- Cancel): its code is freed (the pending-code index covers pending rows only) and its sale, if any,
-- cancelled. A payment that still arrives for a cancelled or expired code is recorded, not lost: it
-- keeps its status (the sale stays cancelled) and carries `late_paid_at`, its payer and what the
-- merchant is to do about the money (`late_refund`: due, refunded to the payer's wallet, or to be
-- refunded in cash). `void_state` says whether the gateway confirmed the code void ('voided') or
-- could not ('unconfirmed': a payer may still pay it, so a late payment is watched for).
ALTER TABLE payments DROP CONSTRAINT payments_status_check;
ALTER TABLE payments ADD CONSTRAINT payments_status_check
  CHECK (status IN ('pending', 'paid', 'expired', 'failed', 'cancelled'));
ALTER TABLE payments
  ADD COLUMN cancelled_at timestamptz,
  ADD COLUMN void_state text CHECK (void_state IN ('voided', 'unconfirmed')),
  ADD COLUMN late_paid_at timestamptz,
  ADD COLUMN late_refund text CHECK (late_refund IN ('due', 'wallet', 'cash')),
  ADD COLUMN late_refund_reference text CHECK (char_length(late_refund_reference) <= 100),
  ADD CONSTRAINT payments_cancelled_at_check CHECK ((status = 'cancelled') = (cancelled_at IS NOT NULL)),
  ADD CONSTRAINT payments_late_paid_check CHECK (
    late_paid_at IS NULL OR (status IN ('cancelled', 'expired') AND late_refund IS NOT NULL)),
  ADD CONSTRAINT payments_late_refund_after_late_paid CHECK (late_refund IS NULL OR late_paid_at IS NOT NULL);

-- Cancelled payments whose void the gateway did not confirm, still inside their code window: asked
-- about until the window closes, so a payment made meanwhile is found (few rows: a partial index).
CREATE INDEX payments_unconfirmed_void_idx ON payments (expires_at)
  WHERE status = 'cancelled' AND void_state = 'unconfirmed' AND late_paid_at IS NULL;
