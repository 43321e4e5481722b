import type { Transaction } from "../../platform/db/pool.ts";
import type { PaymentRow } from "./schemas.ts";

/**
 * What other modules may attach to a payment's end, without payments knowing them (payments must not
 * import the modules built on it, such as sales). A hook runs INSIDE the transaction that makes the
 * payment final, after its guarded state change, so whatever the hook writes commits with that
 * transition or not at all, and runs exactly once per transition, whoever observed it (poller, GET
 * refresh, mockpay, expiry job).
 *
 * The hooks are not registered anywhere: the composition (`src/wiring/modules.ts`) lists them and
 * passes the list to every module that can end a payment (`PaymentDependencies.paymentHooks`), so
 * what runs is what the caller was given. A hook returns an optional function to run after the
 * commit (metrics), never inside the transaction.
 */
export type AfterCommit = () => void;

export type PaymentHook = {
  /** The payment just became `paid`; the ledger and `payment.paid` are written in this transaction. */
  onSettled?: (transaction: Transaction, payment: PaymentRow) => Promise<AfterCommit | undefined>;
  /** The payment just became `expired` or `failed`: nothing was paid. */
  onEndedUnpaid?: (transaction: Transaction, payment: PaymentRow) => Promise<AfterCommit | undefined>;
};

/** The hooks a process runs at a payment's end, in order. */
export type PaymentHooks = readonly PaymentHook[];

export async function runSettledHooks(
  hooks: PaymentHooks,
  transaction: Transaction,
  payment: PaymentRow,
): Promise<AfterCommit[]> {
  const afterCommit: AfterCommit[] = [];
  for (const hook of hooks) {
    const after = await hook.onSettled?.(transaction, payment);
    if (after !== undefined) {
      afterCommit.push(after);
    }
  }
  return afterCommit;
}

export async function runEndedUnpaidHooks(
  hooks: PaymentHooks,
  transaction: Transaction,
  payment: PaymentRow,
): Promise<AfterCommit[]> {
  const afterCommit: AfterCommit[] = [];
  for (const hook of hooks) {
    const after = await hook.onEndedUnpaid?.(transaction, payment);
    if (after !== undefined) {
      afterCommit.push(after);
    }
  }
  return afterCommit;
}
