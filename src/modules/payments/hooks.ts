import type { FragmentSqlToken } from "slonik";
import type { Queryable, Transaction } from "../../platform/db/pool.ts";
import type { PaymentRow } from "./schemas.ts";

/**
 * What other modules may attach to a payment's end, without payments knowing them (payments must not
 * import the modules built on it, such as sales). Whatever a hook writes commits with the payment's
 * guarded state change or not at all, and is written exactly once per transition, whoever observed
 * it (poller, GET refresh, mockpay, expiry job).
 *
 * The hooks are not registered anywhere: the composition (`src/wiring/modules.ts`) lists them and
 * passes the list to every module that can end a payment (`PaymentDependencies.paymentHooks`), so
 * what runs is what the caller was given. A hook returns an optional function to run after the
 * commit (metrics), never inside the transaction.
 */
export type AfterCommit = () => void;

/**
 * What a hook writes with a settlement, as common table expressions of the settlement's one statement
 * (`settlePayment`), prepared before it (the hook may read first).
 */
export type SettlementEffects = {
  /** Names the statement's shape (it is prepared): effects of the same SQL text share it. */
  shape: string;
  /** The CTEs, each writing only when `settled` holds (the payment was settled and `payment.paid` recorded). */
  ctes: (settled: FragmentSqlToken) => FragmentSqlToken;
  /** True in the statement once the effects were written. */
  written: FragmentSqlToken;
  /** Run after the commit, if they were written. */
  afterCommit: AfterCommit;
};

export type PaymentHook = {
  /** The payment is about to be settled (`paid`): what to write with the settlement, or null for nothing. */
  onSettling?: (database: Queryable, payment: PaymentRow) => Promise<SettlementEffects | null>;
  /**
   * The payment just became `expired` or `failed` (nothing was paid): runs inside that transaction,
   * after its guarded state change.
   */
  onEndedUnpaid?: (transaction: Transaction, payment: PaymentRow) => Promise<AfterCommit | undefined>;
};

/** The hooks a process runs at a payment's end, in order. */
export type PaymentHooks = readonly PaymentHook[];

/** What every hook writes with `payment`'s settlement, in the hooks' order. */
export async function settlementEffects(
  hooks: PaymentHooks,
  database: Queryable,
  payment: PaymentRow,
): Promise<SettlementEffects[]> {
  const effects: SettlementEffects[] = [];
  for (const hook of hooks) {
    const effect = (await hook.onSettling?.(database, payment)) ?? null;
    if (effect !== null) {
      effects.push(effect);
    }
  }
  return effects;
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
