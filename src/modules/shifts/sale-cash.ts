import type { FragmentSqlToken } from "slonik";
import type { Currency } from "../../kernel/money.ts";
import type { World } from "../../kernel/world.ts";
import type { Queryable, Transaction } from "../../platform/db/pool.ts";
import { conflict } from "../../platform/errors.ts";
import { newId } from "../../platform/ids.ts";
import type { Actor } from "../../platform/tenant.ts";
import * as queries from "./queries.ts";
import type { ShiftRow } from "./schemas.ts";

/**
 * The cash of sales and returns in a till's open shift: what the sales module calls (`shifts` in
 * `index.ts`), in its own transaction or statement. A move joins only an open shift, holding its row's
 * share lock, so a close waits for the sales in flight (README.md, invariants).
 */

/**
 * The open shift of a till, share-locked until the caller's transaction ends, for cash about to move
 * through its drawer (a cash sale, a refund). Refused when the till has none open.
 */
export async function lockOpenShiftOfTill(transaction: Transaction, world: World, tillId: string): Promise<ShiftRow> {
  const shift = await queries.lockOpenShift(transaction, world, { tillId });
  if (shift === null) {
    throw shiftNotOpen(tillId);
  }
  return shift;
}

export const shiftNotOpen = (tillId: string) =>
  conflict("shift_not_open", `Till ${tillId} has no open shift: open one before taking or paying out cash.`);

/**
 * The till's open shift for a statement that joins it (`salesCashInShifts`), read without a lock;
 * 409 `shift_not_open` when there is none.
 */
export async function openShiftOfTill(database: Queryable, world: World, tillId: string): Promise<ShiftRow> {
  const shift = await queries.selectOpenShiftOfTill(database, world, tillId);
  if (shift === null) {
    throw shiftNotOpen(tillId);
  }
  return shift;
}

/**
 * The cash of sales in shifts read by `openShiftOfTill`, as parts of the one statement that records
 * the sales (a cash sales' batch): `held`, a query of the shifts still open among theirs (`merchant_id`,
 * `livemode`, `id`), share-locked as `lockOpenShiftOfTill` locks them (so a close waits for the sales,
 * or a sale finds its shift closed), and `cashMoves`, their inserts, each written only if `when(sale)`
 * holds for its sale id.
 */
export function salesCashInShifts(
  moves: readonly {
    merchantId: string;
    livemode: boolean;
    shiftId: string;
    saleId: string;
    currency: Currency;
    amountCents: number;
    actor: Actor;
  }[],
  when: (sale: FragmentSqlToken) => FragmentSqlToken,
): { held: FragmentSqlToken; cashMoves: FragmentSqlToken } {
  const shifts = new Map(moves.map((move) => [`${move.merchantId}\u0000${move.livemode}\u0000${move.shiftId}`, move]));
  return {
    held: queries.heldOpenShifts([...shifts.values()]),
    cashMoves: queries.insertCashMovesWhen(
      moves.map((move) => ({
        merchantId: move.merchantId,
        id: newId("cmv"),
        shiftId: move.shiftId,
        kind: "sale",
        currency: move.currency,
        amountCents: move.amountCents,
        reason: null,
        saleId: move.saleId,
        returnId: null,
        actor: move.actor,
      })),
      when,
    ),
  };
}

/**
 * Cash of a sale (positive), of a return's refund (negative, naming the return), of the change a split
 * sale gave (`change`, negative) or of what a cancelled split sale gives back (`sale_cancel`, negative)
 * in a shift locked by `lockOpenShiftOfTill`.
 */
export async function recordSaleCash(
  transaction: Transaction,
  move: {
    merchantId: string;
    shiftId: string;
    kind: "sale" | "return" | "change" | "sale_cancel";
    saleId: string;
    returnId: string | null;
    currency: Currency;
    amountCents: number;
    actor: Actor;
  },
): Promise<void> {
  await queries.insertCashMove(transaction, {
    merchantId: move.merchantId,
    id: newId("cmv"),
    shiftId: move.shiftId,
    kind: move.kind,
    currency: move.currency,
    amountCents: move.amountCents,
    reason: null,
    saleId: move.saleId,
    returnId: move.returnId,
    actor: move.actor,
  });
}
