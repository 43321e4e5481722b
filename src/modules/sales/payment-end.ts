import type { Queryable } from "../../platform/db/pool.ts";
import { events } from "../events/index.ts";
import type { EndEffects, PaymentHook, PaymentRow } from "../payments/index.ts";
import { stock } from "../stock/index.ts";
import * as queries from "./payment-end-queries.ts";
import { countCompletion, preparedSaleCompleted, saleMovesOf } from "./sale-effects.ts";
import type { SaleRow } from "./schemas.ts";

/**
 * A wallet sale's end with its payment's (the payments module's hook, `salePaymentHook`): completed in
 * the statement that settles the payment, cancelled in the one that ends it unpaid, exactly once.
 */

/**
 * Wallet sales' completion with their payments' settlements (`EndEffects`): the pending sales paid by
 * `payments` (null when none is: ordinary payments, or sales already final) completed now, each with
 * its `sale.completed` and stock moves (a cash sale writes the same in its one statement), each
 * written only if its payment's settlement is. The stock moves lock the products' rows until the
 * commit, the statement's own end.
 */
function saleCompletions(database: Queryable, payments: readonly PaymentRow[]): Promise<SalesEndEffects | null> {
  return salesEnd(database, payments, (pending) => {
    const completedAt = new Date();
    const sales = pending.map((sale) => ({ ...sale, status: "completed" as const, completed_at: completedAt }));
    return {
      end: queries.completeSalesCtes(sales, {
        events: (completed) =>
          events.emitEachWhen(
            sales.map((sale) => ({ event: preparedSaleCompleted(sale), subject: sale.id })),
            completed,
          ),
        stockMoves: (completed) => stock.salesMovesCtes(sales.map(saleMovesOf), completed),
      }),
      afterCommit: (paidPaymentIds) => {
        for (const sale of sales) {
          if (sale.payment_id !== null && paidPaymentIds.has(sale.payment_id)) countCompletion(sale);
        }
      },
    };
  });
}

/** Wallet sales' cancellation with their payments' unpaid end (expired or failed): nothing moves. */
function saleCancellations(database: Queryable, payments: readonly PaymentRow[]): Promise<SalesEndEffects | null> {
  return salesEnd(database, payments, (pending) => ({ end: queries.cancelSalesCtes(pending), afterCommit: () => {} }));
}

/** `EndEffects`, and `endAlone`: the same written in a statement of its own (true if any sale ended). */
type SalesEndEffects = EndEffects & { endAlone: () => Promise<boolean> };

/**
 * The end of the pending sales paid by `payments` as `ending` makes it, or null when none is pending.
 * A payment made for a sale carries the sale's id in its metadata: other payments cost no query.
 */
async function salesEnd(
  database: Queryable,
  payments: readonly PaymentRow[],
  ending: (pending: readonly SaleRow[]) => { end: queries.SalesEnd; afterCommit: EndEffects["afterCommit"] },
): Promise<SalesEndEffects | null> {
  const salePayments = payments.filter((payment) => typeof payment.metadata.sale_id === "string");
  if (salePayments.length === 0) {
    return null;
  }
  const pending = await queries.selectPendingSalesOfPayments(
    database,
    salePayments.map((payment) => ({
      merchantId: payment.merchant_id,
      livemode: payment.livemode,
      paymentId: payment.id,
    })),
  );
  if (pending.length === 0) {
    return null;
  }
  const { end, afterCommit } = ending(pending);
  return { shape: end.shape, ctes: end.ctes, endAlone: () => queries.endSales(database, end), afterCommit };
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
export async function endSaleLeftPending(database: Queryable, payment: PaymentRow): Promise<void> {
  const end = await (payment.status === "paid" ? saleCompletions : saleCancellations)(database, [payment]);
  if (end !== null && (await end.endAlone())) {
    end.afterCommit(new Set([payment.id]));
  }
}
