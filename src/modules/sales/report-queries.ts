import { z } from "zod";
import { currencies } from "../../kernel/money.ts";
import type { World } from "../../kernel/world.ts";
import { type Queryable, sql } from "../../platform/db/pool.ts";
import { byCashier } from "./queries.ts";
import { saleTenders } from "./schemas.ts";

const dayStartsRowSchema = z.object({ today_start: z.date(), today_end: z.date(), starts: z.array(z.date()) });

/** Today in the merchant's time zone, and the midnight there of each of `dates` (YYYY-MM-DD), in one round trip. */
export async function selectDayStarts(
  database: Queryable,
  timezone: string,
  dates: readonly string[],
): Promise<z.infer<typeof dayStartsRowSchema>> {
  return database.one(sql.type(dayStartsRowSchema)`
    SELECT date_trunc('day', now() AT TIME ZONE ${timezone}) AT TIME ZONE ${timezone} AS today_start,
      (date_trunc('day', now() AT TIME ZONE ${timezone}) + interval '1 day') AT TIME ZONE ${timezone} AS today_end,
      array(SELECT d::timestamp AT TIME ZONE ${timezone}
        FROM unnest(${sql.array([...dates], "date")}) WITH ORDINALITY AS u (d, n) ORDER BY n) AS starts`);
}

type Period = World & { from: Date; to: Date; cashierId: string | undefined };

/** Only completed sales count, by completion time: the report index's range. */
const completedIn = (period: Period) => sql.fragment`
  s.merchant_id = ${period.merchantId} AND s.livemode = ${period.livemode} AND s.status = 'completed'
  AND s.completed_at >= ${period.from.toISOString()}::timestamptz AND s.completed_at < ${period.to.toISOString()}::timestamptz
  AND ${byCashier(sql.identifier(["s"]), period.cashierId)}`;

const tenderTotalsRowSchema = z.object({
  tender: z.enum(saleTenders),
  currency: z.enum(currencies),
  count: z.number().int(),
  total_cents: z.number().int(),
});

export async function selectTenderTotals(
  database: Queryable,
  period: Period,
): Promise<readonly z.infer<typeof tenderTotalsRowSchema>[]> {
  return database.any(sql.type(tenderTotalsRowSchema)`
    SELECT s.tender, s.currency, count(*)::int8 AS count, sum(s.total_cents)::int8 AS total_cents
    FROM sales s
    WHERE ${completedIn(period)}
    GROUP BY s.tender, s.currency`);
}

const topProductRowSchema = z.object({
  product_id: z.string().nullable(),
  name: z.string(),
  currency: z.enum(currencies),
  units: z.number().int(),
  revenue_cents: z.number().int(),
});

/**
 * Best sellers by revenue, `top` per currency: the lines of the period's completed sales, expanded from
 * their snapshots and summed in a hash aggregate (no sort of the lines), ranked, and only then named:
 * a product by its catalog name now, an ad hoc line by its own name (ad hoc lines group by name).
 */
export async function selectTopProducts(
  database: Queryable,
  period: Period & { top: number },
): Promise<readonly z.infer<typeof topProductRowSchema>[]> {
  return database.any(sql.type(topProductRowSchema)`
    WITH lines AS (
      SELECT s.currency, i.product_id, CASE WHEN i.product_id IS NULL THEN i.name END AS adhoc_name,
        sum(i.qty)::int8 AS units, sum(i.line_total_cents)::int8 AS revenue_cents
      FROM sales s
      CROSS JOIN LATERAL jsonb_to_recordset(s.items) AS i (product_id text, name text, qty int8, line_total_cents int8)
      WHERE ${completedIn(period)}
      GROUP BY 1, 2, 3),
    ranked AS (
      SELECT lines.*, row_number() OVER (PARTITION BY currency
        ORDER BY revenue_cents DESC, units DESC, product_id, adhoc_name) AS rank
      FROM lines)
    SELECT r.product_id, coalesce(p.name, r.adhoc_name, '') AS name, r.currency, r.units, r.revenue_cents
    FROM ranked r
    LEFT JOIN products p ON p.merchant_id = ${period.merchantId} AND p.id = r.product_id
    WHERE r.rank <= ${period.top}
    ORDER BY r.currency, r.rank`);
}
