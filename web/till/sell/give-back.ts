import type { Currency } from "../../../src/kernel/money.ts";
import type { Sale } from "../../lib/api.ts";

/**
 * What cancelling a pending split sale gives back, per currency, all in cash from the drawer (a paid
 * wallet tender too, as a return refunds one): each paid tender's amount net of its change, as the
 * API answers it (`net_amount_cents`).
 */
export function giveBack(sale: Sale): { currency: Currency; amountCents: number }[] {
  const byCurrency = new Map<Currency, number>();
  for (const tender of sale.tenders) {
    if (tender.net_amount_cents > 0) {
      byCurrency.set(tender.currency, (byCurrency.get(tender.currency) ?? 0) + tender.net_amount_cents);
    }
  }
  return [...byCurrency].map(([currency, amountCents]) => ({ currency, amountCents }));
}
