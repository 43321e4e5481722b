import type { Currency } from "../../../src/kernel/money.ts";
import { keepsIdempotencyKey } from "../../lib/action-key.ts";
import { ApiError, getSale, type ManagerAction, type Sale, type WorldName } from "../../lib/api.ts";
import { askManager } from "../cashier/manager-approval.ts";
import type { PrintableReceipt } from "../receipt/printable.ts";

export type { Sale };

/**
 * A sale the till has finished, with the change due (in the currency the cashier gave it; none: a
 * wallet paid it all). A cash sale is shown complete when the outbox has kept it, before the server has
 * it, so only what the till knows is shown (and printed: `receipt`); its receipt link comes when the
 * outbox has sent it (`clientSaleId` names it there).
 */
export type Completed = {
  sale: Pick<Sale, "tender" | "currency" | "total_cents"> & { receipt_url?: string | null };
  change: { currency: Currency; amountCents: number } | undefined;
  clientSaleId?: string;
  receipt: PrintableReceipt;
};

/**
 * A wallet or split sale the server answered completed, as the till finishes it. `changeDue`: the
 * change to hand over now, when the sale's own is not it (`onHeldSaleEnded`; null: none).
 */
export const completedSale = (sale: Sale, changeDue?: Completed["change"] | null): Completed => ({
  sale,
  change:
    changeDue !== undefined
      ? (changeDue ?? undefined)
      : sale.tender === "split" && sale.change !== null && sale.change.amount_cents > 0
        ? { currency: sale.change.currency, amountCents: sale.change.amount_cents }
        : undefined,
  receipt: {
    kind: "sale",
    livemode: sale.livemode,
    at: sale.completed_at ?? sale.created_at,
    currency: sale.currency,
    items: sale.items,
    figures: sale,
    totalCents: sale.total_cents,
    tender: sale.tender,
    tenderedCents: null,
    ...(sale.tender === "split" ? { tenders: sale.tenders, change: sale.change } : {}),
  },
});

/** Waits between attempts of one action; the same Idempotency-Key each time, so it happens once. */
const RETRY_DELAYS_MS = [300, 1000, 2000, 4000];

/**
 * Sends an action that must happen exactly once (a sale, a stock receipt): on a dropped connection,
 * a 5xx or "still in flight", `send` goes again (it sends the action's one Idempotency-Key), and the
 * server replays the first answer if the first attempt went through. `managerAction`: what a manager's
 * PIN approves when the API answers `manager_required` (`send` then gets the approval); only returns,
 * pay-outs and closes are answered so, and any other request is asked as a product change.
 */
export async function postOnce<T>(
  send: (managerApproval: string | undefined) => Promise<T>,
  managerAction: ManagerAction = "product_update",
): Promise<T> {
  let managerApproval: string | undefined;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await send(managerApproval);
    } catch (error) {
      // A return, a pay-out or a close with a difference: a manager's PIN approves it, and the same
      // request (same Idempotency-Key) goes again with the approval. Cancelled: the refusal stands.
      if (error instanceof ApiError && error.code === "manager_required" && managerApproval === undefined) {
        managerApproval = await askManager(managerAction, error);
        attempt -= 1;
        continue;
      }
      // The failures that keep the action's key (a lost answer) are the ones worth sending again.
      const delay = RETRY_DELAYS_MS[attempt];
      if (!keepsIdempotencyKey(error) || delay === undefined) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

/** Whether a pending sale waits on a wallet payment (a split sale: while one of its tenders is pending). */
export const awaitsPayment = (sale: Sale): boolean =>
  sale.tender !== "split" || sale.tenders.some((tender) => tender.status === "pending");

/** How long one waiting request may wait; the API allows up to 25 s. */
const WAIT_SECONDS = 20;

/**
 * Follows a pending wallet sale with one waiting request at a time (the API answers when the payment
 * settles or ends, or after WAIT_SECONDS), until it is no longer pending or `signal` aborts. `world`:
 * the sale's own, when the till may have switched since (the client's current world when absent).
 */
export async function followSale(
  saleId: string,
  signal: AbortSignal,
  onUpdate: (sale: Sale) => void,
  world?: WorldName,
): Promise<void> {
  let failures = 0;
  while (!signal.aborted) {
    try {
      const sale = await getSale(saleId, { wait_seconds: WAIT_SECONDS }, { signal, world });
      failures = 0;
      if (signal.aborted) return;
      onUpdate(sale);
      // Ended, or a split sale whose wallet tender failed: nothing to wait for until a tender is added.
      if (sale.status !== "pending" || !awaitsPayment(sale)) return;
    } catch {
      // Offline or the server restarting: back off, then wait again.
      failures += 1;
      await new Promise((resolve) => setTimeout(resolve, Math.min(1000 * 2 ** failures, 15_000)));
    }
  }
}
