import type { Database, Queryable } from "../../platform/db/pool.ts";
import type { EndEffects, PaymentHook, PaymentRow } from "../payments/index.ts";
import * as queries from "./payment-end-queries.ts";
import { completionEnd, countCompletion } from "./sale-effects.ts";
import type { SaleRow } from "./schemas.ts";
import { completeSplitSaleIfPaid, isTenderPayment, tenderEnds, withTenderEnds } from "./tender-end.ts";

/**
 * A wallet sale's end with its payment's (the payments module's hook, `salePaymentHook`): completed in
 * the statement that settles the payment, cancelled in the one that ends it unpaid, exactly once; a
 * split sale's wallet tender's end likewise (`tender-end.ts`).
 */

/**
 * Wallet sales' completion with their payments' settlements (`EndEffects`): the pending sales paid by
 * `payments` (null when none is: ordinary payments, or sales already final) completed now, each with
 * its `sale.completed` and stock moves (a cash sale writes the same in its one statement), each
 * written only if its payment's settlement is. The stock moves lock the products' rows until the
 * commit, the statement's own end.
 */
async function saleCompletions(database: Database, payments: readonly PaymentRow[]): Promise<SalesEndEffects | null> {
  const [pending, split] = await Promise.all([
    pendingWalletSales(database, payments),
    tenderEnds(database, payments, "paid"),
  ]);
  if (pending.length === 0 && split === null) {
    return null;
  }
  const completedAt = new Date();
  const sales = [...pending, ...(split?.completing ?? [])].map((sale) => ({
    ...sale,
    status: "completed" as const,
    completed_at: completedAt,
  }));
  // A split sale completes with the end of its tender's payment; a wallet sale with its own.
  const gateOf = (sale: SaleRow) => (sale.tender === "split" ? (split?.gateOf(sale.id) ?? null) : sale.payment_id);
  const end = completionEnd(sales, gateOf, (saleId) => split?.tendersOf(saleId) ?? []);
  return effectsOf(database, withTenderEnds(end, split), (paidPaymentIds) => {
    for (const sale of sales) {
      const gate = gateOf(sale);
      if (gate !== null && paidPaymentIds.has(gate)) countCompletion(sale);
    }
    for (const sale of split?.racing ?? []) {
      const gate = split?.gateOf(sale.id) ?? null;
      if (gate !== null && paidPaymentIds.has(gate)) checkAgain(database, sale);
    }
  });
}

/**
 * Wallet sales' cancellation with their payments' unpaid end (expired or failed): nothing moves. A
 * split sale's wallet tender only fails: the sale stays pending, what was paid kept.
 */
async function saleCancellations(database: Database, payments: readonly PaymentRow[]): Promise<SalesEndEffects | null> {
  const [pending, split] = await Promise.all([
    pendingWalletSales(database, payments),
    tenderEnds(database, payments, "failed"),
  ]);
  if (pending.length === 0 && split === null) {
    return null;
  }
  return effectsOf(database, withTenderEnds(queries.cancelSalesCtes(pending), split), () => {});
}

/** `EndEffects`, and `endAlone`: the same written in a statement of its own (true if any sale ended). */
type SalesEndEffects = EndEffects & { endAlone: () => Promise<boolean> };

/**
 * A split sale whose tender was just paid while another tender was pending, checked again now that
 * the statement committed (`tender-end.ts`: two tenders paid at the same instant). A failure leaves
 * the sale to its next read, which completes it the same way.
 */
function checkAgain(database: Database, sale: SaleRow): void {
  const world = { merchantId: sale.merchant_id, livemode: sale.livemode };
  completeSplitSaleIfPaid(database, world, sale.id, []).catch(() => {});
}

const effectsOf = (
  database: Database,
  end: queries.SalesEnd,
  afterCommit: EndEffects["afterCommit"],
): SalesEndEffects => ({
  shape: end.shape,
  ctes: end.ctes,
  endAlone: () => queries.endSales(database, end),
  afterCommit,
});

/**
 * The pending wallet sales paid by `payments`. A payment made for a sale carries the sale's id in its
 * metadata: other payments cost no query (a split sale's tender's payments are `tenderEnds`').
 */
async function pendingWalletSales(database: Queryable, payments: readonly PaymentRow[]): Promise<readonly SaleRow[]> {
  const salePayments = payments.filter(
    (payment) => typeof payment.metadata.sale_id === "string" && !isTenderPayment(payment),
  );
  if (salePayments.length === 0) {
    return [];
  }
  return queries.selectPendingSalesOfPayments(
    database,
    salePayments.map((payment) => ({
      merchantId: payment.merchant_id,
      livemode: payment.livemode,
      paymentId: payment.id,
    })),
  );
}

/**
 * Given to payments by the composition (`src/wiring/modules.ts`, `paymentHooks`): wallet sales
 * complete in their payments' settlement statement, or are cancelled in the statement that ends
 * their payment unpaid.
 */
export const salePaymentHook: PaymentHook = {
  onSettling: saleCompletions,
  onEndingUnpaid: saleCancellations,
};

/**
 * Ends, in a statement of its own, the sale that `payment` (ended) left pending: it ended in a process
 * that had no sales hook (an older release during a rolling deploy). The sale ends once, as the hook
 * would have ended it.
 */
export async function endSaleLeftPending(database: Database, payment: PaymentRow): Promise<void> {
  const end = await (payment.status === "paid" ? saleCompletions : saleCancellations)(database, [payment]);
  if (end !== null && (await end.endAlone())) {
    end.afterCommit(new Set([payment.id]));
  }
}
