import type { Currency } from "../../../src/kernel/money.ts";
import { ApiError } from "../../lib/api.ts";
import { api } from "../../lib/session.ts";
import { askManager, managerActionOf } from "../cashier/manager-approval.ts";

/** A sale as the API answers it (the fields the till shows). */
export type Sale = {
  id: string;
  livemode: boolean;
  status: "pending" | "completed" | "cancelled";
  tender: "cash" | "wallet";
  total_cents: number;
  currency: Currency;
  items: {
    product_id: string | null;
    name: string;
    qty: number;
    unit_cents: number;
    line_total_cents: number;
    /** On a sale with a discount or tax: the line after discounts, and its rate. */
    net_cents?: number;
    tax_rate_bp?: number;
  }[];
  /** Absent from a sale kept before discounts and tax. */
  tax_cents?: number;
  taxes?: { rate_bp: number; taxable_cents: number; tax_cents: number }[];
  payment_id: string | null;
  payment: {
    id: string;
    status: "pending" | "paid" | "expired" | "failed" | "cancelled";
    code: string;
    qr_png_data_url: string;
    deep_link: string;
    expires_at: string;
  } | null;
  completed_at: string | null;
  created_at: string;
};

/**
 * A sale the till has finished: cash carries the change due, wallet none. A cash sale is shown complete
 * when the outbox has kept it, before the server has it, so only what the till knows is shown; its
 * receipt link comes when the outbox has sent it (`clientSaleId` names it there).
 */
export type Completed = {
  sale: Pick<Sale, "tender" | "currency" | "total_cents"> & { receipt_url?: string | null };
  changeCents: number | undefined;
  clientSaleId?: string;
};

/** Waits between attempts of one action; the same Idempotency-Key each time, so it happens once. */
const RETRY_DELAYS_MS = [300, 1000, 2000, 4000];

/**
 * Sends an action that must happen exactly once (a sale, a stock receipt): on a dropped connection,
 * a 5xx or "still in flight", the same request goes again with the same key, and the server replays
 * the first answer if the first attempt went through.
 */
export async function postOnce<T>(path: string, body: unknown, idempotencyKey: string): Promise<T> {
  let managerApproval: string | undefined;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await api.post<T>(path, body, { idempotencyKey, managerApproval });
    } catch (error) {
      // A return, a pay-out or a close with a difference: a manager's PIN approves it, and the same
      // request (same Idempotency-Key) goes again with the approval. Cancelled: the refusal stands.
      if (error instanceof ApiError && error.code === "manager_required" && managerApproval === undefined) {
        managerApproval = await askManager(managerActionOf(path), error);
        attempt -= 1;
        continue;
      }
      const retryable =
        error instanceof ApiError &&
        (error.type === "network_error" || error.status >= 500 || error.code === "idempotency_in_flight");
      const delay = RETRY_DELAYS_MS[attempt];
      if (!retryable || delay === undefined) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

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
  world?: "test" | "live",
): Promise<void> {
  let failures = 0;
  while (!signal.aborted) {
    try {
      const sale = await api.get<Sale>(`/v1/sales/${encodeURIComponent(saleId)}`, {
        query: { wait_seconds: WAIT_SECONDS },
        signal,
        world,
      });
      failures = 0;
      if (signal.aborted) return;
      onUpdate(sale);
      if (sale.status !== "pending") return;
    } catch {
      // Offline or the server restarting: back off, then wait again.
      failures += 1;
      await new Promise((resolve) => setTimeout(resolve, Math.min(1000 * 2 ** failures, 15_000)));
    }
  }
}
