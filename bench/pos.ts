import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import pg from "pg";
import { loadConfig } from "../src/platform/config.ts";
import { randomSecret } from "../src/platform/ids.ts";
import { createBenchDatabase, type LoadResult, load, seedMerchants, startServer, stopServer } from "./support.ts";

/**
 * npm run bench:pos
 *
 * 1. The scanner's exact barcode lookup and the `q` product search, p99 at a steady rate, on a merchant
 *    with 100k products (names from word lists; a one-word query matches ~2% of them).
 * 2. GET /v1/sales/report for one day of 5,000 sales with 10k, then 1M sales in the table (seeded
 *    set-based with generate_series): the cost must follow the period, not the table (target ≤ 1.5×).
 * 3. Cash sales per second (3 tracked lines, live keys: on-hand really decremented), across many
 *    merchants so none reaches its rate limit, against bare Express doing one INSERT, both measured
 *    in this run.
 */
const { values } = parseArgs({
  options: {
    merchants: { type: "string", default: "1000" },
    connections: { type: "string", default: "50" },
    seconds: { type: "string", default: "10" },
    products: { type: "string", default: "100000" },
    "lookup-rate": { type: "string", default: "200" },
    "report-samples": { type: "string", default: "100" },
    "report-total": { type: "string", default: "1000000" },
    "sales-only": { type: "boolean", default: false },
  },
});
const merchantCount = Number(values.merchants);
const connections = Number(values.connections);
const seconds = Number(values.seconds);
const productCount = Number(values.products);
const lookupRate = Number(values["lookup-rate"]);
const reportSamples = Number(values["report-samples"]);
const reportTotal = Number(values["report-total"]);
/** Only the cash sales phase: for comparing changes to the sale path quickly. */
const salesOnly = values["sales-only"] === true;

/** The report's day: a fixed past day in Africa/Harare (UTC+2, no daylight saving). */
const DAY_FROM = "2026-01-15T00:00:00+02:00";
const DAY_TO = "2026-01-16T00:00:00+02:00";
const DAY_SALES = 5000;
/** The catalog merchant, who also owns the report's sales. */
const CATALOG_MERCHANT = "mch_bench_1";

const BRANDS = (
  "Acme Baobab Cascade Delta Ember Falcon Granite Harbor Indigo Jasper Kalahari Lumen Marula Nyala Onyx Pioneer " +
  "Quartz Rhino Savanna Tsavo Umoja Vanguard Willow Xenon Yarrow Zambezi Apex Boulder Cobalt Dune Eland Fable " +
  "Gecko Hyrax Iris Jumbo Kudu Lotus Mopane Nile"
).split(" ");
const ITEMS = (
  "cola lemonade water juice milk yoghurt bread rusks biscuits crackers rice maize sugar salt flour oil margarine " +
  "butter cheese eggs beans peas lentils pasta noodles soup tea coffee cocoa jam honey peanut cereal oats soap " +
  "shampoo toothpaste lotion detergent bleach candles matches batteries bulbs tissue napkins foil sponge polish " +
  "spice"
).split(" ");

