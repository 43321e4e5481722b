import type { FragmentSqlToken } from "slonik";
import { z } from "zod";
import type { Currency } from "../../kernel/money.ts";
import type { World } from "../../kernel/world.ts";
import { afterPreviousRow } from "../../platform/db/newest-first.ts";
import { type Queryable, sql, type Transaction } from "../../platform/db/pool.ts";
import type { Actor } from "../../platform/tenant.ts";
import {
  type CashMoveKind,
  type CashMoveRow,
  type CashTotalRow,
  cashMoveRowSchema,
  cashTotalRowSchema,
  type ShiftCountRow,
  type ShiftRow,
  type ShiftStatus,
  shiftCountRowSchema,
  shiftRowSchema,
} from "./schemas.ts";

const SHIFT_COLUMNS = sql.fragment`merchant_id, id, livemode, till_id, status, opened_by_type, opened_by_id,
  closed_by_type, closed_by_id, close_note, created_at, closed_at`;
export const MOVE_COLUMNS = sql.fragment`merchant_id, id, shift_id, kind, currency, amount_cents, reason, sale_id,
  return_id, actor_type, actor_id, created_at`;

/** Opens a shift; null when the till already has an open one (the partial unique index decides). */
export async function insertOpenShift(
  transaction: Transaction,
  shift: World & { id: string; tillId: string; actor: Actor },
): Promise<ShiftRow | null> {
  return transaction.maybeOne(sql.type(shiftRowSchema)`
    INSERT INTO shifts (merchant_id, id, livemode, till_id, status, opened_by_type, opened_by_id)
    VALUES (${shift.merchantId}, ${shift.id}, ${shift.livemode}, ${shift.tillId}, 'open', ${shift.actor.kind},
      ${shift.actor.id})
    ON CONFLICT (merchant_id, livemode, till_id) WHERE status = 'open' DO NOTHING
    RETURNING ${SHIFT_COLUMNS}`);
}

export async function selectShift(database: Queryable, world: World, shiftId: string): Promise<ShiftRow | null> {
  return database.maybeOne(sql.type(shiftRowSchema)`
    SELECT ${SHIFT_COLUMNS} FROM shifts
    WHERE merchant_id = ${world.merchantId} AND livemode = ${world.livemode} AND id = ${shiftId}`);
}

/** The till's open shift, read without a lock (a statement that joins it holds it: `heldOpenShifts`). */
export async function selectOpenShiftOfTill(
  database: Queryable,
  world: World,
  tillId: string,
): Promise<ShiftRow | null> {
  return database.maybeOne(sql.type(shiftRowSchema)`
    SELECT ${SHIFT_COLUMNS} FROM shifts
    WHERE merchant_id = ${world.merchantId} AND livemode = ${world.livemode} AND till_id = ${tillId} AND status = 'open'`);
}

/**
 * `lockOpenShift` of shifts as a query for a common table expression of the statement whose cash
 * moves join them: `merchant_id`, `livemode` and `id` of those still open, share-locked until the
 * transaction ends; none of one closed. Its SQL text is the same whatever the shifts (bound as arrays).
 */
export function heldOpenShifts(shifts: readonly (World & { shiftId: string })[]): FragmentSqlToken {
  const text = (pick: (shift: World & { shiftId: string }) => string) => sql.array(shifts.map(pick), "text");
  return sql.fragment`
    SELECT s.merchant_id, s.livemode, s.id FROM shifts s
    JOIN unnest(${text((shift) => shift.merchantId)}::text[], ${sql.array(
      shifts.map((shift) => shift.livemode),
      "bool",
    )}::bool[], ${text((shift) => shift.shiftId)}::text[]) AS w (merchant_id, livemode, id)
      ON s.merchant_id = w.merchant_id AND s.livemode = w.livemode AND s.id = w.id
    WHERE s.status = 'open'
    FOR SHARE OF s`;
}

/**
 * The open shift a move is about to join, share-locked until the transaction ends: moves of many
 * sales join at once, while a close (which updates the row) waits for them and they for it. A move
 * that comes after a close finds the shift closed (the locking read re-checks the status).
 */
