import type { FragmentSqlToken } from "slonik";
import { z } from "zod";
import { currencies } from "../../kernel/money.ts";
import type { World } from "../../kernel/world.ts";
import { type Queryable, sql } from "../../platform/db/pool.ts";
import type { BreakdownDimension } from "./breakdown-schemas.ts";
import { byCashier } from "./queries.ts";

/**
 * The sales breakdown's SQL. Two kinds of facts are summed per (key, currency): the period's completed
 * sales (by completion time, through the report index) and the period's returns (by return time, through
 * `sale_returns_period_idx`), each return counted under its sale's key (by tender:
 * breakdown-tender-queries.ts). Names are read last, as they are now.
 */
export type BreakdownPeriod = World & { timezone: string; from: Date; to: Date };
/** A sale-level breakdown may keep one cashier's sales (and the returns of them): Today at a till. */
export type SalePeriod = BreakdownPeriod & { cashierId?: string | undefined };
/** The dimensions whose facts are the sales themselves. */
type SaleDimension = Exclude<BreakdownDimension, "item" | "category" | "tender">;
const sale = sql.identifier(["s"]);

export const rowSchema = z.object({
  key: z.string().nullable(),
  label: z.string(),
  currency: z.enum(currencies),
  count: z.number().int(),
  gross_cents: z.number().int(),
  discount_cents: z.number().int(),
  refund_cents: z.number().int(),
  tax_cents: z.number().int(),
});

export const salesIn = (period: BreakdownPeriod) => sql.fragment`
  s.merchant_id = ${period.merchantId} AND s.livemode = ${period.livemode} AND s.status = 'completed'
  AND s.completed_at >= ${period.from.toISOString()}::timestamptz AND s.completed_at < ${period.to.toISOString()}::timestamptz`;

export const returnsIn = (period: BreakdownPeriod) => sql.fragment`
  r.merchant_id = ${period.merchantId} AND r.livemode = ${period.livemode}
  AND r.created_at >= ${period.from.toISOString()}::timestamptz AND r.created_at < ${period.to.toISOString()}::timestamptz`;

/** A sale-level dimension's key, for a sale (`s`) and for a return (`r`) of it (tender: breakdown-tender-queries.ts). */
function saleKeys(dimension: SaleDimension, timezone: string) {
  switch (dimension) {
    case "day":
      return {
        sale: sql.fragment`to_char(s.completed_at AT TIME ZONE ${timezone}, 'YYYY-MM-DD')`,
        refund: sql.fragment`to_char(r.created_at AT TIME ZONE ${timezone}, 'YYYY-MM-DD')`,
      };
    case "cashier":
      return { sale: sql.fragment`s.actor_id`, refund: sql.fragment`s.actor_id` };
    case "till":
      return { sale: sql.fragment`s.till_id`, refund: sql.fragment`s.till_id` };
  }
}

/** How a key reads: a cashier or till by its name now (an actor as the Z report names it). */
function labelOf(dimension: SaleDimension, merchantId: string): FragmentSqlToken {
  switch (dimension) {
    case "day":
      return sql.fragment`f.key`;
    case "till":
      return sql.fragment`coalesce(
        (SELECT d.name FROM till_devices d WHERE d.merchant_id = ${merchantId} AND d.id = f.key), f.key, 'No till')`;
    case "cashier":
      return sql.fragment`coalesce(
        (SELECT c.name FROM cashiers c WHERE c.merchant_id = ${merchantId} AND c.id = f.key),
        (SELECT d.name FROM till_devices d WHERE d.merchant_id = ${merchantId} AND d.id = f.key),
        (SELECT 'API key …' || k.secret_last4 FROM api_keys k WHERE k.merchant_id = ${merchantId} AND k.id = f.key),
        'Owner')`;
  }
}

export const sums = sql.fragment`sum(count)::int8 AS count, sum(gross)::int8 AS gross_cents,
  sum(discount)::int8 AS discount_cents, sum(refund)::int8 AS refund_cents, sum(tax)::int8 AS tax_cents`;

/** Day, cashier or till: one fact per sale and per return. */
export async function selectSaleBreakdown(
  database: Queryable,
  period: SalePeriod,
  dimension: SaleDimension,
): Promise<readonly z.infer<typeof rowSchema>[]> {
  const keys = saleKeys(dimension, period.timezone);
  return database.any(sql.type(rowSchema)`
    WITH facts AS (
      SELECT ${keys.sale} AS key, s.currency, 1 AS count, s.total_cents + s.discount_cents AS gross,
        s.discount_cents AS discount, 0 AS refund, s.tax_cents AS tax
      FROM sales s WHERE ${salesIn(period)} AND ${byCashier(sale, period.cashierId)}
      UNION ALL
      SELECT ${keys.refund}, r.currency, 0, 0, 0, r.refund_cents, 0
      FROM sale_returns r JOIN sales s ON s.merchant_id = r.merchant_id AND s.id = r.sale_id
      WHERE ${returnsIn(period)} AND ${byCashier(sale, period.cashierId)}),
    grouped AS (SELECT key, currency, ${sums} FROM facts GROUP BY key, currency)
    SELECT f.key, ${labelOf(dimension, period.merchantId)} AS label, f.currency, f.count, f.gross_cents,
      f.discount_cents, f.refund_cents, f.tax_cents
    FROM grouped f
    ORDER BY f.key NULLS LAST, f.currency`);
}

