import type { FragmentSqlToken } from "slonik";
import { z } from "zod";
import { type Currency, currencies } from "../../kernel/money.ts";
import type { World } from "../../kernel/world.ts";
import type { Queryable, Transaction } from "../../platform/db/pool.ts";
import { conflict, invalidRequest, notFound } from "../../platform/errors.ts";
import { requireOwnTill } from "../../platform/http/access.ts";
import {
  createdAtKey,
  decodeCreatedAtCursor,
  decodeCursor,
  type Page,
  toPage,
} from "../../platform/http/pagination.ts";
import { newId } from "../../platform/ids.ts";
import type { Actor, SessionFacts } from "../../platform/tenant.ts";
import { recordApproval, requireManager } from "../cashiers/index.ts";
import { events } from "../events/index.ts";
import { present, type ShiftView, sumOf } from "./cash.ts";
import * as queries from "./queries.ts";
import type { CashMoveInput, CashMoveRow, CloseShiftInput, OpenShiftInput, ShiftRow, ShiftStatus } from "./schemas.ts";

/**
 * Cash drawer shifts: what the drawer of one till should hold, per currency, from opening to close.
 *
 * Invariants (tested in `shifts.test.ts`):
 * - at most one open shift per till and world (a partial unique index decides between racing opens);
 * - the drawer is a journal of signed cash moves per currency (float, cash sales, refunds of returns,
 *   pay-ins, pay-outs), append-only; expected cash is their sum;
 * - a move joins only an open shift: it share-locks the shift row, the close updates it, so a close
 *   waits for the moves in flight and counts them, and a move after the close is refused
 *   (`shift_not_open`); two closes of one shift: one closes, the other is refused, nothing doubles;
 * - the close freezes expected and counted per currency; every currency the shift holds must be counted.
 *
 * Error codes: `shift_already_open`, `shift_not_open` (409), `parameter_missing`,
 * `invalid_amount`, `invalid_currency`, `parameter_invalid` (400), `resource_missing` (404).
 */

/** Who acts, and the till session they act from (a till acts only on its own drawer; see `requireOwnTill`). */
export type WorldActor = World & { actor: Actor; session?: SessionFacts | undefined };

export type { ShiftCash, ShiftView } from "./cash.ts";

const notOpen = (shift: ShiftRow) => conflict("shift_not_open", `Shift ${shift.id} (till ${shift.till_id}) is closed.`);

/** Opens the till's shift with its counted float per currency, and emits `shift.opened`. */
export async function openShift(transaction: Transaction, world: WorldActor, input: OpenShiftInput): Promise<ShiftRow> {
  requireOwnTill(world.session, input.till_id);
  const shift = await queries.insertOpenShift(transaction, {
    merchantId: world.merchantId,
    livemode: world.livemode,
    id: newId("shift"),
    tillId: input.till_id,
    actor: world.actor,
  });
  if (shift === null) {
    throw conflict("shift_already_open", `Till ${input.till_id} already has an open shift: close it first.`);
  }
  for (const float of input.float) {
    await queries.insertCashMove(transaction, {
      merchantId: world.merchantId,
      id: newId("cmv"),
      shiftId: shift.id,
      kind: "float",
      currency: float.currency,
      amountCents: float.amount_cents,
      reason: null,
      saleId: null,
      returnId: null,
      actor: world.actor,
    });
  }
  await events.emit(transaction, {
    merchantId: world.merchantId,
    livemode: world.livemode,
    type: "shift.opened",
    data: {
      shift_id: shift.id,
      till_id: shift.till_id,
      float: input.float,
      opened_by: { type: world.actor.kind, id: world.actor.id },
      opened_at: shift.created_at.toISOString(),
    },
  });
  return shift;
}

/** The shift, share-locked while open (see `queries.lockOpenShift`); refused when closed or unknown. */
async function lockOpen(transaction: Transaction, world: World, shiftId: string): Promise<ShiftRow> {
  const shift = await queries.lockOpenShift(transaction, world, { shiftId });
  if (shift !== null) {
    return shift;
  }
  throw notOpen(await findShift(transaction, world, shiftId));
}

/** A pay-in or pay-out, with its reason, into an open shift. */
export async function recordPayInOrOut(
  transaction: Transaction,
  world: WorldActor,
  shiftId: string,
  input: CashMoveInput,
): Promise<CashMoveRow> {
  const shift = await lockOpen(transaction, world, shiftId);
  requireOwnTill(world.session, shift.till_id);
  // Cash leaving the drawer needs a manager at a till of a shop with cashiers (Loyverse's pay-out right).
  const approval = input.kind === "pay_out" ? await requireManager(transaction, world, "cash_pay_out") : null;
  const move = await queries.insertCashMove(transaction, {
    merchantId: world.merchantId,
    id: newId("cmv"),
    shiftId: shift.id,
    kind: input.kind,
    currency: input.currency,
    amountCents: input.kind === "pay_in" ? input.amount_cents : -input.amount_cents,
    reason: input.reason,
    saleId: null,
    returnId: null,
    actor: world.actor,
  });
  await recordApproval(transaction, world, approval, { type: "shift_cash_move", id: move.id });
  return move;
}

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
 * Cash of a sale (positive) or of a return's refund (negative, naming the return) in a shift locked
 * by `lockOpenShiftOfTill`.
 */
