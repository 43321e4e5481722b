import type { FragmentSqlToken } from "slonik";
import type { Queryable } from "../../platform/db/pool.ts";
import type { PaymentRow } from "./schemas.ts";

/**
 * What other modules may attach to a payment's end, without payments knowing them (payments must not
 * import the modules built on it, such as sales). A hook prepares what it writes with the payment's
 * end (it may read first), and the payment's end writes it in its one statement, only if its guarded
 * state change wins: exactly once per transition, whoever observed it (poller, GET refresh, mockpay,
 * expiry job).
 *
 * The hooks are not registered anywhere: the composition (`src/wiring/modules.ts`) lists them and
 * passes the list to every module that can end a payment (`PaymentDependencies.paymentHooks`), so
 * what runs is what the caller was given. A hook returns an optional function to run after the
 * commit (metrics), never inside the transaction.
 */
export type AfterCommit = () => void;

/** What a hook writes with a payment's end, as common table expressions of the end's one statement. */
export type EndEffects = {
  /** Names the statement's shape (it is prepared): effects of the same SQL text share it. */
  shape: string;
  /** The CTEs, each writing only when `ended` holds (the payment ended and its event was recorded). */
  ctes: (ended: FragmentSqlToken) => FragmentSqlToken;
  /** True in the statement once the effects were written. */
  written: FragmentSqlToken;
  /** Run after the commit, if they were written. */
  afterCommit: AfterCommit;
};

export type PaymentHook = {
  /** The payment is about to be settled (`paid`): what to write with the settlement, or null for nothing. */
  onSettling?: (database: Queryable, payment: PaymentRow) => Promise<EndEffects | null>;
  /** The payment is about to end unpaid (`expired` or `failed`): what to write with that, or null. */
  onEndingUnpaid?: (database: Queryable, payment: PaymentRow) => Promise<EndEffects | null>;
};

/** The hooks a process runs at a payment's end, in order. */
export type PaymentHooks = readonly PaymentHook[];

/** What every hook writes with `payment`'s end (`paid`, or unpaid), in the hooks' order. */
export async function endEffects(
  hooks: PaymentHooks,
  database: Queryable,
  payment: PaymentRow,
  end: "paid" | "unpaid",
): Promise<EndEffects[]> {
  const effects: EndEffects[] = [];
  for (const hook of hooks) {
    const prepare = end === "paid" ? hook.onSettling : hook.onEndingUnpaid;
    const effect = (await prepare?.(database, payment)) ?? null;
    if (effect !== null) {
      effects.push(effect);
    }
  }
  return effects;
}