/**
 * A sale's (`s`) lines with their discounts and their tax, so that its lines sum to its figures exactly
 * (gross = total + discounts, discounts, tax). A line keeps its own discount and its share of the cart's
 * (`discount_cents`, spread by the basket when the sale was priced, src/kernel/basket.ts) and its net;
 * its tax is its share of its rate's tax by net, largest remainder, ties to the earlier line:
 * `taxPerLine` (src/kernel/refunds.ts) in SQL, which breakdown-lines.test.ts holds it to. A line without
 * discount or tax fields (a sale with neither) is its line total. `sale_net` is the sale's nets' sum:
 * tax was added on top when it is not the total. Innermost first: the lines; the sums of nets; each
 * share's floor and remainder; the cents left to the largest remainders.
 *
 * Per sale (a lateral subquery) rather than windows over the period's lines: the sorts are then of one
 * sale's few lines, not of the period's lines by sale id (measured: docs/performance.md). Integer
 * arithmetic throughout (a sum of int8 is numeric: cast back, or the division would not floor);
 * products fit in int8, a rate's tax and a line's net each being at most a sale's total (1e9 cents).
 */
const LINES_OF_SALE = sql.fragment`(
    SELECT f.*, f.tax_floor + CASE WHEN f.rate_net > 0
      AND row_number() OVER (PARTITION BY f.rate ORDER BY f.tax_remainder DESC, f.position)
        <= f.rate_tax - (sum(f.tax_floor) OVER (PARTITION BY f.rate))::int8 THEN 1 ELSE 0 END AS tax
    FROM (
      SELECT w.*, CASE WHEN w.rate_net > 0 THEN w.rate_tax * w.net / w.rate_net ELSE 0 END AS tax_floor,
        CASE WHEN w.rate_net > 0 THEN w.rate_tax * w.net % w.rate_net ELSE 0 END AS tax_remainder
      FROM (
        SELECT l.*, (sum(l.net) OVER ())::int8 AS sale_net, (sum(l.net) OVER (PARTITION BY l.rate))::int8 AS rate_net
        FROM (
          SELECT i.position, i.product_id, i.name, i.qty, coalesce(i.discount_cents, 0) AS discount,
            coalesce(i.net_cents, i.line_total_cents) AS net, coalesce(i.tax_rate_bp, 0) AS rate,
            coalesce(jsonb_path_query_first(s.taxes, '$[*] ? (@.rate_bp == $rate).tax_cents',
              jsonb_build_object('rate', coalesce(i.tax_rate_bp, 0)))::int8, 0) AS rate_tax
          FROM ROWS FROM (jsonb_to_recordset(s.items) AS (product_id text, name text, qty int8,
            line_total_cents int8, discount_cents int8, net_cents int8, tax_rate_bp int8)) WITH ORDINALITY
            AS i (product_id, name, qty, line_total_cents, discount_cents, net_cents, tax_rate_bp, position)
        ) l) w) f)`;

/**
 * Item or category: one fact per sold line (`LINES_OF_SALE`) and per returned line (a return's line keeps
 * what its units refunded, src/kernel/refunds.ts), so each dimension's rows sum to the period's totals.
 */
export async function selectLineBreakdown(
  database: Queryable,
  period: BreakdownPeriod,
  dimension: "item" | "category",
): Promise<readonly z.infer<typeof rowSchema>[]> {
  const grouping =
    dimension === "item"
      ? {
          key: sql.fragment`f.product_id`,
          label: sql.fragment`coalesce(p.name, f.name)`,
          by: sql.fragment`f.product_id, CASE WHEN f.product_id IS NULL THEN f.name END`,
        }
      : {
          key: sql.fragment`p.category`,
          label: sql.fragment`coalesce(p.category, 'No category')`,
          by: sql.fragment`p.category`,
        };
  return database.any(sql.type(rowSchema)`
    WITH facts AS (
      SELECT l.product_id, l.name, s.currency, l.qty AS count,
        l.net + l.discount + CASE WHEN s.total_cents = l.sale_net THEN 0 ELSE l.tax END AS gross,
        l.discount, 0::int8 AS refund, l.tax
      FROM sales s CROSS JOIN LATERAL ${LINES_OF_SALE} AS l
      WHERE ${salesIn(period)}
      UNION ALL
      SELECT i.product_id, i.name, r.currency, 0, 0, 0, i.line_total_cents, 0
      FROM sale_returns r CROSS JOIN LATERAL jsonb_to_recordset(r.items) AS i (product_id text, name text, line_total_cents int8)
      WHERE ${returnsIn(period)})
    SELECT ${grouping.key} AS key, min(${grouping.label}) AS label, f.currency, ${sums}
    FROM facts f
    LEFT JOIN products p ON p.merchant_id = ${period.merchantId} AND p.id = f.product_id
    GROUP BY ${grouping.by}, f.currency
    ORDER BY label, key NULLS LAST, f.currency`);
}
