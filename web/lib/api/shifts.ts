import { type BodyOf, type CallOptions, call, type QueryOf, type Schema } from "./call.ts";

/** A till's drawer shifts: opened with a float, cash moved in and out, closed with a count (docs/shop.md). */
export type Shift = Schema<"Shift">;
export type ShiftCash = Shift["cash"][number];
export type CashMove = Schema<"ShiftCashMove">;
export type Actor = Shift["opened_by"];

export const listShifts = (query: QueryOf<"/v1/shifts", "get">) => call("get", "/v1/shifts", { query });

export const getShift = (id: string) => call("get", "/v1/shifts/{id}", { path: { id } });

export const listCashMoves = (id: string, query: QueryOf<"/v1/shifts/{id}/cash_moves", "get"> = {}) =>
  call("get", "/v1/shifts/{id}/cash_moves", { path: { id }, query });

/** Money (the three below): `options.idempotencyKey` is the action's key. */
export const openShift = (body: BodyOf<"/v1/shifts", "post">, options: CallOptions) =>
  call("post", "/v1/shifts", { ...options, body });

export const moveCash = (id: string, body: BodyOf<"/v1/shifts/{id}/cash_moves", "post">, options: CallOptions) =>
  call("post", "/v1/shifts/{id}/cash_moves", { ...options, path: { id }, body });

export const closeShift = (id: string, body: BodyOf<"/v1/shifts/{id}/close", "post">, options: CallOptions) =>
  call("post", "/v1/shifts/{id}/close", { ...options, path: { id }, body });

/** A shift's Z report: the drawer, the till by name, who did what, the moves other than cash sales. */
export type ZReport = Schema<"ZReport">;
export type DrawerMove = ZReport["cash_moves"][number];

export const getZReport = (id: string) => call("get", "/v1/shifts/{id}/z_report", { path: { id } });