export async function recordSaleCash(
  transaction: Transaction,
  move: {
    merchantId: string;
    shiftId: string;
    kind: "sale" | "return";
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

/**
 * Closes an open shift: the update waits for moves in flight (they hold the row's share lock), and the
 * sums read after it in the same transaction include them; no move can join afterwards. Freezes expected
 * and counted per currency and emits `shift.closed`.
 */
export async function closeShift(
  transaction: Transaction,
  world: WorldActor,
  shiftId: string,
  input: CloseShiftInput,
): Promise<ShiftView> {
  const shift = await queries.closeShift(transaction, world, {
    shiftId,
    actor: world.actor,
    note: input.note === undefined || input.note === "" ? null : input.note,
  });
  if (shift === null) {
    throw notOpen(await findShift(transaction, world, shiftId));
  }
  // Refused after the update: the transaction's rollback reopens it, and another till's shift stays as it was.
  requireOwnTill(world.session, shift.till_id);
  const totals = await queries.selectCashTotals(transaction, world.merchantId, [shift.id]);
  const held = new Set(totals.map((total) => total.currency));
  const counted = new Map(input.counted.map((count) => [count.currency, count.amount_cents]));
  const uncounted = [...held].filter((currency) => !counted.has(currency));
  if (uncounted.length > 0) {
    throw invalidRequest(
      "parameter_missing",
      `counted: the drawer holds ${uncounted.join(" and ")} for this shift; count it (0 if none is there).`,
    );
  }
  const counts = currencies
    .filter((currency) => held.has(currency) || counted.has(currency))
    .map((currency) => ({
      shiftId: shift.id,
      currency,
      expectedCents: sumOf(totals, currency, () => true),
      countedCents: counted.get(currency) ?? 0,
    }));
  // A drawer that does not hold what it should needs a manager to close it (a till of a shop with cashiers).
  const differs = counts.some((count) => count.countedCents !== count.expectedCents);
  const approval = differs ? await requireManager(transaction, world, "shift_close") : null;
  await queries.insertCounts(transaction, world.merchantId, counts);
  await recordApproval(transaction, world, approval, { type: "shift", id: shift.id });
  const view = present(shift, totals, counts.map(countRow));
  await events.emit(transaction, {
    merchantId: world.merchantId,
    livemode: world.livemode,
    type: "shift.closed",
    data: {
      shift_id: shift.id,
      till_id: shift.till_id,
      cash: view.cash,
      closed_by: { type: world.actor.kind, id: world.actor.id },
      closed_at: shift.closed_at?.toISOString() ?? null,
    },
  });
  return view;
}

const countRow = (count: { shiftId: string; currency: Currency; expectedCents: number; countedCents: number }) => ({
  shift_id: count.shiftId,
  currency: count.currency,
  expected_cents: count.expectedCents,
  counted_cents: count.countedCents,
});

async function withCash(database: Queryable, merchantId: string, shifts: readonly ShiftRow[]): Promise<ShiftView[]> {
  const ids = shifts.map((shift) => shift.id);
  const [totals, counts] = await Promise.all([
    queries.selectCashTotals(database, merchantId, ids),
    queries.selectCounts(database, merchantId, ids),
  ]);
  return shifts.map((shift) =>
    present(
      shift,
      totals.filter((row) => row.shift_id === shift.id),
      counts.filter((row) => row.shift_id === shift.id),
    ),
  );
}

async function findShift(database: Queryable, world: World, shiftId: string): Promise<ShiftRow> {
  const shift = await queries.selectShift(database, world, shiftId);
  if (shift === null) {
    throw notFound(`No such shift: ${shiftId}.`);
  }
  return shift;
}

export async function getShift(database: Queryable, world: World, shiftId: string): Promise<ShiftView> {
  const shift = await findShift(database, world, shiftId);
  // One after the other: `database` may be a transaction's single connection.
  const totals = await queries.selectCashTotals(database, world.merchantId, [shift.id]);
  const counts = await queries.selectCounts(database, world.merchantId, [shift.id]);
  return present(shift, totals, counts);
}

/** A shift's cash moves, oldest first (what the drawer journal holds: float, sales, refunds, pay-ins/outs). */
export async function listCashMoves(
  database: Queryable,
  world: World,
  page: { shiftId: string; limit: number; cursor: string | undefined },
): Promise<Page<CashMoveRow>> {
  // The shift is looked up in the caller's world: another world's or merchant's shift is a 404.
  const shift = await findShift(database, world, page.shiftId);
  const after = page.cursor === undefined ? undefined : decodeCursor(page.cursor, moveCursor);
  const rows = await queries.selectCashMoves(database, {
    merchantId: world.merchantId,
    shiftId: shift.id,
    after: after === undefined ? undefined : { createdUs: after[0], id: after[1] },
    limit: page.limit + 1,
  });
  return toPage(rows, {
    limit: page.limit,
    keyOf: (row) => [row.created_us, row.id],
    present: ({ created_us: _, ...row }) => row,
  });
}

const moveCursor = z.tuple([z.number().int().nonnegative(), z.string()]);

export async function listShifts(
  database: Queryable,
  filter: World & {
    tillId: string | undefined;
    status: ShiftStatus | undefined;
    limit: number;
    cursor: string | undefined;
  },
): Promise<Page<ShiftView>> {
  const rows = await queries.selectShifts(database, {
    ...filter,
    after: decodeCreatedAtCursor(filter.cursor),
    limit: filter.limit + 1,
  });
  const page = toPage(rows, { limit: filter.limit, keyOf: createdAtKey, present: (row) => row });
  return { ...page, data: await withCash(database, filter.merchantId, page.data) };
}