const database = await createBenchDatabase(loadConfig().databaseUrl);
try {
  const keys = Array.from({ length: merchantCount }, () => `sk_live_${randomSecret()}`);
  const client = new pg.Client({ connectionString: database.url });
  // Dropping the database at the end terminates this session: not an error worth crashing over.
  client.on("error", () => {});
  await client.connect();
  await seedMerchants(client, keys, { livemode: true });
  // Three tracked products per merchant for the cash sales, stocked so nothing runs out.
  await client.query(
    `INSERT INTO products (merchant_id, id, name, price_cents, currency, track_stock, stock_qty)
     SELECT 'mch_bench_' || m, 'prod_b_' || m || '_' || k, 'Bench item ' || k, 100 * k, 'USD', true, 1000000
     FROM generate_series(1, $1::int) AS m, generate_series(1, 3) AS k`,
    [merchantCount],
  );
  // The big catalog: brand × item × size names, sequential SKUs and barcodes, 20 categories.
  await client.query(
    `INSERT INTO products (merchant_id, id, name, sku, barcode, category, price_cents, currency, track_stock, stock_qty,
       low_stock_at)
     SELECT $1, 'prod_cat_' || n,
       ($2::text[])[1 + n % cardinality($2::text[])] || ' '
         || ($3::text[])[1 + (n / cardinality($2::text[])) % cardinality($3::text[])] || ' ' || (1 + n % 97) * 10 || 'g',
       'SKU-' || lpad(n::text, 7, '0'), (6000000000000 + n)::text, 'Category ' || (n % 20), 50 + n % 5000, 'USD', true,
       n % 200, 10
     FROM generate_series(1, $4::int) AS n`,
    [CATALOG_MERCHANT, BRANDS, ITEMS, productCount],
  );
  // The ceiling's table (bench/servers/baseline.ts answers POST /v1/sales with one INSERT into it).
  await client.query(
    "CREATE TABLE bench_payments (id bigserial PRIMARY KEY, amount_cents bigint NOT NULL, created_at timestamptz NOT NULL DEFAULT now())",
  );
  await client.query("VACUUM ANALYZE products");
  process.stdout.write(`${merchantCount} merchants and ${productCount} catalog products seeded\n`);

  const environment = {
    DATABASE_URL: database.url,
    DATABASE_POOL_SIZE: "10",
    LOG_LEVEL: "warn",
    NODE_ENV: "production",
    WEBHOOK_SECRET_ENCRYPTION_KEY: Buffer.alloc(32, 5).toString("base64"),
  };
  const catalogKey = keys[0] ?? "";

  // 1 and 2: lookups, search and the report, on one API server with the rate limit out of the way.
  const readFigures = salesOnly ? undefined : await measureReads();
  async function measureReads() {
    const reads = await startServer("bench/servers/api.ts", { ...environment, RATE_LIMIT_REQUESTS: "10000" });
    let barcode: LoadResult;
    let searchBroad: LoadResult;
    let searchNarrow: LoadResult;
    let report10k: Latency;
    let report1m: Latency;
    let items10k: Latency;
    let items1m: Latency;
    let tableRows10k: number;
    let tableRows1m: number;
    try {
      const base = `http://127.0.0.1:${reads.port}`;
      const paced = async (pathFor: (requestNumber: number) => string): Promise<LoadResult> => {
        let counter = 0;
        const run = () =>
          autocannon({
            url: `${base}/v1/products`,
            connections: 10,
            duration: seconds,
            overallRate: lookupRate,
            requests: [
              {
                method: "GET",
                setupRequest: (request) => {
                  counter += 1;
                  return { ...request, path: pathFor(counter), headers: { authorization: `Bearer ${catalogKey}` } };
                },
              },
            ],
          });
        const result = await run();
        return {
          requestsPerSecond: result.requests.average,
          p50Ms: result.latency.p50,
          p99Ms: result.latency.p99,
          total: result.requests.total,
          non2xx: result.non2xx + result.errors + result.timeouts,
        };
      };
      const randomProduct = () => 1 + Math.floor(Math.random() * productCount);
      barcode = await paced(() => `/v1/products?barcode=${6000000000000 + randomProduct()}`);
      searchBroad = await paced(
        (n) => `/v1/products?limit=20&q=${encodeURIComponent(ITEMS[n % ITEMS.length] ?? "cola")}`,
      );
      searchNarrow = await paced((n) => {
        const product = randomProduct();
        const q =
          n % 2 === 0
            ? `${BRANDS[product % BRANDS.length]} ${ITEMS[Math.floor(product / BRANDS.length) % ITEMS.length]}`
            : `SKU-${String(product).padStart(7, "0").slice(0, 5)}`;
        return `/v1/products?limit=20&q=${encodeURIComponent(q)}`;
      });

      // The report's day, then enough other sales for 10k rows in the table.
      await seedSales(client, {
        tag: "day",
        count: DAY_SALES,
        merchantExpression: `'${CATALOG_MERCHANT}'`,
        from: DAY_FROM,
        spanSeconds: 86_399,
      });
      await seedOtherSales(client, "a", 10_000 - DAY_SALES, merchantCount);
      tableRows10k = await countSales(client);
      report10k = await measureReport(base, catalogKey);
      items10k = await measureItemBreakdown(base, catalogKey);
      await seedOtherSales(client, "b", reportTotal - tableRows10k, merchantCount);
      tableRows1m = await countSales(client);
      report1m = await measureReport(base, catalogKey);
      items1m = await measureItemBreakdown(base, catalogKey);
    } finally {
      await stopServer(reads);
    }
    return { barcode, searchBroad, searchNarrow, report10k, report1m, items10k, items1m, tableRows10k, tableRows1m };
  }

  // 3: cash sales against the ceiling.
  const headersFor = (requestNumber: number) => ({
    authorization: `Bearer ${keys[requestNumber % keys.length]}`,
    "idempotency-key": randomUUID(),
    "content-type": "application/json",
  });
  const bodyFor = (requestNumber: number) => {
    const merchant = (requestNumber % keys.length) + 1;
    return JSON.stringify({
      tender: "cash",
      items: [1, 2, 3].map((k) => ({ product_id: `prod_b_${merchant}_${k}`, qty: k })),
    });
  };
  async function measureSales(script: string): Promise<LoadResult> {
    const server = await startServer(script, environment);
    try {
      const url = `http://127.0.0.1:${server.port}/v1/sales`;
      await load({ url, connections, durationSeconds: 2, method: "POST", headersFor, bodyFor });
      return await load({ url, connections, durationSeconds: seconds, method: "POST", headersFor, bodyFor });
    } finally {
      await stopServer(server);
    }
  }
  const baseline = await measureSales("bench/servers/baseline.ts");
  const api = await measureSales("bench/servers/api.ts");
  const { rows: stockCheck } = await client.query<{ moves: string; units: string }>(
    `SELECT count(*) AS moves, coalesce(-sum(qty_delta), 0) AS units FROM stock_moves WHERE kind = 'sale' AND livemode`,
  );
  await client.end();

  const ratio = api.requestsPerSecond / baseline.requestsPerSecond;
  const line = (name: string, result: LoadResult) =>
    `${name.padEnd(52)} ${result.requestsPerSecond.toFixed(0).padStart(6)} req/s   p50 ${String(result.p50Ms).padStart(4)} ms   p99 ${String(result.p99Ms).padStart(4)} ms   non-2xx ${result.non2xx}`;
  const latency = (name: string, result: Latency) =>
    `${name.padEnd(52)} p50 ${result.p50Ms.toFixed(1).padStart(6)} ms   p99 ${result.p99Ms.toFixed(1).padStart(6)} ms   (${result.samples} sequential requests)`;
  const readLines = (figures: NonNullable<typeof readFigures>) => {
    const { barcode, searchBroad, searchNarrow, report10k, report1m, items10k, items1m, tableRows10k, tableRows1m } =
      figures;
    const reportRatio = report1m.p50Ms / report10k.p50Ms;
    const itemsRatio = items1m.p50Ms / items10k.p50Ms;
    return [
      `bench:pos — ${productCount} catalog products; lookups paced at ${lookupRate}/s over 10 connections for ${seconds} s`,
      line("GET /v1/products?barcode= (scanner lookup)", barcode),
      line("GET /v1/products?q=<one word>&limit=20 (~2% match)", searchBroad),
      line("GET /v1/products?q=<brand item | sku prefix>&limit=20", searchNarrow),
      "",
      `sales report, one day of ${DAY_SALES} sales (3 lines each), merchant's own index range`,
      latency(`GET /v1/sales/report, ${tableRows10k} sales in the table`, report10k),
      latency(`GET /v1/sales/report, ${tableRows1m} sales in the table`, report1m),
      `ratio ${reportRatio.toFixed(2)} (p50 at ${tableRows1m} / at ${tableRows10k}; target ≤ 1.50: ${reportRatio <= 1.5 ? "met" : "NOT met"})`,
      latency(`GET /v1/sales/reports/item, ${tableRows10k} sales in the table`, items10k),
      latency(`GET /v1/sales/reports/item, ${tableRows1m} sales in the table`, items1m),
      `ratio ${itemsRatio.toFixed(2)} (target ≤ 1.50: ${itemsRatio <= 1.5 ? "met" : "NOT met"})`,
      "",
    ];
  };
  process.stdout.write(
    [
      "",
      ...(readFigures === undefined ? [] : readLines(readFigures)),
      `cash sales — ${connections} connections, ${seconds} s each, ${merchantCount} merchants (live keys), database pool 10`,
      line("baseline: Express + one INSERT", baseline),
      line("POST /v1/sales cash, 3 tracked lines (auth, idempotency)", api),
      `ratio ${ratio.toFixed(2)} (cash sales per second / bare INSERTs per second)`,
      `check: ${stockCheck[0]?.moves} live sale moves, ${stockCheck[0]?.units} units decremented in total`,
      "",
    ].join("\n"),
  );
} finally {
  await database.dispose();
}

