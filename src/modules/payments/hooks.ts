import type { Transaction } from "../../platform/db/pool.ts";
import type { PaymentRow } from "./schemas.ts";

/**
 * What other modules may attach to a payment's end, without payments knowing them (payments must not
 * import the modules built on it, such as sales). A hook runs INSIDE the transaction that makes the
 * payment final, after its guarded state change, so whatever the hook writes commits with that
 * transition or not at all, and runs exactly once per transition, whoever observed it (poller, GET
 * refresh, mockpay, expiry job).
 *
 * Hooks are registered by name at wiring time (`src/wiring/payment-hooks.ts`, called by everything
 * that builds the API's routes or a pool's tasks); registering a name again replaces it, so wiring
 * twice is harmless. A hook returns an optional function to run after the commit (metrics), never
 * inside the transaction.
 */
export type AfterCommit = () => void;

export type PaymentHook = {
  /** The payment just became `paid`; the ledger and `payment.paid` are written in this transaction. */
  onSettled?: (transaction: Transaction, payment: PaymentRow) => Promise<AfterCommit | undefined>;
  /** The payment just became `expired` or `failed`: nothing was paid. */
  onEndedUnpaid?: (transaction: Transaction, payment: PaymentRow) => Promise<AfterCommit | undefined>;
};

const hooks = new Map<string, PaymentHook>();

export function registerPaymentHook(name: string, hook: PaymentHook): void {
  hooks.set(name, hook);
}

export async function runSettledHooks(transaction: Transaction, payment: PaymentRow): Promise<AfterCommit[]> {
  const afterCommit: AfterCommit[] = [];
  for (const hook of hooks.values()) {
    const after = await hook.onSettled?.(transaction, payment);
    if (after !== undefined) {
      afterCommit.push(after);
    }
  }
  return afterCommit;
}

export async function runEndedUnpaidHooks(transaction: Transaction, payment: PaymentRow): Promise<AfterCommit[]> {
  const afterCommit: AfterCommit[] = [];
  for (const hook of hooks.values()) {
    const after = await hook.onEndedUnpaid?.(transaction, payment);
    if (after !== undefined) {
      afterCommit.push(after);
    }
  }
  return afterCommit;
}
