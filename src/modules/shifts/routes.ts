import { errorEnvelopeSchema, tillMismatchResponse } from "../../platform/http/openapi.ts";
import { type AnyRoute, defineRoute } from "../../platform/http/route.ts";
import type { Tenant } from "../../platform/tenant.ts";
import {
  type CashMoveRow,
  cashMoveBody,
  cashMovePageSchema,
  cashMoveResultSchema,
  closeShiftBody,
  listCashMovesQuery,
  listShiftsQuery,
  openShiftBody,
  shiftIdParams,
  shiftPageSchema,
  shiftSchema,
  zReportSchema,
} from "./schemas.ts";
import * as shifts from "./service.ts";
import { getZReport, type ZReport } from "./z-report.ts";

export function presentShift(view: shifts.ShiftView) {
  const { shift } = view;
  return {
    id: shift.id,
    object: "shift" as const,
    livemode: shift.livemode,
    till_id: shift.till_id,
    status: shift.status,
    cash: view.cash,
    opened_by: { type: shift.opened_by_type, id: shift.opened_by_id },
    closed_by:
      shift.closed_by_type === null || shift.closed_by_id === null
        ? null
        : { type: shift.closed_by_type, id: shift.closed_by_id },
    close_note: shift.close_note,
    opened_at: shift.created_at.toISOString(),
    closed_at: shift.closed_at?.toISOString() ?? null,
  };
}

function presentCashMove(move: CashMoveRow) {
  return {
    id: move.id,
    object: "shift_cash_move" as const,
    shift_id: move.shift_id,
    kind: move.kind,
    currency: move.currency,
    amount_cents: move.amount_cents,
    reason: move.reason,
    sale_id: move.sale_id,
    return_id: move.return_id,
    actor: { type: move.actor_type, id: move.actor_id },
    created_at: move.created_at.toISOString(),
  };
}

function presentZReport(report: ZReport) {
  return {
    object: "z_report" as const,
    shift: presentShift(report.view),
    till: { id: report.view.shift.till_id, name: report.tillName },
    opened_by: report.openedBy,
    closed_by: report.closedBy,
    cashiers: report.cashiers,
    cash_moves: report.moves.map((move) => {
      const presented = presentCashMove(move);
      return { ...presented, actor: { ...presented.actor, name: move.actor_name } };
    }),
    cash_moves_has_more: report.hasMoreMoves,
    sales: report.sales,
  };
}

const worldOf = (tenant: Tenant): shifts.WorldActor => ({
  merchantId: tenant.merchantId,
  livemode: tenant.livemode,
  actor: tenant.actor,
  session: tenant.session,
});

const notFoundResponse = { description: "`resource_missing`.", schema: errorEnvelopeSchema };
const notOpenResponse = { description: "`shift_not_open`: the shift is closed.", schema: errorEnvelopeSchema };

