import { netAmountOf, type RefundShare, refundShares, type SettledTender } from "../../kernel/tender.ts";
import type { SaleTenderRow } from "./tender-schemas.ts";

/**
 * Which of a split sale's tenders pay back `refundCents` of the basket's currency, each share in the
 * tender's own currency at its rate (the kernel's `refundShares`: the last tender first, each up to
 * what it contributed). Only paid tenders give back: a pending or failed wallet tender paid nothing.
 * `tenderIndex` is the tender's position on the sale.
 */
export function tenderRefundShares(tenders: readonly SaleTenderRow[], refundCents: number): RefundShare[] {
  return refundShares(tenders.map(settledTenderOf), refundCents);
}

/**
 * A stored tender as the kernel settled it: what it paid net of the change it gave is exact when that
 * change was in its own currency (kept on the tender: `change_cents`); a tender that paid nothing
 * (pending, failed) contributes nothing.
 */
function settledTenderOf(tender: SaleTenderRow): SettledTender {
  const settled = {
    kind: tender.kind,
    currency: tender.currency,
    amountCents: tender.amount_cents,
    creditCents: tender.credit_cents,
    contributedCents: tender.status === "paid" ? tender.contributed_cents : 0,
  };
  if (tender.status !== "paid") {
    return { ...settled, netAmountCents: 0 };
  }
  return tender.change_currency === tender.currency && tender.change_cents !== null
    ? { ...settled, netAmountCents: tender.amount_cents - tender.change_cents }
    : settled;
}

/** What a stored tender paid in its own currency net of its change (0 unless paid): a cancel gives this back. */
export const netAmountCentsOf = (tender: SaleTenderRow) => netAmountOf(settledTenderOf(tender));

/** What a split sale's paid tenders contributed (basket currency). */
export const paidCentsOf = (tenders: readonly SaleTenderRow[]) =>
  tenders.reduce((sum, tender) => sum + (tender.status === "paid" ? tender.contributed_cents : 0), 0);
