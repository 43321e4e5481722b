import type { FragmentSqlToken } from "slonik";
import type { Database } from "../../platform/db/pool.ts";
import type { PaymentRow } from "./schemas.ts";

/**
 * What other modules may attach to payments' ends, without payments knowing them (payments must not
 * import the modules built on it, such as sales). A hook prepares what it writes with the ends of the
 * payments given (it may read first, once for all of them), and the statement that ends them writes
 * it, for each payment only if that payment's guarded state change wins: exactly once per transition,
 * whoever observed it (poller, GET refresh, mockpay, expiry job). The ends of a moment share one
 * statement (`payment-ends.ts`), so a hook is given the settlements of the moment together, and the
 * unpaid ends together.
 *
 * The hooks are not registered anywhere: the composition (`src/wiring/modules.ts`) lists them and
 * passes the list to every module that can end a payment (`PaymentDependencies.paymentHooks`), so
 * what runs is what the caller was given. A hook returns a function to run after the commit
 * (metrics, a follow-up in a transaction of its own), never inside the transaction.
 */
export type EndEffects = {
  /** Names the statement's shape (it is prepared): effects of the same SQL text share it. */
  shape: string;
  /**
   * The CTEs, writing for each payment only when `ended(paymentId)` holds (`paymentId`: the SQL value
   * of its id; true once that payment ended in this statement and its own event was recorded, so the
   * hook's events follow it).
   */
  ctes: (ended: (paymentId: FragmentSqlToken) => FragmentSqlToken) => FragmentSqlToken;
  /** Run after the commit with the ids of the payments that ended in it. */
  afterCommit: (endedPaymentIds: ReadonlySet<string>) => void;
};

export type PaymentHook = {
  /** The payments are about to be settled (`paid`): what to write with their settlements, or null for nothing. */
  onSettling?: (database: Database, payments: readonly PaymentRow[]) => Promise<EndEffects | null>;
  /** The payments are about to end unpaid (`expired` or `failed`): what to write with that, or null. */
  onEndingUnpaid?: (database: Database, payments: readonly PaymentRow[]) => Promise<EndEffects | null>;
};

/** The hooks a process runs at a payment's end, in order. */
export type PaymentHooks = readonly PaymentHook[];

/** What every hook writes with the ends of `payments` (`paid`, or unpaid), in the hooks' order. */
export async function endEffects(
  hooks: PaymentHooks,
  database: Database,
  payments: readonly PaymentRow[],
  end: "paid" | "unpaid",
): Promise<EndEffects[]> {
  const effects: EndEffects[] = [];
  for (const hook of hooks) {
    const prepare = end === "paid" ? hook.onSettling : hook.onEndingUnpaid;
    const effect = (await prepare?.(database, payments)) ?? null;
    if (effect !== null) {
      effects.push(effect);
    }
  }
  return effects;
}

/** Tells each effect, after the commit, which payments ended. */
export function afterEndsCommitted(effects: readonly EndEffects[], endedPaymentIds: ReadonlySet<string>): void {
  for (const effect of effects) {
    effect.afterCommit(endedPaymentIds);
  }
}
