import type pg from "pg";

/** bench:pos's sales, written set-based with generate_series (the API would take hours for 1M). */

/**
 * Completed cash sales, set-based: three lines each over the catalog merchant's first 50 products,
 * completed at evenly spread instants of a span starting at `from`. `merchantExpression` is SQL over
 * the series number `n` (a constant, or a spread over the other merchants).
 */
export async function seedSales(
  client: pg.Client,
  options: { tag: string; count: number; merchantExpression: string; from: string; spanSeconds: number },
): Promise<void> {
  await client.query(
    `INSERT INTO sales (merchant_id, id, livemode, status, tender, currency, total_cents, items, actor_type, actor_id,
       created_at, completed_at)
     SELECT s.merchant_id, s.id, true, 'completed', 'cash', 'USD', lines.total, lines.items, 'api_key', 'key_bench_1',
       s.at, s.at
     FROM (
       SELECT ${options.merchantExpression} AS merchant_id, 'sale_bench_' || $1 || '_' || n AS id, n,
         $2::timestamptz + (n::float8 / $3::int * $4::int) * interval '1 second' AS at
       FROM generate_series(1, $3::int) AS n) AS s
     CROSS JOIN LATERAL (
       SELECT sum(q * u)::int8 AS total,
         jsonb_agg(jsonb_build_object('product_id', 'prod_cat_' || p, 'name', 'Item ' || p, 'qty', q, 'unit_cents', u,
           'line_total_cents', q * u) ORDER BY k) AS items
       FROM (SELECT k, 1 + (s.n * 7 + k) % 50 AS p, 1 + (s.n + k) % 3 AS q, 100 + (s.n * 13 + k) % 900 AS u
         FROM generate_series(0, 2) AS k) AS l) AS lines`,
    [options.tag, options.from, options.count, options.spanSeconds],
  );
}

/**
 * Sales outside the report's day: half are the catalog merchant's over 200 days ending days before it, half
 * belong to the other merchants; inserted in chunks of 100k, then the table is vacuumed and analyzed.
 */
export async function seedOtherSales(
  client: pg.Client,
  options: { tag: string; count: number; merchants: number; catalogMerchant: string },
): Promise<void> {
  const { tag, count, merchants, catalogMerchant } = options;
  const chunk = 100_000;
  for (let offset = 0; offset < count; offset += chunk) {
    const size = Math.min(chunk, count - offset);
    const half = Math.floor(size / 2);
    await seedSales(client, {
      tag: `${tag}${offset}m`,
      count: half,
      merchantExpression: `'${catalogMerchant}'`,
      from: "2025-06-20T00:00:00+02:00",
      spanSeconds: 200 * 86_400,
    });
    await seedSales(client, {
      tag: `${tag}${offset}o`,
      count: size - half,
      merchantExpression: `'mch_bench_' || (2 + n % ${Math.max(1, merchants - 1)})`,
      from: "2025-06-20T00:00:00+02:00",
      spanSeconds: 201 * 86_400,
    });
  }
  await client.query("VACUUM ANALYZE sales");
}

export async function countSales(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ count: string }>("SELECT count(*) AS count FROM sales");
  return Number(rows[0]?.count ?? 0);
}
