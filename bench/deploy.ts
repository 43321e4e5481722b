import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import os from "node:os";
import { parseArgs } from "node:util";
import pg from "pg";
import { SANDBOX_MAGIC_AMOUNTS } from "../src/gateway/sandbox.ts";
import { loadConfig } from "../src/platform/config.ts";
import { randomSecret } from "../src/platform/ids.ts";
import { poolNames } from "../src/platform/queue/task.ts";
import { type CpuSample, startCpuSample } from "./cpu-usage.ts";
import { chartApiProcess, chartPoolProcesses, peakRssMb, sumCpu } from "./deployment.ts";
import { type ApiPooler, startApiPooler } from "./pooler.ts";
import {
  type BusyStatement,
  buildRelease,
  busiestStatements,
  committedTransactions,
  createBenchDatabase,
  IDLE_BACKENDS_PUBLISHED_MS,
  type LoadResult,
  load,
  percentile,
  seedMerchants,
  startBuiltService,
  startServer,
  statementCounts,
  statementsBetween,
  stopServer,
} from "./support.ts";

/**
 * npm run bench:deploy [-- --short] [-- --pooler]
 *
 * The deployment shape: the API and the four worker pools as separate processes on one PostgreSQL
 * (DATABASE_URL's server, or an embedded one), as the Helm chart runs them: the built release
 * (dist/services/<name>/main.js, built first), each process with the chart's node options
 * (`--api-args`, `--pool-args` replace them) and extra environment (`--api-env NAME=VALUE`,
 * `--pool-env pool:NAME=VALUE` override one), each pool with the chart's concurrency and connection
 * pool (helm/pos-platform/values.yaml). First a history (`--history` seconds of each operation below,
 * settled, then ANALYZE: see buildHistory), so that nothing is measured against the empty tables of a
 * new database. In each round, in alternated order:
 * - the ceiling: bare Express doing one INSERT per POST, nothing else on the database;
 * - the platform: POST /v1/payments at full speed while the pools run, the payments then left to
 *   settle by the gateway-poller's polling through the sandbox gateway (which reports a payment paid
 *   `--auto-settle` seconds after its code was issued), timed until every `payment.paid` has reached
 *   its merchant's webhook endpoint (each merchant has one: a receiver process, bench/servers/receiver.ts).
 * - the same creations paced at half the rate reached, then settled: the webhook latency of a busy
 *   machine that is not saturated;
 * - settled by callback: payments the sandbox never reports paid, each then paid through mockpay (the
 *   sandbox's callback), timed until every `payment.paid` has arrived; the polls made for them first;
 * - cash sales: POST /v1/sales (cash, one tracked product of the merchant's) at full speed, pools
 *   running, nothing pending;
 * - wallet sales: POST /v1/sales (wallet) at full speed, then their payments settled by polling;
 * - payouts: POST /v1/payouts (1.00 to the merchant's verified wallet) at full speed, then the
 *   payout-processor's work until every one is confirmed (the sandbox settles payouts and the
 *   processor passes again `--auto-settle` seconds later, where the defaults say 20 and 60);
 * - idle pools, and pools with `--waiting` payments pending that never settle; then their windows
 *   closed at once, and the code-expiry pool's work until each is expired.
 * Printed per measurement: requests/s, p50/p99, PostgreSQL CPU seconds per 1,000 operations (the
 * backends of the bench database, from /proc; n/a when the server is elsewhere), transactions per
 * operation (pg_stat_database.xact_commit deltas), statements per operation and, for settlements, the
 * busiest statements with their execution and planning time per operation (pg_stat_statements,
 * where the server loads it), the webhook latency from the settlement (its transaction's start, when
 * the event is stamped) to the receiver (p50/p99), for the settling phases and for the payments settled
 * while the creation load ran, and the API's peak RSS. Ratios compare figures of
 * the same run only: the machine is shared and its speed drifts.
 * `--pooler`: the API's database through Debian's PgBouncer in transaction mode, with
 * DATABASE_PREPARED_STATEMENTS=false, its LISTEN connection and the pools direct (./pooler.ts); the
 * ceiling stays direct.
 */
const { values } = parseArgs({
  options: {
    short: { type: "boolean", default: false },
    pooler: { type: "boolean", default: false },
    merchants: { type: "string", default: "50" },
    connections: { type: "string", default: "50" },
    seconds: { type: "string" },
    rounds: { type: "string" },
    "auto-settle": { type: "string", default: "3" },
    // Seconds of each operation run before anything is measured (buildHistory).
    history: { type: "string" },
    "settle-timeout": { type: "string", default: "120" },
    waiting: { type: "string" },
    // pool:NAME=VALUE, for example webhook-delivery:WORKER_LOCAL_QUEUE_SIZE=0; repeatable.
    "pool-env": { type: "string", multiple: true, default: [] },
    // Node's options for every pool in place of the chart's nodeArgs, space-separated (--pool-args=...).
    "pool-args": { type: "string" },
    // Node's options for the API in place of the chart's api.nodeArgs, space-separated (--api-args=...).
    "api-args": { type: "string" },
    // NAME=VALUE over the API's environment from the chart, for example MALLOC_ARENA_MAX=2; repeatable.
    "api-env": { type: "string", multiple: true, default: [] },
  },
});
const short = values.short;
const merchantCount = Number(values.merchants);
const connections = Number(values.connections);
const seconds = Number(values.seconds ?? (short ? 5 : 10));
const rounds = Number(values.rounds ?? (short ? 1 : 2));
const warmupSeconds = short ? 1 : 2;
const historySeconds = Number(values.history ?? (short ? 3 : 5));
const settleTimeoutMs = Number(values["settle-timeout"]) * 1000;
const waitingPayments = Number(values.waiting ?? (short ? 1000 : 2000));
const poolProcesses = await chartPoolProcesses(values["pool-args"], values["pool-env"]);
const apiProcess = await chartApiProcess(values["api-args"], values["api-env"]);