export async function lockOpenShift(
  transaction: Transaction,
  world: World,
  where: { shiftId: string } | { tillId: string },
): Promise<ShiftRow | null> {
  const condition = "shiftId" in where ? sql.fragment`id = ${where.shiftId}` : sql.fragment`till_id = ${where.tillId}`;
  return transaction.maybeOne(sql.type(shiftRowSchema)`
    SELECT ${SHIFT_COLUMNS} FROM shifts
    WHERE merchant_id = ${world.merchantId} AND livemode = ${world.livemode} AND ${condition} AND status = 'open'
    FOR SHARE`);
}

type CashMoveToInsert = {
  merchantId: string;
  id: string;
  shiftId: string;
  kind: CashMoveKind;
  currency: Currency;
  amountCents: number;
  reason: string | null;
  saleId: string | null;
  returnId: string | null;
  actor: Actor;
};

export async function insertCashMove(transaction: Transaction, move: CashMoveToInsert): Promise<CashMoveRow> {
  return transaction.one(sql.type(cashMoveRowSchema)`
    ${insertCashMoveWhen(move, sql.fragment`TRUE`)}
    RETURNING ${MOVE_COLUMNS}`);
}

/** The insert of one cash move that happens only if `gate` holds (a common table expression's). */
export function insertCashMoveWhen(move: CashMoveToInsert, gate: FragmentSqlToken): FragmentSqlToken {
  return sql.fragment`
    INSERT INTO shift_cash_moves (merchant_id, id, shift_id, kind, currency, amount_cents, reason, sale_id, return_id,
      actor_type, actor_id)
    SELECT ${move.merchantId}::text, ${move.id}::text, ${move.shiftId}::text, ${move.kind}::text, ${move.currency}::text,
      ${move.amountCents}::int8, ${move.reason}::text, ${move.saleId}::text, ${move.returnId}::text,
      ${move.actor.kind}::text, ${move.actor.id}::text
    WHERE ${gate}`;
}

/**
 * The insert of many cash moves, in the order given, each only if `when(sale)` holds for it (`sale`:
 * the SQL value of its `saleId`). Its SQL text is the same whatever the moves (bound as arrays).
 */
export function insertCashMovesWhen(
  moves: readonly (CashMoveToInsert & { saleId: string })[],
  when: (sale: FragmentSqlToken) => FragmentSqlToken,
): FragmentSqlToken {
  const text = (pick: (move: CashMoveToInsert) => string | null) => sql.array(moves.map(pick), "text");
  return sql.fragment`
    INSERT INTO shift_cash_moves (merchant_id, id, shift_id, kind, currency, amount_cents, reason, sale_id, return_id,
      actor_type, actor_id)
    SELECT m.merchant_id, m.id, m.shift_id, m.kind, m.currency, m.amount_cents, m.reason, m.sale_id, m.return_id,
      m.actor_type, m.actor_id
    FROM unnest(
      ${text((move) => move.merchantId)}::text[], ${text((move) => move.id)}::text[],
      ${text((move) => move.shiftId)}::text[], ${text((move) => move.kind)}::text[],
      ${text((move) => move.currency)}::text[], ${sql.array(
        moves.map((move) => move.amountCents),
        "int8",
      )}::int8[], ${text((move) => move.reason)}::text[], ${text((move) => move.saleId)}::text[],
      ${text((move) => move.returnId)}::text[], ${text((move) => move.actor.kind)}::text[],
      ${text((move) => move.actor.id)}::text[])
      WITH ORDINALITY AS m (merchant_id, id, shift_id, kind, currency, amount_cents, reason, sale_id, return_id,
        actor_type, actor_id, position)
    WHERE ${when(sql.fragment`m.sale_id`)}
    ORDER BY m.position
    RETURNING id`;
}

/** Closes an open shift; null when it is not open (closed already, by this request's twin or another). */
export async function closeShift(
  transaction: Transaction,
  world: World,
  close: { shiftId: string; actor: Actor; note: string | null },
): Promise<ShiftRow | null> {
  return transaction.maybeOne(sql.type(shiftRowSchema)`
    UPDATE shifts SET status = 'closed', closed_at = now(), closed_by_type = ${close.actor.kind},
      closed_by_id = ${close.actor.id}, close_note = ${close.note}
    WHERE merchant_id = ${world.merchantId} AND livemode = ${world.livemode} AND id = ${close.shiftId}
      AND status = 'open'
    RETURNING ${SHIFT_COLUMNS}`);
}

