import { computed, effect, signal } from "@preact/signals";
import type { WorldName } from "../../lib/api.ts";
import { session } from "../../lib/session.ts";
import { activeWorld } from "../world.ts";
import { type CartLine, cart, clearCart } from "./cart.ts";

/**
 * Carts put aside to serve the next customer (a shopper who went back for an item), resumed later on
 * the same till. Kept in this browser per merchant, so they outlive a reload and a sign-out; each
 * belongs to the world it was rung up in and is resumed only there.
 */
export type ParkedCart = { id: string; parkedAt: string; world: WorldName; lines: readonly CartLine[] };

const storageKey = (merchantId: string) => `till.parked.${merchantId}`;

function read(merchantId: string): readonly ParkedCart[] {
  try {
    const stored = JSON.parse(localStorage.getItem(storageKey(merchantId)) ?? "[]") as unknown;
    return Array.isArray(stored) ? (stored as ParkedCart[]) : [];
  } catch {
    return [];
  }
}

const parkedCarts = signal<readonly ParkedCart[]>([]);

effect(() => {
  const merchantId = session.value?.merchant.id;
  parkedCarts.value = merchantId === undefined ? [] : read(merchantId);
});

function save(next: readonly ParkedCart[]): void {
  parkedCarts.value = next;
  const merchantId = session.value?.merchant.id;
  if (merchantId === undefined) return;
  try {
    localStorage.setItem(storageKey(merchantId), JSON.stringify(next));
  } catch {
    // Storage refused (private mode): parked carts last for this page only.
  }
}

/** The carts parked in the world the till is in, oldest first. */
export const parkedHere = computed(() => parkedCarts.value.filter((parked) => parked.world === activeWorld()));

/** Puts the cart aside and starts an empty one. */
export function parkCart(): void {
  if (cart.value.length === 0) return;
  save([
    ...parkedCarts.value,
    { id: crypto.randomUUID(), parkedAt: new Date().toISOString(), world: activeWorld(), lines: cart.value },
  ]);
  clearCart();
}

/** Brings a parked cart back; only into an empty cart, so nothing rung up is lost. */
export function resumeCart(id: string): boolean {
  const parked = parkedCarts.value.find((each) => each.id === id);
  if (parked === undefined || cart.value.length > 0) return false;
  cart.value = parked.lines;
  save(parkedCarts.value.filter((each) => each.id !== id));
  return true;
}

export function discardParked(id: string): void {
  save(parkedCarts.value.filter((each) => each.id !== id));
}
