import type { z } from "zod";
import { type Queryable, sql } from "../../platform/db/pool.ts";
import { returnsIn, rowSchema, type SalePeriod, salesIn, sums } from "./breakdown-queries.ts";
import { byCashier } from "./queries.ts";

const sale = sql.identifier(["s"]);

/**
 * The breakdown by tender: per kind of tender (cash, wallet) and the currency the money was in. A sale
 * of one tender is one fact in its currency, as the other dimensions count it (gross, discounts, tax).
 * A split sale is one fact per paid tender, in the tender's currency: `gross` what it took (cash net of
 * the change it gave in its own currency; change given in the other currency is a negative cash fact in
 * that currency), no discount or tax (those are the basket's: the other dimensions show them). A
 * refund counts under the tender that paid it out, cash, in each share's currency (a split sale's
 * return has a share per tender, `refunds`), so the wallet row is what reached the balance.
 */
export async function selectTenderBreakdown(
  database: Queryable,
  period: SalePeriod,
): Promise<readonly z.infer<typeof rowSchema>[]> {
  return database.any(sql.type(rowSchema)`
    WITH facts AS (
      SELECT s.tender AS key, s.currency, 1 AS count, s.total_cents + s.discount_cents AS gross,
        s.discount_cents AS discount, 0 AS refund, s.tax_cents AS tax
      FROM sales s WHERE ${salesIn(period)} AND ${byCashier(sale, period.cashierId)} AND s.tender <> 'split'
      UNION ALL
      SELECT t.kind, t.currency, 1,
        t.amount_cents - CASE WHEN t.change_currency = t.currency THEN t.change_cents ELSE 0 END, 0, 0, 0
      FROM sales s JOIN sale_tenders t ON t.merchant_id = s.merchant_id AND t.sale_id = s.id
      WHERE ${salesIn(period)} AND ${byCashier(sale, period.cashierId)} AND s.tender = 'split' AND t.status = 'paid'
      UNION ALL
      SELECT 'cash', t.change_currency, 0, -t.change_cents, 0, 0, 0
      FROM sales s JOIN sale_tenders t ON t.merchant_id = s.merchant_id AND t.sale_id = s.id
      WHERE ${salesIn(period)} AND ${byCashier(sale, period.cashierId)} AND s.tender = 'split'
        AND t.change_currency <> t.currency AND t.change_cents > 0
      UNION ALL
      SELECT r.refund_tender, coalesce(share.currency, r.currency), 0, 0, 0,
        coalesce(share.amount_cents, r.refund_cents), 0
      FROM sale_returns r JOIN sales s ON s.merchant_id = r.merchant_id AND s.id = r.sale_id
        LEFT JOIN LATERAL jsonb_to_recordset(r.refunds) AS share (currency text, amount_cents int8) ON TRUE
      WHERE ${returnsIn(period)} AND ${byCashier(sale, period.cashierId)}),
    grouped AS (SELECT key, currency, ${sums} FROM facts GROUP BY key, currency)
    SELECT f.key, f.key AS label, f.currency, f.count, f.gross_cents, f.discount_cents, f.refund_cents, f.tax_cents
    FROM grouped f
    ORDER BY f.key NULLS LAST, f.currency`);
}
