import type { World } from "../../kernel/world.ts";
import type { Queryable } from "../../platform/db/pool.ts";
import type { ActorKind } from "../../platform/tenant.ts";
import type { ShiftView } from "./cash.ts";
import type { CashMoveRow, ZReportSalesRow } from "./schemas.ts";
import { Z_REPORT_MOVES_MAX } from "./schemas.ts";
import { getShift } from "./service.ts";
import * as queries from "./z-report-queries.ts";

type NamedActor = { type: ActorKind; id: string; name: string };

/**
 * A shift's Z report: the shift with its cash per currency, named as people read it (the till by the
 * name it was paired under, everyone who worked the drawer by name with their cash sales and refunds)
 * and the drawer's moves other than cash sales. The till and the dashboard print this one report.
 */
export type ZReport = {
  view: ShiftView;
  tillName: string | null;
  openedBy: NamedActor;
  closedBy: NamedActor | null;
  cashiers: (NamedActor & { cash_sales_count: number; refunds_count: number })[];
  moves: (CashMoveRow & { actor_name: string })[];
  hasMoreMoves: boolean;
  sales: readonly ZReportSalesRow[];
};

export async function getZReport(database: Queryable, world: World, shiftId: string): Promise<ZReport> {
  // One after the other: `database` may be a transaction's single connection.
  const view = await getShift(database, world, shiftId);
  const { shift } = view;
  const tillName = await queries.selectTillName(database, world.merchantId, shift.till_id);
  const counts = await queries.selectActorMoveCounts(database, world.merchantId, shift.id);
  const moves = await queries.selectDrawerMoves(database, world.merchantId, shift.id, Z_REPORT_MOVES_MAX + 1);
  const sales = await queries.selectShiftSalesTotals(database, world.merchantId, shift.id);
  const opener = { type: shift.opened_by_type, id: shift.opened_by_id };
  const closer =
    shift.closed_by_type === null || shift.closed_by_id === null
      ? null
      : { type: shift.closed_by_type, id: shift.closed_by_id };
  const actors = [
    opener,
    ...counts.map((row) => ({ type: row.actor_type, id: row.actor_id })),
    ...(closer === null ? [] : [closer]),
  ];
  const unique = [...new Map(actors.map((actor) => [keyOf(actor), actor])).values()];
  const names = new Map(
    (await queries.selectActorNames(database, world.merchantId, unique)).map((row) => [keyOf(row), row.name]),
  );
  const named = (actor: { type: ActorKind; id: string }): NamedActor => ({
    ...actor,
    name: names.get(keyOf(actor)) ?? actor.id,
  });
  const countOf = new Map(counts.map((row) => [keyOf({ type: row.actor_type, id: row.actor_id }), row]));
  return {
    view,
    tillName,
    openedBy: named(opener),
    closedBy: closer === null ? null : named(closer),
    cashiers: unique.map((actor) => ({
      ...named(actor),
      cash_sales_count: countOf.get(keyOf(actor))?.cash_sales_count ?? 0,
      refunds_count: countOf.get(keyOf(actor))?.refunds_count ?? 0,
    })),
    moves: moves.slice(0, Z_REPORT_MOVES_MAX).map((move) => ({
      ...move,
      actor_name: names.get(keyOf({ type: move.actor_type, id: move.actor_id })) ?? move.actor_id,
    })),
    hasMoreMoves: moves.length > Z_REPORT_MOVES_MAX,
    sales,
  };
}

const keyOf = (actor: { type: string; id: string }) => `${actor.type}\u0000${actor.id}`;
