import type { Config } from "../../platform/config.ts";
import type { PaymentRow } from "../payments/index.ts";
import { presentPayment } from "../payments/index.ts";
import type { SaleView } from "./reading.ts";
import { receiptUrl } from "./receipt-token.ts";
import type { SalesReport } from "./report.ts";
import type { SaleReturnRow } from "./return-schemas.ts";
import type { SaleRow } from "./schemas.ts";
import { presentTenders } from "./tender-presenters.ts";
import type { SaleTenderRow } from "./tender-schemas.ts";

/** Sales, returns and the sales report as the API shows them (`schemas.ts`, `return-schemas.ts`). */

export function presentReturn(config: Config, saleReturn: SaleReturnRow) {
  return {
    id: saleReturn.id,
    object: "sale_return" as const,
    livemode: saleReturn.livemode,
    sale_id: saleReturn.sale_id,
    currency: saleReturn.currency,
    refund_cents: saleReturn.refund_cents,
    refund_tender: saleReturn.refund_tender,
    refunds: saleReturn.refunds ?? [
      { currency: saleReturn.currency, amount_cents: saleReturn.refund_cents, tender_index: 0 },
    ],
    items: saleReturn.items,
    till_id: saleReturn.till_id,
    shift_id: saleReturn.shift_id,
    reason: saleReturn.reason,
    actor: { type: saleReturn.actor_type, id: saleReturn.actor_id },
    receipt_url: receiptUrl(config.publicBaseUrl, saleReturn.receipt_token),
    created_at: saleReturn.created_at.toISOString(),
  };
}

/** `returns`: the sale's returns, oldest first (none for a sale just made); `tenders`: a split sale's. */
export function presentSale(
  config: Config,
  sale: SaleRow,
  payment: PaymentRow | null,
  returns: readonly SaleReturnRow[],
  tenders: readonly SaleTenderRow[] = [],
) {
  return {
    id: sale.id,
    object: "sale" as const,
    livemode: sale.livemode,
    status: sale.status,
    tender: sale.tender,
    ...presentTenders(sale, tenders),
    total_cents: sale.total_cents,
    currency: sale.currency,
    items: sale.items,
    discount_cents: sale.discount_cents,
    discount_reason: sale.discount_reason,
    tax_cents: sale.tax_cents,
    taxes: sale.taxes,
    cashier: sale.cashier,
    note: sale.note,
    payment_id: sale.payment_id ?? payment?.id ?? null,
    payment: payment === null ? null : presentPayment(config, payment),
    actor: { type: sale.actor_type, id: sale.actor_id },
    client_sale_id: sale.client_sale_id,
    till_id: sale.till_id,
    shift_id: sale.shift_id,
    tendered_cents: sale.tendered_cents,
    change_cents: sale.tendered_cents === null ? null : sale.tendered_cents - sale.total_cents,
    returns: returns.map((saleReturn) => presentReturn(config, saleReturn)),
    receipt_url: receiptUrl(config.publicBaseUrl, sale.receipt_token),
    taken_at: (sale.taken_at ?? sale.created_at).toISOString(),
    completed_at: sale.completed_at?.toISOString() ?? null,
    cancelled_at: sale.cancelled_at?.toISOString() ?? null,
    created_at: sale.created_at.toISOString(),
  };
}

/** A sale with its payment and returns (`SaleView`), as the API shows it. */
export const presentSaleView = (config: Config, view: SaleView) =>
  presentSale(config, view.sale, view.payment, view.returns, view.tenders);

/** The sales report (`salesReport`) as the API shows it (`salesReportSchema`). */
export function presentSalesReport(report: SalesReport, livemode: boolean) {
  return {
    object: "sales_report" as const,
    livemode,
    timezone: report.timezone,
    from: report.from.toISOString(),
    to: report.to.toISOString(),
    totals: { count: report.count, by_currency: report.byCurrency },
    by_tender: report.byTender.map((tender) => ({
      tender: tender.tender,
      count: tender.count,
      by_currency: tender.byCurrency,
    })),
    top_products: report.topProducts,
    net: { by_currency: report.net },
  };
}
