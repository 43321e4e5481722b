import { signal } from "@preact/signals";
import type { Currency } from "../../../src/kernel/money.ts";
import type { Shift } from "../../lib/api.ts";
import * as shifts from "../../lib/api.ts";
import { unsyncedSales } from "../offline/index.ts";
import { postOnce } from "../sell/sale-api.ts";
import { tillId } from "./till-id.ts";

export type { Shift, ShiftCash } from "../../lib/api.ts";

export type Amount = { currency: Currency; amount_cents: number };

/** This till's open shift in the current world: undefined not known yet, null none. */
export const openShift = signal<Shift | null | undefined>(undefined);

export async function loadOpenShift(): Promise<Shift | null> {
  const page = await shifts.listShifts({ till_id: tillId(), status: "open", limit: 1 });
  openShift.value = page.data[0] ?? null;
  return openShift.value;
}

export async function listShifts(): Promise<Shift[]> {
  return (await shifts.listShifts({ till_id: tillId(), limit: 20 })).data;
}

export async function getShift(id: string): Promise<Shift> {
  return shifts.getShift(id);
}

/** Each call is one action: its Idempotency-Key is made by the caller when the form opens. */
export async function openDrawer(float: Amount[], idempotencyKey: string): Promise<Shift> {
  openShift.value = await postOnce(() => shifts.openShift({ till_id: tillId(), float }, { idempotencyKey }));
  return openShift.value;
}

export async function moveCash(
  shift: Shift,
  move: Amount & { kind: "pay_in" | "pay_out"; reason: string },
  idempotencyKey: string,
): Promise<Shift> {
  const result = await postOnce(
    (managerApproval) => shifts.moveCash(shift.id, move, { idempotencyKey, managerApproval }),
    "cash_pay_out",
  );
  openShift.value = result.shift;
  return result.shift;
}

/** Why the drawer may not be closed now: a sale taken offline would be missing from its count. */
export function closeBlocked(): string | undefined {
  const count = unsyncedSales.value;
  return count > 0
    ? `${count} sale${count === 1 ? "" : "s"} taken offline ${count === 1 ? "is" : "are"} not on the server yet: close the drawer once they have synced.`
    : undefined;
}

export async function closeDrawer(shift: Shift, counted: Amount[], note: string, idempotencyKey: string) {
  const blocked = closeBlocked();
  if (blocked !== undefined) throw new Error(blocked);
  const body = note.trim() === "" ? { counted } : { counted, note: note.trim() };
  const closed = await postOnce(
    (managerApproval) => shifts.closeShift(shift.id, body, { idempotencyKey, managerApproval }),
    "shift_close",
  );
  openShift.value = null;
  return closed;
}
