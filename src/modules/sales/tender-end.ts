import { type Database, type Queryable, sql, type Transaction } from "../../platform/db/pool.ts";
import type { PaymentRow } from "../payments/index.ts";
import type { SalesEnd } from "./payment-end-queries.ts";
import { endSales } from "./payment-end-queries.ts";
import * as saleQueries from "./queries.ts";
import { lockSale } from "./return-queries.ts";
import { completionEnd } from "./sale-effects.ts";
import type { SaleRow } from "./schemas.ts";
import * as queries from "./tender-queries.ts";
import type { SaleTenderRow } from "./tender-schemas.ts";

/**
 * A split sale's wallet tenders end with their payments (docs/shop.md, "Split and two-currency
 * tender"): paid, the tender is `paid`, and the sale completes in that same statement when it was its
 * last tender due; expired or failed, the tender is `failed` and the sale stays pending, what was paid
 * kept. A split sale completes only when no tender is pending and the paid ones cover its total.
 *
 * Two wallet tenders of one sale paid at the same instant by two statements each see the other still
 * pending: neither completes the sale. So a statement that pays a tender while another of its sale's
 * tenders is pending (`racing`) checks again once committed, under the sale's row lock
 * (`completeSplitSaleIfPaid`, in a transaction of its own): the later of the two commits sees both
 * paid and completes the sale. Should that check fail (the database gone meanwhile), the next read of
 * the sale (`reading.ts`) or the next tender added completes it.
 */

/** The payments made for a split sale's tender: their metadata names the tender. */
export const isTenderPayment = (payment: PaymentRow) => typeof payment.metadata.tender_index === "number";

/** What the ends of `payments` do to split sales: the tenders they end, and the sales they complete. */
export type TenderEnds = {
  tenders: readonly SaleTenderRow[];
  status: "paid" | "failed";
  completing: readonly SaleRow[];
  /** Sales not completing here because another of their tenders is pending: checked again after the commit. */
  racing: readonly SaleRow[];
  /** The payment whose end completes `sale` (one of its tenders' in this batch). */
  gateOf: (saleId: string) => string | null;
  /** A completing sale's tenders as they are once these ends are written. */
  tendersOf: (saleId: string) => readonly SaleTenderRow[];
};

/** Whether a split sale is paid once `endingPaid` (payment ids) are: nothing pending, the paid tenders cover it. */
export function isPaidWith(
  sale: Pick<SaleRow, "total_cents">,
  tenders: readonly SaleTenderRow[],
  endingPaid: ReadonlySet<string> = new Set(),
): boolean {
  const paidNow = (tender: SaleTenderRow) =>
    tender.status === "paid" || (tender.payment_id !== null && endingPaid.has(tender.payment_id));
  const settled = tenders.filter((tender) => tender.status !== "failed");
  return (
    settled.every(paidNow) && settled.reduce((sum, tender) => sum + tender.contributed_cents, 0) >= sale.total_cents
  );
}

/** The split tenders `payments` end (`status`), or null when none of them pays a pending split sale. */
export async function tenderEnds(
  database: Queryable,
  payments: readonly PaymentRow[],
  status: "paid" | "failed",
): Promise<TenderEnds | null> {
  const tenderPayments = payments.filter(isTenderPayment);
  if (tenderPayments.length === 0) {
    return null;
  }
  const ending = new Set(tenderPayments.map((payment) => payment.id));
  const rows = await queries.selectTendersOfPendingPayments(
    database,
    tenderPayments.map((payment) => ({ merchantId: payment.merchant_id, paymentId: payment.id })),
  );
  const tenders = rows.filter(
    (row) => row.status === "pending" && row.payment_id !== null && ending.has(row.payment_id),
  );
  if (tenders.length === 0) {
    return null;
  }
  const perSale = Map.groupBy(rows, (row) => row.sale_id);
  const gates = new Map(tenders.map((tender) => [tender.sale_id, tender.payment_id]));
  const paidNow = status === "paid" ? ending : new Set<string>();
  const candidates = [...perSale].filter(([, saleTenders]) => saleTenders.some((tender) => tenders.includes(tender)));
  const sales = await Promise.all(
    candidates.map(([saleId, [first]]) =>
      first === undefined
        ? null
        : saleQueries.selectSale(database, { merchantId: first.merchant_id, livemode: first.livemode }, saleId),
    ),
  );
  const pendingSales = sales.filter((sale): sale is SaleRow => sale !== null && sale.status === "pending");
  const completing = pendingSales.filter((sale) => isPaidWith(sale, perSale.get(sale.id) ?? [], paidNow));
  const othersPending = (sale: SaleRow) =>
    (perSale.get(sale.id) ?? []).some(
      (tender) => tender.status === "pending" && (tender.payment_id === null || !ending.has(tender.payment_id)),
    );
  const racing =
    status === "paid" ? pendingSales.filter((sale) => !completing.includes(sale) && othersPending(sale)) : [];
  const ended = (tender: SaleTenderRow) =>
    tender.payment_id !== null && ending.has(tender.payment_id) && tender.status === "pending"
      ? { ...tender, status }
      : tender;
  return {
    tenders,
    status,
    completing,
    racing,
    gateOf: (saleId) => gates.get(saleId) ?? null,
    tendersOf: (saleId) => (perSale.get(saleId) ?? []).map(ended),
  };
}

/** `end` with the tenders' own ends before it (`sales_tenders_ended`), in the same statement. */
export function withTenderEnds(end: SalesEnd, ends: TenderEnds | null): SalesEnd {
  if (ends === null) {
    return end;
  }
  return {
    shape: `${end.shape}_tenders`,
    ctes: (ended) => sql.fragment`${queries.endTendersCte(ends.tenders, ends.status, ended)}, ${end.ctes(ended)}`,
    finished: sql.fragment`(${end.finished} + (SELECT count(*)::int FROM sales_tenders_ended))`,
  };
}

/**
 * In the caller's transaction, a split sale (locked, pending) completes when `tenders` pay it: its
 * `sale.completed` and stock moves now. Returns the sale as it then is.
 */
export async function completeIfPaid(
  transaction: Transaction,
  sale: SaleRow,
  tenders: readonly SaleTenderRow[],
): Promise<SaleRow> {
  if (sale.status !== "pending" || !isPaidWith(sale, tenders)) {
    return sale;
  }
  const completed = { ...sale, status: "completed" as const, completed_at: new Date() };
  await endSales(
    transaction,
    completionEnd([completed], undefined, () => tenders),
  );
  return completed;
}

/**
 * A pending split sale's tenders whose payments ended without the hook (an older release), ended
 * now, then the sale completed if they pay it, under its row lock. True when the sale completed.
 */
export async function completeSplitSaleIfPaid(
  database: Database,
  world: { merchantId: string; livemode: boolean },
  saleId: string,
  endedPayments: readonly PaymentRow[],
): Promise<boolean> {
  return database.transaction(async (transaction) => {
    const sale = await lockSale(transaction, world, saleId);
    if (sale === null || sale.status !== "pending") {
      return false;
    }
    for (const payment of endedPayments) {
      await queries.endTenderAlone(
        transaction,
        { merchant_id: payment.merchant_id, payment_id: payment.id },
        payment.status === "paid" ? "paid" : "failed",
      );
    }
    const tenders = await queries.selectTendersOfSales(transaction, world.merchantId, [saleId]);
    return (await completeIfPaid(transaction, sale, tenders)).status === "completed";
  });
}