export async function insertCounts(
  transaction: Transaction,
  merchantId: string,
  counts: readonly { shiftId: string; currency: Currency; expectedCents: number; countedCents: number }[],
): Promise<void> {
  if (counts.length === 0) {
    return;
  }
  await transaction.query(sql.unsafe`
    INSERT INTO shift_counts (merchant_id, shift_id, currency, expected_cents, counted_cents)
    SELECT ${merchantId}, * FROM unnest(
      ${sql.array(
        counts.map((count) => count.shiftId),
        "text",
      )}::text[],
      ${sql.array(
        counts.map((count) => count.currency),
        "text",
      )}::text[],
      ${sql.array(
        counts.map((count) => count.expectedCents),
        "int8",
      )}::int8[],
      ${sql.array(
        counts.map((count) => count.countedCents),
        "int8",
      )}::int8[])`);
}

/**
 * The moves' sums per shift, currency and kind, and how many sales, returns or other moves they are
 * (a split sale's cash tenders in one currency are one sale).
 */
export async function selectCashTotals(
  database: Queryable,
  merchantId: string,
  shiftIds: readonly string[],
): Promise<readonly CashTotalRow[]> {
  if (shiftIds.length === 0) {
    return [];
  }
  return database.any(sql.type(cashTotalRowSchema)`
    SELECT shift_id, currency, kind, sum(amount_cents)::int8 AS amount_cents,
      count(DISTINCT coalesce(return_id, sale_id, id))::int8 AS count
    FROM shift_cash_moves
    WHERE merchant_id = ${merchantId} AND shift_id = ANY(${sql.array(shiftIds, "text")})
    GROUP BY shift_id, currency, kind`);
}

export async function selectCounts(
  database: Queryable,
  merchantId: string,
  shiftIds: readonly string[],
): Promise<readonly ShiftCountRow[]> {
  if (shiftIds.length === 0) {
    return [];
  }
  return database.any(sql.type(shiftCountRowSchema)`
    SELECT shift_id, currency, expected_cents, counted_cents FROM shift_counts
    WHERE merchant_id = ${merchantId} AND shift_id = ANY(${sql.array(shiftIds, "text")})`);
}

/**
 * A shift's moves oldest first, after the previous page's last move. The key is the microsecond of
 * `created_at` (a JavaScript Date keeps only milliseconds, and many moves share a millisecond).
 */
export async function selectCashMoves(
  database: Queryable,
  filter: { merchantId: string; shiftId: string; after: { createdUs: number; id: string } | undefined; limit: number },
): Promise<readonly (CashMoveRow & { created_us: number })[]> {
  const createdUs = sql.fragment`(extract(epoch FROM created_at) * 1000000)::int8`;
  const after =
    filter.after === undefined
      ? sql.fragment`TRUE`
      : sql.fragment`(${createdUs}, id) > (${filter.after.createdUs}::int8, ${filter.after.id})`;
  return database.any(sql.type(cashMoveRowSchema.extend({ created_us: z.number().int() }))`
    SELECT ${MOVE_COLUMNS}, ${createdUs} AS created_us FROM shift_cash_moves
    WHERE merchant_id = ${filter.merchantId} AND shift_id = ${filter.shiftId} AND ${after}
    ORDER BY created_at, id
    LIMIT ${filter.limit}`);
}

export async function selectShifts(
  database: Queryable,
  filter: World & {
    tillId: string | undefined;
    status: ShiftStatus | undefined;
    after: { createdAt: string; id: string } | undefined;
    limit: number;
  },
): Promise<readonly ShiftRow[]> {
  const conditions = [sql.fragment`merchant_id = ${filter.merchantId}`, sql.fragment`livemode = ${filter.livemode}`];
  if (filter.tillId !== undefined) {
    conditions.push(sql.fragment`till_id = ${filter.tillId}`);
  }
  if (filter.status !== undefined) {
    conditions.push(sql.fragment`status = ${filter.status}`);
  }
  if (filter.after !== undefined) {
    conditions.push(afterPreviousRow(sql.identifier(["shifts"]), filter.merchantId, filter.after));
  }
  return database.any(sql.type(shiftRowSchema)`
    SELECT ${SHIFT_COLUMNS} FROM shifts
    WHERE ${sql.join(conditions, sql.fragment` AND `)}
    ORDER BY created_at DESC, id DESC
    LIMIT ${filter.limit}`);
}
