import { computed, signal } from "@preact/signals";
import { api, session } from "../../lib/session.ts";
import { unsyncedSales } from "../offline/index.ts";

/** A cashier as GET /v1/cashiers answers it (never a PIN). */
export type Cashier = {
  id: string;
  name: string;
  status: "active" | "locked" | "disabled";
  failed_pin_attempts: number;
};

/** The merchant's cashiers; undefined until the first answer. */
export const cashiers = signal<Cashier[] | undefined>(undefined);

/**
 * Loads the cashiers (the till waits for them at start, so no screen shows before the PIN screen). When
 * they cannot be read the till carries on without a PIN screen: the server still records who sold.
 */
export async function loadCashiers(): Promise<void> {
  try {
    cashiers.value = (await api.get<{ data: Cashier[] }>("/v1/cashiers", { world: "test" })).data;
  } catch (error) {
    cashiers.value ??= [];
    throw error;
  }
}

/** The cashier switched in on this till's session, as the session says. */
export const currentCashier = computed(() => {
  const id = session.value?.cashier_id;
  return id === null || id === undefined ? undefined : cashiers.value?.find((cashier) => cashier.id === id);
});

/**
 * A till of a shop with cashiers shows its PIN screen until one is switched in. A shop without any
 * (or before they are known) keeps selling as the owner's till, as before cashiers existed.
 */
export const pinRequired = computed(
  () =>
    session.value?.kind === "till" &&
    session.value.cashier_id === null &&
    (cashiers.value ?? []).some((cashier) => cashier.status !== "disabled"),
);

/** Switches a cashier in by PIN; the session's requests then act as them. Throws the API's refusal. */
export async function switchIn(cashierId: string, pin: string): Promise<void> {
  try {
    await api.post("/v1/session/cashier", { cashier_id: cashierId, pin }, { world: "test" });
    if (session.value) session.value = { ...session.value, cashier_id: cashierId };
  } finally {
    // Attempts left, locked or not: the list shows what the server now knows.
    await loadCashiers().catch(() => {});
  }
}

/** Why the cashier may not switch out now: sales taken offline must reach the server under their name. */
export function switchOutBlocked(): string | undefined {
  const count = unsyncedSales.value;
  return count > 0
    ? `${count} sale${count === 1 ? "" : "s"} taken offline ${count === 1 ? "is" : "are"} not on the server yet: switch cashier once they have synced.`
    : undefined;
}

/** Nobody switched in: the PIN screen shows again. */
export async function switchOut(): Promise<void> {
  const blocked = switchOutBlocked();
  if (blocked !== undefined) throw new Error(blocked);
  await api.delete("/v1/session/cashier", { world: "test" });
  if (session.value) session.value = { ...session.value, cashier_id: null };
}