export const shiftRoutes: AnyRoute[] = [
  defineRoute({
    method: "post",
    path: "/v1/shifts",
    operationId: "openShift",
    summary: "Open a till's cash drawer shift with its counted float per currency (one open shift per till)",
    tags: ["Shifts"],
    auth: { keys: "both", owner: "session", till: "cashier" },
    idempotent: true,
    request: { body: openShiftBody },
    responses: {
      201: { description: "The open shift; `shift.opened` is emitted.", schema: shiftSchema },
      403: tillMismatchResponse("opening another till's drawer"),
      409: { description: "`shift_already_open`: the till has an open shift.", schema: errorEnvelopeSchema },
    },
    handler: async ({ body, tenant, answeredWrite }) => {
      const opened = answeredWrite((view: shifts.ShiftView) => ({ status: 201, body: presentShift(view) }));
      await shifts.openShift(opened.transaction, worldOf(tenant), body);
      return opened.reply();
    },
  }),
  defineRoute({
    method: "post",
    path: "/v1/shifts/:id/cash_moves",
    operationId: "recordShiftCashMove",
    summary: "A pay-in or pay-out of cash, with its reason, in an open shift",
    tags: ["Shifts"],
    auth: { keys: "both", owner: "session", till: "cashier" },
    idempotent: true,
    request: { params: shiftIdParams, body: cashMoveBody },
    responses: {
      201: { description: "The cash move and the shift as it now stands.", schema: cashMoveResultSchema },
      403: tillMismatchResponse("moving cash in another till's drawer"),
      404: notFoundResponse,
      409: notOpenResponse,
    },
    handler: async ({ params, body, tenant, answeredWrite }) => {
      const recorded = answeredWrite(({ move, view }: shifts.CashMoveMade) => ({
        status: 201,
        body: { cash_move: presentCashMove(move), shift: presentShift(view) },
      }));
      await shifts.recordPayInOrOut(recorded.transaction, worldOf(tenant), params.id, body);
      return recorded.reply();
    },
  }),
  defineRoute({
    method: "post",
    path: "/v1/shifts/:id/close",
    operationId: "closeShift",
    summary: "Close a shift with the cash counted per currency: expected, counted and over/short per currency",
    tags: ["Shifts"],
    auth: { keys: "both", owner: "session", till: "cashier" },
    idempotent: true,
    request: { params: shiftIdParams, body: closeShiftBody },
    responses: {
      200: { description: "The closed shift; `shift.closed` is emitted.", schema: shiftSchema },
      403: tillMismatchResponse("closing another till's drawer"),
      400: {
        description: "`parameter_missing`: a currency the shift holds was not counted.",
        schema: errorEnvelopeSchema,
      },
      404: notFoundResponse,
      409: notOpenResponse,
    },
    handler: async ({ params, body, tenant, answeredWrite }) => {
      const closed = answeredWrite((view: shifts.ShiftView) => ({ body: presentShift(view) }));
      await shifts.closeShift(closed.transaction, worldOf(tenant), params.id, body);
      return closed.reply();
    },
  }),
  defineRoute({
    method: "get",
    path: "/v1/shifts",
    operationId: "listShifts",
    summary: "The world's shifts, newest first, with their cash per currency",
    tags: ["Shifts"],
    auth: { keys: "both", owner: "session", till: "till" },
    request: { query: listShiftsQuery },
    responses: { 200: { description: "A page of shifts.", schema: shiftPageSchema } },
    handler: async ({ query, tenant, database }) => {
      const page = await shifts.listShifts(database, {
        merchantId: tenant.merchantId,
        livemode: tenant.livemode,
        tillId: query.till_id,
        status: query.status,
        limit: query.limit,
        cursor: query.cursor,
      });
      return { body: { ...page, data: page.data.map(presentShift) } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/v1/shifts/:id",
    operationId: "getShift",
    summary: "A shift with its cash per currency (expected live while open; frozen with counts once closed)",
    tags: ["Shifts"],
    auth: { keys: "both", owner: "session", till: "till" },
    request: { params: shiftIdParams },
    responses: { 200: { description: "The shift.", schema: shiftSchema }, 404: notFoundResponse },
    handler: async ({ params, tenant, database }) => ({
      body: presentShift(await shifts.getShift(database, tenant, params.id)),
    }),
  }),
  defineRoute({
    method: "get",
    path: "/v1/shifts/:id/z_report",
    operationId: "getShiftZReport",
    summary:
      "A shift's Z report: its cash per currency, the till's and everyone's names, their counts, and the drawer's moves",
    tags: ["Shifts"],
    auth: { keys: "both", owner: "session", till: "till" },
    request: { params: shiftIdParams },
    responses: { 200: { description: "The Z report.", schema: zReportSchema }, 404: notFoundResponse },
    handler: async ({ params, tenant, database }) => ({
      body: presentZReport(await getZReport(database, tenant, params.id)),
    }),
  }),
  defineRoute({
    method: "get",
    path: "/v1/shifts/:id/cash_moves",
    operationId: "listShiftCashMoves",
    summary: "A shift's cash moves, oldest first: float, cash sales, refunds, pay-ins and pay-outs (signed)",
    tags: ["Shifts"],
    auth: { keys: "both", owner: "session", till: "till" },
    request: { params: shiftIdParams, query: listCashMovesQuery },
    responses: { 200: { description: "A page of cash moves.", schema: cashMovePageSchema }, 404: notFoundResponse },
    handler: async ({ params, query, tenant, database }) => {
      const page = await shifts.listCashMoves(database, tenant, {
        shiftId: params.id,
        limit: query.limit,
        cursor: query.cursor,
      });
      return { body: { ...page, data: page.data.map(presentCashMove) } };
    },
  }),
];
