import { events } from "../events/index.ts";
import { stock } from "../stock/index.ts";
import { salesTotal } from "./metrics.ts";
import { completeSalesCtes, type SalesEnd } from "./payment-end-queries.ts";
import type { SaleRow } from "./schemas.ts";
import { presentTenders } from "./tender-presenters.ts";
import type { SaleTenderRow } from "./tender-schemas.ts";

/**
 * What a completed sale writes beside itself, the same for a cash sale (its ring-up statement) and a
 * wallet sale (its payment's settlement statement): `sale.completed`, its stock moves, its count.
 */

const saleCompletedEvent = (sale: SaleRow, tenders: readonly SaleTenderRow[]) => ({
  merchantId: sale.merchant_id,
  livemode: sale.livemode,
  type: "sale.completed" as const,
  data: saleCompletedData(sale, tenders),
});

/** `sale.completed`, prepared for `events.emitEachWhen` in the completing statement (a split sale's with its tenders). */
export const preparedSaleCompleted = (sale: SaleRow, tenders: readonly SaleTenderRow[] = []) =>
  events.prepareEvent(saleCompletedEvent(sale, tenders));

/** The sale's lines as the stock module moves them (`stock.salesMovesCtes`). */
export const saleMovesOf = (sale: SaleRow) => ({
  merchantId: sale.merchant_id,
  livemode: sale.livemode,
  saleId: sale.id,
  actor: { kind: sale.actor_type, id: sale.actor_id },
  lines: sale.items.map((item) => ({ productId: item.product_id, qty: item.qty })),
});

/** Counted once the completion committed (a replayed answer does not count again). */
export const countCompletion = (sale: SaleRow) =>
  salesTotal.inc({ tender: sale.tender, livemode: String(sale.livemode), currency: sale.currency });

/**
 * The `sale.completed` payload (documented in the README's events table); a split sale's also has its
 * `tenders`, `paid_cents`, `due_cents` and `change` as its representation shows them.
 */
export function saleCompletedData(sale: SaleRow, tenders: readonly SaleTenderRow[] = []) {
  return {
    ...(sale.tender === "split" ? presentTenders(sale, tenders) : {}),
    sale_id: sale.id,
    tender: sale.tender,
    total_cents: sale.total_cents,
    currency: sale.currency,
    payment_id: sale.payment_id,
    cashier: sale.cashier,
    items: sale.items,
    completed_at: sale.completed_at?.toISOString() ?? null,
  };
}

/**
 * Pending sales' completion as `SalesEnd` (`completeSalesCtes`): each sale, given as it is once
 * completed, with its `sale.completed` and stock moves, gated on the end of the payment
 * `gatePaymentIdOf(sale)` names (a wallet sale's own; a split sale's wallet tender's: payment-end.ts).
 */
export function completionEnd(
  sales: readonly (SaleRow & { status: "completed"; completed_at: Date })[],
  gatePaymentIdOf: (sale: SaleRow) => string | null = (sale) => sale.payment_id,
  tendersOf: (saleId: string) => readonly SaleTenderRow[] = () => [],
): SalesEnd {
  return completeSalesCtes(
    sales.map((sale) => ({ ...sale, payment_id: gatePaymentIdOf(sale) })),
    {
      events: (completed) =>
        events.emitEachWhen(
          sales.map((sale) => ({ event: preparedSaleCompleted(sale, tendersOf(sale.id)), subject: sale.id })),
          completed,
        ),
      stockMoves: (completed) => stock.salesMovesCtes(sales.map(saleMovesOf), completed),
    },
  );
}