type Measured = LoadResult & {
  cpu: CpuSample;
  /** PostgreSQL transactions committed during the measurement (all backends of the database). */
  transactions: number;
  /** Statements run meanwhile (pg_stat_statements), null where the server does not count them. */
  statements: number | null;
  /** The statements that took most of the database's time meanwhile. */
  busiest: BusyStatement[];
  /** When the measured load began and ended (after the warm-up). */
  startedAt: Date;
  endedAt: Date;
};
/** What the pools' work on `payments` payments cost, from its start until it was done. */
type PoolsWork = {
  payments: number;
  seconds: number;
  cpu: CpuSample;
  transactions: number;
  statements: number | null;
  busiest: BusyStatement[];
  poolCpuSeconds: number;
};
type Settled = PoolsWork & {
  /** From each payment.paid event's settlement transaction to its arrival at the merchant's endpoint. */
  webhookP50Ms: number;
  webhookP99Ms: number;
  /** Of that, from the settlement transaction to the delivery pool's first attempt. */
  toFirstAttemptP50Ms: number;
  toFirstAttemptP99Ms: number;
  /** The first attempt's own time, request to the receiver's answer (the delivery pool's slot held meanwhile). */
  firstAttemptDurationP50Ms: number;
  firstAttemptDurationP99Ms: number;
};
type Round = {
  baseline: Measured;
  platform: Measured;
  /** The platform's payments, settled by polling. */
  settled: Settled;
  /** The webhook latencies (ms) of the payment.paid events settled while the creation load ran. */
  settledDuringCreation: WebhookLatencies;
  /** Payments created at half the full-speed rate, and their payment.paid deliveries. */
  halfRate: HalfRate;
  /** Payments settled through mockpay, the sandbox's callback, rather than by polling. */
  callbacks: Settled & { callback: LoadResult; polls: number };
  /** POST /v1/sales, cash, one tracked product per sale, with the pools running and nothing pending. */
  cashSales: Measured;
  /** POST /v1/sales, wallet: each issues a payment, which then settles by polling. */
  walletSales: Measured;
  walletSalesSettled: Settled;
  payouts: Payouts;
  apiPeakRssMb: number;
  /** Each pool's high-water mark through every load, in poolNames order. */
  poolPeakRssMb: number[];
  idle: Idle;
  waiting: Waiting;
  /** The waiting payments' windows closed at once, then each expired by the code-expiry pool after its last inquiry. */
  expired: PoolsWork;
};
/** Of each payment.paid event, ms from its settlement to the receiver, and to its first attempt; that attempt's own ms. */
type WebhookLatencies = { toReceipt: number[]; toFirstAttempt: number[]; firstAttemptDuration: number[] };
/** POST /v1/payments paced at `ratePerSecond`, and the webhook latencies of their settlements. */
type HalfRate = { ratePerSecond: number; created: LoadResult; latencies: WebhookLatencies };
/** POST /v1/payouts, then the payout-processor's work until each is confirmed. */
type Payouts = {
  requests: Measured;
  confirmSeconds: number;
  confirmTransactions: number;
  /** Statements run from the end of the load until every payout was confirmed (null: not counted). */
  confirmStatements: number | null;
  confirmBusiest: BusyStatement[];
  poolCpuSeconds: number;
};
/** What pending payments that never settle cost while they wait, polled on the schedule. */
type Waiting = Idle & { pending: number; polls: number; poolCpuSeconds: number };
/**
 * What the pools cost the database while nothing happens but payments waiting: transactions
 * (pg_stat_database) and statements (pg_stat_statements, null where the server lacks it).
 */
type Idle = { seconds: number; transactions: number; statements: number | null; cpu: CpuSample };

await buildRelease();

// The merchants' webhook endpoint, a process of its own (bench/servers/receiver.ts).
const receiver = await startServer("bench/servers/receiver.ts", {});
const receiverBase = `http://127.0.0.1:${receiver.port}`;
const receiverUrl = `${receiverBase}/hooks`;
/** How many events have reached the receiver. */
async function arrivalCount(): Promise<number> {
  return (await (await fetch(`${receiverBase}/arrivals/count`)).json()) as number;
}
/** When each event first reached the receiver, ms since the epoch by event id. */
async function arrivals(): Promise<Map<string, number>> {
  const response = await fetch(`${receiverBase}/arrivals`);
  return new Map(Object.entries((await response.json()) as Record<string, number>));
}

