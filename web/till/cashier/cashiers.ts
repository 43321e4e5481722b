import { computed, effect, signal } from "@preact/signals";
import { ApiError, type Cashier, listCashiers, switchInCashier, switchOutCashier } from "../../lib/api.ts";
import { session } from "../../lib/session.ts";
import { unsyncedSales } from "../offline/index.ts";

export type { Cashier };

/** The merchant's cashiers; undefined until the first answer. */
export const cashiers = signal<Cashier[] | undefined>(undefined);

/**
 * The browser keeps the shop's cashiers as last read (names and states; a PIN never reaches the
 * browser), so that a till reloaded while the network is down still shows who is at the counter and
 * still asks for a PIN when nobody is (as it would have without the reload).
 */
const STORAGE_KEY = "till.cashiers";
type KeptCashiers = { merchantId: string; cashiers: Cashier[] };

effect(() => {
  const merchantId = session.value?.merchant.id;
  const list = cashiers.value;
  if (merchantId === undefined || list === undefined) return;
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ merchantId, cashiers: list } satisfies KeptCashiers));
  } catch {
    // Storage refused (private mode): a reload while offline shows no cashier.
  }
});

function keptCashiers(): Cashier[] | undefined {
  try {
    const kept = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "null") as KeptCashiers | null;
    return kept !== null && kept.merchantId === session.value?.merchant.id ? kept.cashiers : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Loads the cashiers (the till waits for them at start, so no screen shows before the PIN screen).
 * Without the network the browser's copy stands in (no error: the next read refreshes it). When they
 * cannot be read at all the till carries on without a PIN screen: the server still records who sold.
 */
export async function loadCashiers(): Promise<void> {
  try {
    cashiers.value = (await listCashiers({ world: "test" })).data;
  } catch (error) {
    const kept = error instanceof ApiError && error.type === "network_error" ? keptCashiers() : undefined;
    if (kept !== undefined) {
      cashiers.value ??= kept;
      return;
    }
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
    await switchInCashier({ cashier_id: cashierId, pin });
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
  await switchOutCashier();
  if (session.value) session.value = { ...session.value, cashier_id: null };
}
