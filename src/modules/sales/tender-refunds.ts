import { type RefundShare, refundShares } from "../../kernel/tender.ts";
import type { SaleTenderRow } from "./tender-schemas.ts";

/**
 * Which of a split sale's tenders pay back `refundCents` of the basket's currency, each share in the
 * tender's own currency at its rate (the kernel's `refundShares`: the last tender first, each up to
 * what it contributed). Only paid tenders give back: a pending or failed wallet tender paid nothing.
 * `tenderIndex` is the tender's position on the sale.
 */
export function tenderRefundShares(tenders: readonly SaleTenderRow[], refundCents: number): RefundShare[] {
  return refundShares(
    tenders.map((tender) => ({
      kind: tender.kind,
      currency: tender.currency,
      amountCents: tender.amount_cents,
      creditCents: tender.credit_cents,
      contributedCents: tender.status === "paid" ? tender.contributed_cents : 0,
    })),
    refundCents,
  );
}

/** What a split sale's paid tenders contributed (basket currency). */
export const paidCentsOf = (tenders: readonly SaleTenderRow[]) =>
  tenders.reduce((sum, tender) => sum + (tender.status === "paid" ? tender.contributed_cents : 0), 0);
