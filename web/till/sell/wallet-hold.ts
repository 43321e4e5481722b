import { effect, signal } from "@preact/signals";
import { formatMoney } from "../../../src/kernel/money.ts";
import { ApiError, cancelSale, getSale, type WorldName } from "../../lib/api.ts";
import { toast } from "../../ui/index.ts";
import { cart, cartHeldBy, clearCart } from "./cart.ts";
import { giveBack } from "./give-back.ts";
import { type Completed, followSale, type Sale } from "./sale-api.ts";

/**
 * The pending wallet sale (or split sale with a wallet tender, `pay-step.tsx`) that holds the cart: one per till tab, kept across a reload (session
 * storage, as the cart). While it is held the cart is locked and Pay wallet shows this sale again,
 * never a second code the customer might also pay; it is released when the sale completes, ends
 * unpaid (expired) or is cancelled here ("Cancel payment", which cancels it on the server first).
 * One follower per held sale waits for its end, whether the wallet dialog is open or not.
 */

const STORAGE_KEY = "till.wallet-hold";

function storedHold(): Sale | undefined {
  try {
    const stored = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? "null") as Sale | null;
    return stored !== null && typeof stored.id === "string" ? stored : undefined;
  } catch {
    return undefined;
  }
}

export const heldSale = signal<Sale | undefined>(storedHold());
cartHeldBy.value = heldSale.value?.id;

let following: AbortController | undefined;
/** The held sale's own world: its requests go there even after the till switched worlds. */
const worldOf = (sale: Sale): WorldName => (sale.livemode ? "live" : "test");
/** The change to hand over as a held sale ends: none (null), or the sale's own when undefined. */
export type ChangeDue = Completed["change"] | null;
const endListeners = new Set<(sale: Sale, changeDue: ChangeDue) => void>();

function store(sale: Sale | undefined): void {
  heldSale.value = sale;
  cartHeldBy.value = sale?.id;
  try {
    if (sale === undefined) sessionStorage.removeItem(STORAGE_KEY);
    else sessionStorage.setItem(STORAGE_KEY, JSON.stringify(sale));
  } catch {
    // Storage refused (private mode): the hold lasts for this page only.
  }
}

/**
 * Tells `listener` of each held sale's end (completed or cancelled); returns the unsubscribe.
 * `changeDue`: what change to hand over now (`ChangeDue`): none when the sale was already pending with
 * its change (cash after a wallet tender covered it: handed over then), a tender's own when one added
 * here completed it (the sale shows only its first change).
 */
export function onHeldSaleEnded(listener: (sale: Sale, changeDue: ChangeDue) => void): () => void {
  endListeners.add(listener);
  return () => endListeners.delete(listener);
}

function ended(sale: Sale, changeNow?: ChangeDue): void {
  const changeDue = changeNow !== undefined ? changeNow : heldSale.peek()?.change != null ? null : undefined;
  following?.abort();
  following = undefined;
  store(undefined);
  // Paid: the basket was sold, whether or not the wallet dialog is open.
  if (sale.status === "completed") clearCart();
  for (const listener of endListeners) listener(sale, changeDue);
}

function follow(sale: Sale): void {
  following?.abort();
  const controller = new AbortController();
  following = controller;
  followSale(sale.id, controller.signal, updateHeldSale, worldOf(sale)).catch(() => {});
}

/**
 * The held sale as the server now answers it: still pending (a split sale's tender paid or failed), or
 * ended. `changeNow`: the change a tender added here leaves (null: none), when it is what ended it.
 */
export function updateHeldSale(update: Sale, changeNow?: ChangeDue): void {
  if (heldSale.value?.id !== update.id) return;
  if (update.status === "pending") store(update);
  else ended(update, changeNow);
}

/** The cart now belongs to this pending wallet (or split) sale. */
export function holdWalletSale(sale: Sale): void {
  store(sale);
  follow(sale);
}

/** Follows the held sale again after a reload of the till (idempotent). */
export function resumeHeldSale(): void {
  const sale = heldSale.value;
  if (sale !== undefined && following === undefined) follow(sale);
}

/**
 * "Cancel payment": the server cancels the sale and its payment (the gateway voids the code), then
 * the cart is free to change. A sale the customer paid first is answered 409: it is read and ended
 * as completed, so the cashier sees the sale done rather than a basket to change.
 */
export async function cancelHeldPayment(): Promise<Sale | undefined> {
  const sale = heldSale.value;
  if (sale === undefined) return undefined;
  let answer: Sale;
  try {
    answer = await cancelSale(sale.id, { world: worldOf(sale) });
  } catch (error) {
    if (!(error instanceof ApiError && error.code === "sale_not_pending")) throw error;
    answer = await getSale(sale.id, {}, { world: worldOf(sale) });
  }
  if (heldSale.value?.id === answer.id) ended(answer);
  return answer;
}

// The cart can only be emptied under a held sale by switching worlds ("Empty cart and switch"): the
// basket is gone, so its payment is cancelled too, rather than left payable with nothing to sell.
// A split sale's cash (or paid wallet) goes back to the customer then: said, since no window shows it,
// each currency net of the change already handed over (what the Pay step's own Cancel says).
effect(() => {
  if (cart.value.length === 0 && heldSale.peek() !== undefined) {
    cancelHeldPayment().then(
      (sale) => {
        const given = sale?.status === "cancelled" && sale.tender === "split" ? giveBack(sale) : [];
        if (given.length > 0) {
          const amounts = given.map((amount) => formatMoney(amount.currency, amount.amountCents));
          toast(`Split sale cancelled: give back ${amounts.join(" and ")} in cash from the drawer.`, "info");
        }
      },
      () => {},
    );
  }
});