const database = await createBenchDatabase(loadConfig().databaseUrl);
let pooler: ApiPooler | null = null;
try {
  const keys = Array.from({ length: merchantCount }, () => `sk_test_${randomSecret()}`);
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  // Dropping the database at the end terminates this connection if a failure left it open.
  client.on("error", () => {});
  await seedMerchants(client, keys);
  // Each merchant's payout wallet, verified (a sandbox number that accepts payouts).
  await client.query("UPDATE merchants SET payout_msisdn = '263771234567', payout_verified = true");
  await client.query(
    "CREATE TABLE bench_payments (id bigserial PRIMARY KEY, amount_cents bigint NOT NULL, created_at timestamptz NOT NULL DEFAULT now())",
  );
  await client.query("ANALYZE");

  const environment = {
    DATABASE_URL: database.url,
    DATABASE_POOL_SIZE: "10",
    LOG_LEVEL: "warn",
    NODE_ENV: "production",
    WEBHOOK_SECRET_ENCRYPTION_KEY: Buffer.alloc(32, 5).toString("base64"),
    SANDBOX_AUTO_SETTLE_SECONDS: values["auto-settle"],
    // Payouts settle and are confirmed as fast as payments (by default 20 s, then a pass a minute).
    PAYOUT_SETTLE_SECONDS: values["auto-settle"],
    PAYOUT_PROCESSOR_INTERVAL_SECONDS: values["auto-settle"],
    // 50 merchants at full speed: far above a merchant's default limit (the most allowed: 1,000/s each).
    RATE_LIMIT_REQUESTS: "10000",
    WORKER_HTTP_PORT: "0",
    METRICS_PORT: "0",
  };
  // As many server connections as the API has clients: the figures show the hop and the setting,
  // not a smaller pool.
  pooler = values.pooler ? await startApiPooler(database.url, Number(environment.DATABASE_POOL_SIZE)) : null;
  const headersFor = (requestNumber: number) => ({
    authorization: `Bearer ${keys[requestNumber % keys.length]}`,
    "idempotency-key": randomUUID(),
    "content-type": "application/json",
  });
  const body = () => JSON.stringify({ amount_cents: 1000 + Math.floor(Math.random() * 9000) });
  const payoutBody = () => JSON.stringify({ amount_cents: 100 });
  /** A sale of one of the merchants' products (one per merchant, in key order). */
  const saleBody = (products: readonly string[], tender: "cash" | "wallet") => (requestNumber: number) =>
    JSON.stringify({
      tender,
      items: [{ product_id: products[requestNumber % products.length], qty: 1 + (requestNumber % 3) }],
    });

  const pendingCount = async () =>
    Number((await client.query("SELECT count(*) AS n FROM payments WHERE status = 'pending'")).rows[0].n);

  async function measure(
    url: string,
    serverPid: number,
    bodyFor: (requestNumber: number) => string = body,
  ): Promise<Measured> {
    await load({ url, connections, durationSeconds: warmupSeconds, method: "POST", headersFor, bodyFor });
    const transactionsBefore = await committedTransactions(database.url, { settledMs: 1000 });
    const statementsBefore = await statementCounts(database.url);
    const cpuSince = await startCpuSample(serverPid, database.url);
    const startedAt = new Date();
    const result = await load({
      url,
      connections,
      durationSeconds: seconds,
      method: "POST",
      headersFor,
      bodyFor,
    });
    const endedAt = new Date();
    const cpu = await cpuSince();
    const transactions = (await committedTransactions(database.url, { settledMs: 1000 })) - transactionsBefore;
    const statementsAfter = await statementCounts(database.url);
    return {
      ...result,
      cpu,
      transactions,
      statements: statementsBetween(statementsBefore, statementsAfter),
      busiest: busiestStatements(statementsBefore, statementsAfter, 12),
      startedAt,
      endedAt,
    };
  }

  async function measureBaseline(): Promise<Measured> {
    const server = await startServer("bench/servers/baseline.ts", environment);
    try {
      return await measure(`http://127.0.0.1:${server.port}/v1/payments`, server.child.pid ?? 0);
    } finally {
      await stopServer(server);
    }
  }

  /** The API and the pools as the chart runs them, each a process of its own. */
  async function startPlatform() {
    const pools: { child: ChildProcess }[] = [];
    for (const pool of poolNames) {
      const { env, nodeArgs } = poolProcesses[pool];
      pools.push(await startBuiltService(pool, { ...environment, ...env }, "WORKER_HTTP_PORT", nodeArgs));
    }
    const apiEnvironment = { ...environment, ...apiProcess.env, ...pooler?.apiEnvironment };
    const api = await startBuiltService("api", apiEnvironment, "PORT", apiProcess.nodeArgs);
    return {
      apiUrl: `http://127.0.0.1:${api.port}`,
      apiPid: api.child.pid ?? 0,
      poolPids: pools.map((pool) => pool.child.pid ?? 0),
      stop: async () => {
        await stopServer(api);
        await Promise.all(pools.map(stopServer));
      },
    };
  }

  /**
   * A platform with a history, before anything is measured. On a new database every table is empty
   * when the processes first plan their statements, and the plans they cache then (the application's
   * prepared statements, the foreign-key checks' own) scan whole tables, which soon hold thousands of
   * rows (the settlement's checks scanned thousands of ledger transactions and events each), until
   * autovacuum's ANALYZE, up to a minute later, has every backend plan again. So every kind of
   * operation measured runs first for `historySeconds` and settles; then the statistics are taken and
   * these processes stopped: the measured ones plan against tables that hold rows. The ceiling's
   * table gets as many rows.
   */
  async function buildHistory(): Promise<void> {
    const platform = await startPlatform();
    try {
      await registerEndpoints(platform.apiUrl);
      const products = await createProducts(platform.apiUrl);
      const run = (path: string, bodyFor: (requestNumber: number) => string) =>
        load({
          url: `${platform.apiUrl}${path}`,
          connections,
          durationSeconds: historySeconds,
          method: "POST",
          headersFor,
          bodyFor,
        });
      await run("/v1/payments", body);
      await run("/v1/sales", saleBody(products, "cash"));
      await run("/v1/sales", saleBody(products, "wallet"));
      await waitUntilSettled(settleTimeoutMs);
      await run("/v1/payouts", payoutBody);
      await waitUntilPayoutsFinished();
    } finally {
      await platform.stop();
    }
    await client.query(
      "INSERT INTO bench_payments (amount_cents) SELECT 1000 FROM generate_series(1, (SELECT count(*) FROM payments))",
    );
    await client.query("ANALYZE");
  }

  async function measurePlatform(): Promise<Omit<Round, "baseline">> {
    const { apiUrl, apiPid, poolPids, stop } = await startPlatform();
    try {
      await registerEndpoints(apiUrl);
      // Whatever earlier rounds left pending settles first: each round measures its own payments.
      await waitUntilSettled(settleTimeoutMs);
      const roundStartedAt = new Date();
      const platform = await measure(`${apiUrl}/v1/payments`, apiPid);
      // Settling: from the end of the load until none is pending, with the pools' own CPU.
      const settled = await measureSettling(apiPid, poolPids, await pendingCount(), roundStartedAt, () =>
        waitUntilSettled(settleTimeoutMs),
      );
      // The issue's webhook target holds "while the payments benchmark runs": the payments the pools
      // settled during the measured creation load, whose deliveries have all arrived by now.
      const settledDuringCreation = await webhookLatenciesMs(platform.startedAt, platform.endedAt);
      const halfRate = await measureHalfRate(apiUrl, platform.requestsPerSecond);
      const callbacks = await measureCallbackSettlement(apiUrl, apiPid, poolPids);

      // Sales at the till: each merchant's one product, stock tracked; cash into the ledger at once,
      // wallet sales pending on their payment, which the sandbox then reports paid.
      const products = await createProducts(apiUrl);
      const cashSales = await measure(`${apiUrl}/v1/sales`, apiPid, saleBody(products, "cash"));
      const walletSalesStartedAt = new Date();
      const walletSales = await measure(`${apiUrl}/v1/sales`, apiPid, saleBody(products, "wallet"));
      const walletSalesSettled = await measureSettling(
        apiPid,
        poolPids,
        await pendingCount(),
        walletSalesStartedAt,
        () => waitUntilSettled(settleTimeoutMs),
      );
      const payouts = await measurePayouts(apiUrl, apiPid, poolPids);
      // The most the API held through every load (a high-water mark).
      const apiPeakRssMb = await peakRssMb(apiPid);
      const poolPeakRssMb = await Promise.all(poolPids.map(peakRssMb));

      const idle = await measureIdle(apiPid);
      const waiting = await measureWaiting(apiUrl, apiPid, poolPids);
      const expired = await measureExpiry(apiPid, poolPids);
      return {
        platform,
        settled,
        settledDuringCreation,
        halfRate,
        callbacks,
        cashSales,
        walletSales,
        walletSalesSettled,
        payouts,
        apiPeakRssMb,
        poolPeakRssMb,
        idle,
        waiting,
        expired,
      };
    } finally {
      await stop();
    }
  }

  /**
   * What the pools' work on `payments` payments costs, from now until `work` resolves: the time, the
   * database's and the pools' CPU, transactions and statements, and the busiest statements.
   */
  async function measurePoolsWork(
    apiPid: number,
    poolPids: readonly number[],
    payments: number,
    work: () => Promise<void>,
  ): Promise<PoolsWork> {
    const poolCpuBefore = await sumCpu(poolPids);
    const transactionsBefore = await committedTransactions(database.url);
    const statementsBefore = await statementCounts(database.url);
    const cpuSince = await startCpuSample(apiPid, database.url);
    const started = performance.now();
    await work();
    const seconds = (performance.now() - started) / 1000;
    const cpu = await cpuSince();
    const poolCpuSeconds = (await sumCpu(poolPids)) - poolCpuBefore;
    const transactions = (await committedTransactions(database.url, { settledMs: 1000 })) - transactionsBefore;
    const statementsAfter = await statementCounts(database.url);
    return {
      payments,
      seconds,
      cpu,
      transactions,
      statements: statementsBetween(statementsBefore, statementsAfter),
      busiest: busiestStatements(statementsBefore, statementsAfter, 12),
      poolCpuSeconds,
    };
  }

  /**
   * What settling costs, from now until `settle` resolves (`measurePoolsWork`), and the webhook
   * latency of the payment.paid events of payments created since `since`.
   */
  async function measureSettling(
    apiPid: number,
    poolPids: readonly number[],
    payments: number,
    since: Date,
    settle: () => Promise<void>,
  ): Promise<Settled> {
    const work = await measurePoolsWork(apiPid, poolPids, payments, settle);
    const webhookLatencies = await webhookLatenciesMs(since);
    return {
      ...work,
      webhookP50Ms: percentile(webhookLatencies.toReceipt, 0.5),
      webhookP99Ms: percentile(webhookLatencies.toReceipt, 0.99),
      toFirstAttemptP50Ms: percentile(webhookLatencies.toFirstAttempt, 0.5),
      toFirstAttemptP99Ms: percentile(webhookLatencies.toFirstAttempt, 0.99),
      firstAttemptDurationP50Ms: percentile(webhookLatencies.firstAttemptDuration, 0.5),
      firstAttemptDurationP99Ms: percentile(webhookLatencies.firstAttemptDuration, 0.99),
    };
  }

  /**
   * The same creations paced at half the rate the full-speed load reached, for `seconds` and at least
   * 10 s (a payment settles at its poll 5 s after creation, so most settle while creations still
   * arrive), then left to settle: the webhook latency of a busy machine that is not saturated.
   */
  async function measureHalfRate(apiUrl: string, fullRatePerSecond: number): Promise<HalfRate> {
    const ratePerSecond = Math.max(1, Math.round(fullRatePerSecond / 2));
    const startedAt = new Date();
    const created = await load({
      url: `${apiUrl}/v1/payments`,
      // autocannon paces each connection on its own: fewer connections send a steadier stream.
      connections: Math.min(connections, 10),
      durationSeconds: Math.max(10, seconds),
      ratePerSecond,
      method: "POST",
      headersFor,
      bodyFor: body,
    });
    await waitUntilSettled(settleTimeoutMs);
    return { ratePerSecond, created, latencies: await webhookLatenciesMs(startedAt) };
  }

  /**
   * Payments settled by the payer's side rather than by polling: `waitingPayments` payments the sandbox
   * never reports paid, created first, then each paid through mockpay (the sandbox's callback) at
   * `connections`, timed until every payment.paid has reached its merchant. Also counts the gateway
   * inquiries made for them meanwhile (polls a callback made unnecessary).
   */
  async function measureCallbackSettlement(
    apiUrl: string,
    apiPid: number,
    poolPids: readonly number[],
  ): Promise<Settled & { callback: LoadResult; polls: number }> {
    const since = new Date();
    await createNeverSettling(apiUrl);
    const { rows } = await client.query<{ id: string }>(
      "SELECT id FROM payments WHERE status = 'pending' AND amount_cents = $1 AND created_at >= $2 ORDER BY created_at",
      [SANDBOX_MAGIC_AMOUNTS.neverSettles, since],
    );
    const ids = rows.map((row) => row.id);
    let callback: LoadResult | undefined;
    const settled = await measureSettling(apiPid, poolPids, ids.length, since, async () => {
      callback = await load({
        url: apiUrl,
        connections,
        durationSeconds: 120,
        amount: ids.length,
        method: "POST",
        pathFor: (requestNumber) => `/checkout/${ids[(requestNumber - 1) % ids.length]}/mockpay`,
      });
      await waitUntilSettled(settleTimeoutMs);
    });
    const { rows: polled } = await client.query<{ n: string }>(
      "SELECT coalesce(sum(inquiry_count), 0) AS n FROM payments WHERE id = ANY($1::text[])",
      [ids],
    );
    return { ...settled, callback: callback as LoadResult, polls: Number(polled[0]?.n) };
  }

  /**
   * POST /v1/payouts (1.00 each, to each merchant's verified wallet) at full speed, then the
   * payout-processor's work until every one is confirmed: submitted to the sandbox gateway, which
   * settles it `--auto-settle` seconds later, and confirmed on the processor's next pass (as often).
   */
  async function measurePayouts(apiUrl: string, apiPid: number, poolPids: readonly number[]): Promise<Payouts> {
    const requests = await measure(`${apiUrl}/v1/payouts`, apiPid, payoutBody);
    const poolCpuBefore = await sumCpu(poolPids);
    const transactionsBefore = await committedTransactions(database.url);
    const statementsBefore = await statementCounts(database.url);
    const started = performance.now();
    await waitUntilPayoutsFinished();
    const confirmSeconds = (performance.now() - started) / 1000;
    const poolCpuSeconds = (await sumCpu(poolPids)) - poolCpuBefore;
    const confirmTransactions = (await committedTransactions(database.url, { settledMs: 1000 })) - transactionsBefore;
    const statementsAfter = await statementCounts(database.url);
    return {
      requests,
      confirmSeconds,
      confirmTransactions,
      confirmStatements: statementsBetween(statementsBefore, statementsAfter),
      confirmBusiest: busiestStatements(statementsBefore, statementsAfter, 12),
      poolCpuSeconds,
    };
  }

  /**
   * Nothing pending, nothing arriving: what the pools alone cost the database. Counting starts once
   * every backend has published what the phase before did (`IDLE_BACKENDS_PUBLISHED_MS`); from then
   * on the pools' own counts, however late each is published, arrive at the rate they are made.
   */
  async function measureIdle(apiPid: number): Promise<Idle> {
    const seconds = short ? 3 : 5;
    const transactionsBefore = await committedTransactions(database.url, { settledMs: IDLE_BACKENDS_PUBLISHED_MS });
    const statementsBefore = await statementCounts(database.url);
    const cpuSince = await startCpuSample(apiPid, database.url);
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    const cpu = await cpuSince();
    const transactions = (await committedTransactions(database.url)) - transactionsBefore;
    const statements = statementsBetween(statementsBefore, await statementCounts(database.url));
    return { seconds, transactions, statements, cpu };
  }

  /**
   * Payments the gateway never reports paid, polled on the schedule (2, 3, 5, 8 s apart: at 2, 5, 10
   * and 18 s): counted from once every backend has published what their creation did
   * (`IDLE_BACKENDS_PUBLISHED_MS`, 11 s after it) for 10 s, which holds each payment's poll at 18 s;
   * then ended by hand, out of the way of the next round (which waits for nothing pending).
   */
  async function measureWaiting(apiUrl: string, apiPid: number, poolPids: readonly number[]): Promise<Waiting> {
    const seconds = 10;
    await createNeverSettling(apiUrl);
    const transactionsBefore = await committedTransactions(database.url, { settledMs: IDLE_BACKENDS_PUBLISHED_MS });
    const inquiries = async () =>
      Number((await client.query("SELECT coalesce(sum(inquiry_count), 0) AS n FROM payments")).rows[0].n);
    const inquiriesBefore = await inquiries();
    const poolCpuBefore = await sumCpu(poolPids);
    const statementsBefore = await statementCounts(database.url);
    const cpuSince = await startCpuSample(apiPid, database.url);
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    const cpu = await cpuSince();
    const poolCpuSeconds = (await sumCpu(poolPids)) - poolCpuBefore;
    const transactions = (await committedTransactions(database.url)) - transactionsBefore;
    const statements = statementsBetween(statementsBefore, await statementCounts(database.url));
    const polls = (await inquiries()) - inquiriesBefore;
    return { seconds, transactions, statements, cpu, pending: waitingPayments, polls, poolCpuSeconds };
  }

  /**
   * The waiting payments' windows closed at once (their `expires_at` moved to now), then the
   * code-expiry pool's passes until none is pending, out of the way of the next round: each expired
   * after its last inquiry (the sandbox answers pending). The time includes the wait for the pool's
   * next pass (at most a second); the costs are per expiry.
   */
  async function measureExpiry(apiPid: number, poolPids: readonly number[]): Promise<PoolsWork> {
    const waitingLeft = async () =>
      Number(
        (
          await client.query("SELECT count(*) AS n FROM payments WHERE status = 'pending' AND amount_cents = $1", [
            SANDBOX_MAGIC_AMOUNTS.neverSettles,
          ])
        ).rows[0].n,
      );
    return measurePoolsWork(apiPid, poolPids, await waitingLeft(), async () => {
      await client.query("UPDATE payments SET expires_at = now() WHERE status = 'pending' AND amount_cents = $1", [
        SANDBOX_MAGIC_AMOUNTS.neverSettles,
      ]);
      const deadline = Date.now() + settleTimeoutMs;
      while ((await waitingLeft()) > 0) {
        if (Date.now() > deadline) {
          throw new Error(`payments still pending ${settleTimeoutMs / 1000} s after their window closed`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    });
  }

  /** `waitingPayments` payments the sandbox never reports paid, created at full speed. */
  async function createNeverSettling(apiUrl: string): Promise<void> {
    await load({
      url: `${apiUrl}/v1/payments`,
      connections,
      durationSeconds: 60,
      amount: waitingPayments,
      method: "POST",
      headersFor,
      bodyFor: () => JSON.stringify({ amount_cents: SANDBOX_MAGIC_AMOUNTS.neverSettles }),
    });
  }

  /** POSTs a body to the API as each merchant in turn (in key order); returns the ids created. */
  async function postAsEachMerchant(apiUrl: string, path: string, bodyFor: (index: number) => unknown) {
    const ids: string[] = [];
    for (const [index, key] of keys.entries()) {
      const response = await fetch(`${apiUrl}${path}`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${key}`,
          "content-type": "application/json",
          "idempotency-key": randomUUID(),
        },
        body: JSON.stringify(bodyFor(index)),
      });
      if (!response.ok) throw new Error(`POST ${path} refused: ${response.status} ${await response.text()}`);
      ids.push(((await response.json()) as { id: string }).id);
    }
    return ids;
  }

  let productIds: string[] | undefined;
  /** One tracked product per merchant (in key order), created once; stock enough for any run. */
  async function createProducts(apiUrl: string): Promise<string[]> {
    productIds ??= await postAsEachMerchant(apiUrl, "/v1/products", (index) => ({
      name: `Bench loaf ${index}`,
      price_cents: 120,
      track_stock: true,
      stock_qty: 100_000_000,
    }));
    return productIds;
  }

  let endpointsRegistered = false;
  /** One endpoint per merchant, for payment.paid, at the receiver (test world: http to loopback allowed). */
  async function registerEndpoints(apiUrl: string): Promise<void> {
    if (endpointsRegistered) return;
    await postAsEachMerchant(apiUrl, "/v1/webhook_endpoints", () => ({
      url: receiverUrl,
      event_types: ["payment.paid"],
    }));
    endpointsRegistered = true;
  }

  /** Until every payout is confirmed (or failed): none requested or submitted. */
  async function waitUntilPayoutsFinished(): Promise<void> {
    const unfinished = async () =>
      Number(
        (await client.query("SELECT count(*) AS n FROM payouts WHERE status IN ('requested', 'submitted')")).rows[0].n,
      );
    const deadline = Date.now() + settleTimeoutMs;
    while ((await unfinished()) > 0) {
      if (Date.now() > deadline) throw new Error(`payouts still unfinished after ${settleTimeoutMs / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Until no payment is pending and every payment.paid event has reached the receiver. */
  async function waitUntilSettled(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const paidEvents = async () =>
      Number((await client.query("SELECT count(*) AS n FROM events WHERE type = 'payment.paid'")).rows[0].n);
    while ((await pendingCount()) > 0 || (await paidEvents()) > (await arrivalCount())) {
      if (Date.now() > deadline) {
        throw new Error(`payments still pending or undelivered after ${timeoutMs / 1000} s`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /**
   * Settlement (the event's transaction) to arrival, and to the first attempt's start, for the
   * payment.paid events settled since `since` (and before `until`, when given).
   */
  async function webhookLatenciesMs(since: Date, until?: Date): Promise<WebhookLatencies> {
    const { rows } = await client.query<{
      id: string;
      created_ms: string;
      first_attempt_ms: string | null;
      first_attempt_duration_ms: number | null;
    }>(
      `SELECT e.id, extract(epoch FROM e.created_at) * 1000 AS created_ms,
         extract(epoch FROM min(a.started_at)) * 1000 AS first_attempt_ms,
         (array_agg(a.duration_ms ORDER BY a.attempt))[1] AS first_attempt_duration_ms
       FROM events e
       LEFT JOIN webhook_deliveries d ON d.merchant_id = e.merchant_id AND d.event_id = e.id
       LEFT JOIN webhook_delivery_attempts a ON a.merchant_id = d.merchant_id AND a.delivery_id = d.id
       WHERE e.type = 'payment.paid' AND e.created_at >= $1 AND ($2::timestamptz IS NULL OR e.created_at < $2)
       GROUP BY e.id, e.created_at`,
      [since, until ?? null],
    );
    const arrivedAtMs = await arrivals();
    return {
      toReceipt: rows.flatMap((row) => {
        const arrived = arrivedAtMs.get(row.id);
        return arrived === undefined ? [] : [arrived - Number(row.created_ms)];
      }),
      toFirstAttempt: rows.flatMap((row) =>
        row.first_attempt_ms === null ? [] : [Number(row.first_attempt_ms) - Number(row.created_ms)],
      ),
      firstAttemptDuration: rows.flatMap((row) =>
        row.first_attempt_duration_ms === null ? [] : [Number(row.first_attempt_duration_ms)],
      ),
    };
  }

  await buildHistory();
  const results: Round[] = [];
  for (let round = 0; round < rounds; round += 1) {
    if (round % 2 === 0) {
      const baseline = await measureBaseline();
      results.push({ baseline, ...(await measurePlatform()) });
    } else {
      const platform = await measurePlatform();
      results.push({ baseline: await measureBaseline(), ...platform });
    }
  }
  const { rows: doubled } = await client.query<{ n: string }>(
    "SELECT count(*) AS n FROM (SELECT source_id FROM ledger_transactions WHERE source_type = 'payment' GROUP BY source_id HAVING count(*) > 1) d",
  );
  const { rows: unpaid } = await client.query<{ n: string }>(
    "SELECT count(*) AS n FROM payments WHERE status <> 'paid' AND amount_cents <> $1",
    [SANDBOX_MAGIC_AMOUNTS.neverSettles],
  );
  await client.end();

  /** CPU seconds per 1,000 operations, the database's unless `of` says the server's. */
  const perThousandCpu = (
    cpu: CpuSample,
    operations: number,
    of: "databaseSeconds" | "serverSeconds" = "databaseSeconds",
  ) => (cpu === null || operations === 0 ? "n/a" : ((1000 * cpu[of]) / operations).toFixed(2));
  const perOperation = (count: number | null, operations: number) =>
    count === null ? "n/a" : (count / Math.max(1, operations)).toFixed(2);
  const busiestLines = (statements: readonly BusyStatement[], operations: number, unit: string) =>
    statements.map(
      (statement) =>
        `    ${perOperation(statement.calls, operations).padStart(6)} per ${unit} ${(statement.execMs / Math.max(1, operations)).toFixed(3).padStart(6)} ms + plan ${(statement.planMs / Math.max(1, operations)).toFixed(3).padStart(6)} ms  ${statement.query.replace(/\s+/g, " ").slice(0, 100)}`,
    );
  const line = (name: string, result: Measured) =>
    `  ${name.padEnd(30)} ${result.requestsPerSecond.toFixed(0).padStart(6)} req/s   p50 ${String(result.p50Ms).padStart(3)} ms   p99 ${String(result.p99Ms).padStart(4)} ms   non-2xx ${result.non2xx}   PostgreSQL CPU ${perThousandCpu(result.cpu, result.total)} s/1000   server CPU ${perThousandCpu(result.cpu, result.total, "serverSeconds")} s/1000   ${perOperation(result.transactions, result.total)} xact/op   ${perOperation(result.statements, result.total)} stmt/op`;
  const settlingLines = (name: string, settled: Settled) => [
    `  ${name}: ${settled.payments} payments settled and their payment.paid delivered in ${settled.seconds.toFixed(1)} s (${(settled.payments / settled.seconds).toFixed(0)}/s, target ≥ 1500/s); PostgreSQL CPU ${perThousandCpu(settled.cpu, settled.payments)} s/1000, ${perOperation(settled.transactions, settled.payments)} xact/payment, ${perOperation(settled.statements, settled.payments)} stmt/payment, pools' CPU ${((1000 * settled.poolCpuSeconds) / Math.max(1, settled.payments)).toFixed(2)} s/1000`,
    `  webhook payment.paid, settlement → receipt: p50 ${settled.webhookP50Ms.toFixed(0)} ms, p99 ${settled.webhookP99Ms.toFixed(0)} ms (target p99 ≤ 20 ms); settlement → first attempt: p50 ${settled.toFirstAttemptP50Ms.toFixed(0)} ms, p99 ${settled.toFirstAttemptP99Ms.toFixed(0)} ms; the attempt itself: p50 ${settled.firstAttemptDurationP50Ms.toFixed(0)} ms, p99 ${settled.firstAttemptDurationP99Ms.toFixed(0)} ms`,
    ...busiestLines(settled.busiest, settled.payments, "settlement"),
  ];
  const duringCreationLine = ({ toReceipt, toFirstAttempt, firstAttemptDuration }: WebhookLatencies) =>
    toReceipt.length === 0
      ? "  webhook payment.paid while the creation load ran: none settled during it"
      : `  webhook payment.paid while the creation load ran (${toReceipt.length} settled during it), settlement → receipt: p50 ${percentile(toReceipt, 0.5).toFixed(0)} ms, p99 ${percentile(toReceipt, 0.99).toFixed(0)} ms (target p99 ≤ 20 ms); settlement → first attempt: p50 ${percentile(toFirstAttempt, 0.5).toFixed(0)} ms, p99 ${percentile(toFirstAttempt, 0.99).toFixed(0)} ms; the attempt itself: p50 ${percentile(firstAttemptDuration, 0.5).toFixed(0)} ms, p99 ${percentile(firstAttemptDuration, 0.99).toFixed(0)} ms`;
  const halfRateLine = ({ ratePerSecond, created, latencies }: HalfRate) =>
    `  at half that rate (${ratePerSecond} payments/s paced, ${created.total} made: p50 ${created.p50Ms} ms, p99 ${created.p99Ms} ms, non-2xx ${created.non2xx}), webhook payment.paid settlement → receipt: p50 ${percentile(latencies.toReceipt, 0.5).toFixed(0)} ms, p99 ${percentile(latencies.toReceipt, 0.99).toFixed(0)} ms; settlement → first attempt: p50 ${percentile(latencies.toFirstAttempt, 0.5).toFixed(0)} ms, p99 ${percentile(latencies.toFirstAttempt, 0.99).toFixed(0)} ms; the attempt itself: p50 ${percentile(latencies.firstAttemptDuration, 0.5).toFixed(0)} ms, p99 ${percentile(latencies.firstAttemptDuration, 0.99).toFixed(0)} ms`;
  const [load1, load5] = os.loadavg();
  process.stdout.write(
    [
      "",
      `bench:deploy${short ? " --short" : ""}${pooler === null ? "" : " --pooler"} — API + ${poolNames.length} pools as separate processes, ${merchantCount} merchants, ${connections} connections, ${seconds} s per measurement, sandbox settles ${values["auto-settle"]} s after issue; ${os.cpus().length} cores, load average ${load1?.toFixed(2)} / ${load5?.toFixed(2)} (1 / 5 min) at the end`,
      ...(pooler === null ? [] : [await pooler.describe()]),
      ...results.flatMap((round, index) => {
        const { baseline, platform, settled, idle, waiting, expired } = round;
        const lifecycleCpu =
          platform.cpu === null || settled.cpu === null
            ? null
            : { serverSeconds: 0, databaseSeconds: platform.cpu.databaseSeconds + settled.cpu.databaseSeconds };
        return [
          `round ${index + 1}:`,
          line("ceiling: bare INSERT", baseline),
          line("POST /v1/payments, pools on", platform),
          `  ratio ${(platform.requestsPerSecond / baseline.requestsPerSecond).toFixed(2)} of the ceiling (target ≥ 0.50); API peak RSS ${round.apiPeakRssMb.toFixed(0)} MB`,
          `  pools' peak RSS: ${poolNames.map((pool, position) => `${pool} ${round.poolPeakRssMb[position]?.toFixed(0)} MB`).join(", ")}`,
          ...busiestLines(platform.busiest, platform.total, "payment"),
          ...settlingLines("settling by polling", settled),
          duringCreationLine(round.settledDuringCreation),
          halfRateLine(round.halfRate),
          `  lifecycle (created → polled → paid → delivered): PostgreSQL CPU ${perThousandCpu(lifecycleCpu, platform.total)} s/1000 payments = ${lifecycleCpu === null || baseline.cpu === null ? "n/a" : ((lifecycleCpu.databaseSeconds / platform.total / (baseline.cpu.databaseSeconds / baseline.total)) as number).toFixed(1)} × a bare INSERT's`,
          `  ${"POST …/mockpay (the callback)".padEnd(30)} ${round.callbacks.callback.requestsPerSecond.toFixed(0).padStart(6)} req/s   p50 ${String(round.callbacks.callback.p50Ms).padStart(3)} ms   p99 ${String(round.callbacks.callback.p99Ms).padStart(4)} ms   non-2xx ${round.callbacks.callback.non2xx}`,
          ...settlingLines("settling by callback", round.callbacks),
          `  gateway inquiries made for them before their callback: ${perOperation(round.callbacks.polls, round.callbacks.payments)} per payment`,
          line("POST /v1/sales (cash), pools on", round.cashSales),
          `  ratio ${(round.cashSales.requestsPerSecond / baseline.requestsPerSecond).toFixed(2)} of the ceiling (target ≥ 0.50)`,
          ...busiestLines(round.cashSales.busiest, round.cashSales.total, "sale"),
          line("POST /v1/sales (wallet)", round.walletSales),
          `  ratio ${(round.walletSales.requestsPerSecond / baseline.requestsPerSecond).toFixed(2)} of the ceiling`,
          ...busiestLines(round.walletSales.busiest, round.walletSales.total, "sale"),
          ...settlingLines("wallet sales settling by polling", round.walletSalesSettled).slice(0, 2),
          line("POST /v1/payouts", round.payouts.requests),
          `  ratio ${(round.payouts.requests.requestsPerSecond / baseline.requestsPerSecond).toFixed(2)} of the ceiling; every one confirmed ${round.payouts.confirmSeconds.toFixed(1)} s after the load, ${perOperation(round.payouts.confirmTransactions, round.payouts.requests.total)} xact/payout and ${perOperation(round.payouts.confirmStatements, round.payouts.requests.total)} stmt/payout meanwhile, pools' CPU ${((1000 * round.payouts.poolCpuSeconds) / Math.max(1, round.payouts.requests.total)).toFixed(2)} s/1000`,
          "  during the load (requests, and the processor's passes meanwhile):",
          ...busiestLines(round.payouts.requests.busiest, round.payouts.requests.total, "payout"),
          "  after the load, until every payout is confirmed:",
          ...busiestLines(round.payouts.confirmBusiest, round.payouts.requests.total, "payout"),
          `  idle pools: ${(idle.transactions / idle.seconds).toFixed(1)} xact/s, ${perOperation(idle.statements, idle.seconds)} stmt/s, PostgreSQL CPU ${idle.cpu === null ? "n/a" : (idle.cpu.databaseSeconds / idle.seconds).toFixed(3)} s/s`,
          `  ${waiting.pending} payments waiting (never paid): ${(waiting.polls / waiting.seconds).toFixed(0)} polls/s cost ${(waiting.transactions / waiting.seconds).toFixed(1)} xact/s, ${perOperation(waiting.statements, waiting.seconds)} stmt/s, PostgreSQL CPU ${waiting.cpu === null ? "n/a" : (waiting.cpu.databaseSeconds / waiting.seconds).toFixed(3)} s/s, pools' CPU ${(waiting.poolCpuSeconds / waiting.seconds).toFixed(3)} s/s`,
          `  their windows closed: ${expired.payments} expired in ${expired.seconds.toFixed(1)} s (${(expired.payments / expired.seconds).toFixed(0)}/s, the pool's next pass included); PostgreSQL CPU ${perThousandCpu(expired.cpu, expired.payments)} s/1000, ${perOperation(expired.transactions, expired.payments)} xact/expiry, ${perOperation(expired.statements, expired.payments)} stmt/expiry, pools' CPU ${((1000 * expired.poolCpuSeconds) / Math.max(1, expired.payments)).toFixed(2)} s/1000`,
          ...busiestLines(expired.busiest.slice(0, 6), expired.payments, "expiry"),
        ];
      }),
      `every payment paid: ${unpaid[0]?.n === "0" ? "yes" : `NO (${unpaid[0]?.n} not paid)`}; settled twice: ${doubled[0]?.n}`,
      "",
    ].join("\n"),
  );
} finally {
  await stopServer(receiver);
  await pooler?.stop();
  await database.dispose();
}