type Latency = { p50Ms: number; p99Ms: number; samples: number };

/** The report's day as a query string. */
function dayQuery(): string {
  return `from=${encodeURIComponent(DAY_FROM)}&to=${encodeURIComponent(DAY_TO)}`;
}

/** One day's report (Today's: totals, tenders, best sellers, net). */
function measureReport(base: string, key: string): Promise<Latency> {
  return measureGet(
    `${base}/v1/sales/report?${dayQuery()}`,
    key,
    (body: { totals?: { count: number } }) => body.totals?.count === DAY_SALES,
  );
}

/** One day's sales by item (the heaviest breakdown: every line of the period, then the products named). */
function measureItemBreakdown(base: string, key: string): Promise<Latency> {
  return measureGet(
    `${base}/v1/sales/reports/item?${dayQuery()}`,
    key,
    (body: { rows?: unknown[] }) => (body.rows?.length ?? 0) > 0,
  );
}

/** A GET requested back to back after a warm-up: latency as a client sees it. */
async function measureGet<Body>(url: string, key: string, expected: (body: Body) => boolean): Promise<Latency> {
  const get = async () => {
    const started = performance.now();
    const response = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
    const body = (await response.json()) as Body;
    if (response.status !== 200 || !expected(body)) {
      throw new Error(`unexpected answer: ${response.status} ${JSON.stringify(body).slice(0, 200)}`);
    }
    return performance.now() - started;
  };
  for (let index = 0; index < 10; index += 1) {
    await get();
  }
  const timings: number[] = [];
  for (let index = 0; index < reportSamples; index += 1) {
    timings.push(await get());
  }
  timings.sort((left, right) => left - right);
  const at = (quantile: number) => timings[Math.min(timings.length - 1, Math.floor(quantile * timings.length))] ?? 0;
  return { p50Ms: at(0.5), p99Ms: at(0.99), samples: timings.length };
}

/**
 * Completed cash sales, set-based: three lines each over the catalog merchant's first 50 products,
 * completed at evenly spread instants of a span starting at `from`. `merchantExpression` is SQL over
 * the series number `n` (a constant, or a spread over the other merchants).
 */
async function seedSales(
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
async function seedOtherSales(client: pg.Client, tag: string, count: number, merchants: number): Promise<void> {
  const chunk = 100_000;
  for (let offset = 0; offset < count; offset += chunk) {
    const size = Math.min(chunk, count - offset);
    const half = Math.floor(size / 2);
    await seedSales(client, {
      tag: `${tag}${offset}m`,
      count: half,
      merchantExpression: `'${CATALOG_MERCHANT}'`,
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

async function countSales(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ count: string }>("SELECT count(*) AS count FROM sales");
  return Number(rows[0]?.count ?? 0);
}
