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
import type { TransactionWithAnswer } from "../../platform/idempotency/service.ts";
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

/**
 * `POST /v1/shifts`: opens the till's shift with its counted float per currency and emits
 * `shift.opened`, in one transaction (`inTransaction`, in which the route's answer is stored too);
 * returns the shift as it opened.
 */
export function openShift(
  inTransaction: TransactionWithAnswer<ShiftView>,
  world: WorldActor,
  input: OpenShiftInput,
): Promise<ShiftView> {
  return inTransaction(async (transaction) => {
    const shift = await recordOpening(transaction, world, input);
    return getShift(transaction, world, shift.id);
  });
}

async function recordOpening(transaction: Transaction, world: WorldActor, input: OpenShiftInput): Promise<ShiftRow> {
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

/** A recorded pay-in or pay-out, and its shift as it now stands. */
export type CashMoveMade = { move: CashMoveRow; view: ShiftView };

/**
 * `POST /v1/shifts/:id/cash_moves`: a pay-in or pay-out, with its reason, into an open shift, in one
 * transaction (`inTransaction`, in which the route's answer is stored too).
 */
export function recordPayInOrOut(
  inTransaction: TransactionWithAnswer<CashMoveMade>,
  world: WorldActor,
  shiftId: string,
  input: CashMoveInput,
): Promise<CashMoveMade> {
  return inTransaction(async (transaction) => {
    const move = await recordCashMove(transaction, world, shiftId, input);
    return { move, view: await getShift(transaction, world, shiftId) };
  });
}

async function recordCashMove(
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
 * `POST /v1/shifts/:id/close`: closes an open shift in one transaction (`inTransaction`, in which the
 * route's answer is stored too). The update waits for moves in flight (they hold the row's share
 * lock), and the sums read after it in the same transaction include them; no move can join
 * afterwards. Freezes expected and counted per currency and emits `shift.closed`.
 */
export function closeShift(
  inTransaction: TransactionWithAnswer<ShiftView>,
  world: WorldActor,
  shiftId: string,
  input: CloseShiftInput,
): Promise<ShiftView> {
  return inTransaction((transaction) => closeOpenShift(transaction, world, shiftId, input));
}

async function closeOpenShift(
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
