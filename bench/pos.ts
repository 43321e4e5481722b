import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import pg from "pg";
import { loadConfig } from "../src/platform/config.ts";
import { randomSecret } from "../src/platform/ids.ts";
import { cpuTally } from "./cpu-usage.ts";
import { countSales, seedOtherSales, seedSales } from "./pos-seed.ts";
import {
  type ComparedPair,
  compareInPairs,
  createBenchDatabase,
  describePairs,
  type LoadResult,
  load,
  seedMerchants,
  startServer,
  stopServer,
} from "./support.ts";

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
 * 4. A cash sale with discounts and tax (a line and a cart discount, two tax rates added on top) against
 *    the plain cash sale of 3, on one API server, in `rounds` alternated pairs: its cost (the API's and
 *    PostgreSQL's CPU per sale, over all rounds) must stay within 10 % of the plain sale's (issue 47;
 *    target priced/plain ≤ 1.10); the median pair's throughput ratio is printed beside it.
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
    rounds: { type: "string", default: "3" },
  },
});
const merchantCount = Number(values.merchants);
const connections = Number(values.connections);
const seconds = Number(values.seconds);
const productCount = Number(values.products);
const lookupRate = Number(values["lookup-rate"]);
const reportSamples = Number(values["report-samples"]);
const reportTotal = Number(values["report-total"]);
const rounds = Number(values.rounds);
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
  // The same three with tax (15 %, 15 %, 0 %) for the priced sales, in shops pricing tax on top; the plain
  // sales' products name no rate (the default, 0): those sales stay without tax in the same shops.
  await client.query(
    `INSERT INTO products (merchant_id, id, name, price_cents, currency, track_stock, stock_qty, tax_rate_bp)
     SELECT 'mch_bench_' || m, 'prod_t_' || m || '_' || k, 'Taxed item ' || k, 100 * k, 'USD', true, 1000000,
       CASE WHEN k = 3 THEN 0 ELSE 1500 END
     FROM generate_series(1, $1::int) AS m, generate_series(1, 3) AS k`,
    [merchantCount],
  );
  await client.query(
    `INSERT INTO shop_profiles (merchant_id, tax_mode) SELECT 'mch_bench_' || m, 'exclusive' FROM generate_series(1, $1::int) AS m`,
    [merchantCount],
  );
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
      const others = { merchants: merchantCount, catalogMerchant: CATALOG_MERCHANT };
      await seedOtherSales(client, { tag: "a", count: 10_000 - DAY_SALES, ...others });
      tableRows10k = await countSales(client);
      report10k = await measureReport(base, catalogKey);
      items10k = await measureItemBreakdown(base, catalogKey);
      await seedOtherSales(client, { tag: "b", count: reportTotal - tableRows10k, ...others });
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
  /** The plain sale's lines priced: 10 % off the first, 0.50 off the cart, tax on top of two. */
  const pricedBodyFor = (requestNumber: number) => {
    const merchant = (requestNumber % keys.length) + 1;
    return JSON.stringify({
      tender: "cash",
      items: [1, 2, 3].map((k) => ({
        product_id: `prod_t_${merchant}_${k}`,
        qty: k,
        ...(k === 1 ? { discount: { type: "percent", percent_bp: 1000 }, discount_reason: "Dented tin" } : {}),
      })),
      discount: { type: "amount", amount_cents: 50 },
      discount_reason: "Regular customer",
    });
  };
  /**
   * 4: plain and priced cash sales alternated on one warm API server (same pool, same tables). Its
   * rounds send each merchant many more sales than 3 does, so the rate limit is raised out of the way
   * (still checked on every request): a 429 is cheaper than a sale and would flatter the later rounds.
   */
  type CpuPerSale = { server: number; database: number };
  async function comparePricedSales(): Promise<{
    pairs: ComparedPair<LoadResult>[];
    median: ComparedPair<LoadResult>;
    cpu: { plain: CpuPerSale; priced: CpuPerSale };
  }> {
    const server = await startServer("bench/servers/api.ts", { ...environment, RATE_LIMIT_REQUESTS: "10000" });
    try {
      const url = `http://127.0.0.1:${server.port}/v1/sales`;
      const probe = await fetch(url, { method: "POST", headers: headersFor(0), body: pricedBodyFor(0) });
      const sale = (await probe.json()) as { discount_cents?: number; tax_cents?: number };
      if (probe.status !== 201 || !(sale.discount_cents ?? 0) || !(sale.tax_cents ?? 0)) {
        throw new Error(`the priced sale is not what it should be: ${probe.status} ${JSON.stringify(sale)}`);
      }
      const bodies = { plain: bodyFor, priced: pricedBodyFor };
      const run = (kind: keyof typeof bodies, durationSeconds: number) =>
        load({ url, connections, durationSeconds, method: "POST", headersFor, bodyFor: bodies[kind] });
      await run("plain", 2);
      await run("priced", 2);
      // What each kind of sale costs the API and PostgreSQL, over its rounds: the target's measure.
      const cpu = cpuTally<keyof typeof bodies>(server.child.pid ?? 0, database.url);
      const compared = await compareInPairs(
        rounds,
        (kind) => cpu.measure(kind as keyof typeof bodies, () => run(kind as keyof typeof bodies, seconds)),
        { baseline: "plain", server: "priced" },
      );
      return { ...compared, cpu: { plain: cpu.perRequestMs("plain"), priced: cpu.perRequestMs("priced") } };
    } finally {
      await stopServer(server);
    }
  }
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
  const priced = await comparePricedSales();
  const { rows: stockCheck } = await client.query<{ moves: string; units: string }>(
    `SELECT count(*) AS moves, coalesce(-sum(qty_delta), 0) AS units FROM stock_moves WHERE kind = 'sale' AND livemode`,
  );
  await client.end();

  const ratio = api.requestsPerSecond / baseline.requestsPerSecond;
  const pricedCost = 1 / priced.median.ratio;
  // The target's measure: what a sale costs the machine, read from /proc over every round of each kind.
  // Throughput pairs on this 2-core machine (the load generator on it too) spread ±20 % either way.
  const cpuPerSale = ({ server, database }: CpuPerSale) => server + database;
  const pricedCpuCost = cpuPerSale(priced.cpu.priced) / cpuPerSale(priced.cpu.plain);
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
      "",
      `cash sale with discounts and tax against the plain one — one API server, ${rounds} alternated pairs of ${seconds} s`,
      describePairs(priced.pairs),
      line("plain: POST /v1/sales cash, 3 tracked lines", priced.median.baseline),
      line("priced: 10 % off a line, 0.50 off the cart, tax on top", priced.median.server),
      `throughput ratio ${pricedCost.toFixed(2)} (plain / priced sales per second, the median pair)`,
      ...(["plain", "priced"] as const).map(
        (kind) =>
          `${kind}: CPU per sale over its rounds: API ${priced.cpu[kind].server.toFixed(3)} ms + PostgreSQL ${priced.cpu[kind].database.toFixed(3)} ms`,
      ),
      `cost ratio ${pricedCpuCost.toFixed(2)} (priced / plain CPU per sale, API and PostgreSQL; target ≤ 1.10: ${pricedCpuCost <= 1.1 ? "met" : "NOT met"})`,
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
