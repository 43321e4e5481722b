import { type ChildProcess, execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promisify } from "node:util";
import autocannon from "autocannon";
import pg from "pg";
import { freePort, postgresServer } from "../src/platform/db/embedded.ts";
import { migrate } from "../src/platform/db/migrate.ts";
import { createLogger } from "../src/platform/telemetry/logger.ts";

/** The task identifier of the no-op jobs that worker benchmarks compare against. */
export const NOOP_TASK = "bench_noop";

/** Shared pieces of the benchmarks: a throwaway migrated database, servers in child processes, load. */

export type BenchDatabase = { url: string; dispose: () => Promise<void> };

/** A fresh migrated database on DATABASE_URL's server, or on an embedded server when it is unset. */
export async function createBenchDatabase(databaseUrl: string | undefined): Promise<BenchDatabase> {
  // Statements per operation, where the server allows (an embedded one does; DATABASE_URL's may not).
  const { serverUrl, stop: stopPostgres } = await postgresServer(databaseUrl, {
    preloadLibraries: ["pg_stat_statements"],
  });
  const name = `pos_bench_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  // Planning time too (pg_stat_statements' total_plan_time), where the server has the module loaded:
  // a statement prepared once may still be planned at every execution.
  await admin.query(`ALTER DATABASE "${name}" SET pg_stat_statements.track_planning = on`).catch(() => {});
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  await migrate({ databaseUrl: url.toString(), logger: createLogger({ level: "warn", service: "bench" }) });
  return {
    url: url.toString(),
    dispose: async () => {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
      await stopPostgres();
    },
  };
}

/** Starts `node <script>` with `env`; resolves with its port once it prints `listening <port>`. */
export async function startServer(
  script: string,
  env: Record<string, string>,
): Promise<{ port: number; child: ChildProcess }> {
  const child = spawn(process.execPath, [script], {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let output = "";
    child.stdout?.on("data", (chunk) => {
      output += String(chunk);
      const match = /listening (\d+)/.exec(output);
      if (match !== null) {
        resolve(Number(match[1]));
      }
    });
    child.once("exit", (code) => reject(new Error(`${script} exited with ${code}`)));
    setTimeout(() => reject(new Error(`${script} did not start`)), 30_000);
  });
  return { port, child };
}

/**
 * Builds the release as the Dockerfile does (`npm run build`: dist/), so that a benchmark runs the
 * compiled JavaScript the pods run. Under `node file.ts` Node strips the types with a WebAssembly
 * compiler that stays in the process: ~30 MB of resident memory a pod never has.
 */
export async function buildRelease(): Promise<void> {
  await promisify(execFile)("npm", ["run", "build", "--silent"], { maxBuffer: 16 * 1024 * 1024 });
}

/**
 * Starts a service of the built release (`dist/services/<name>/main.js`, the container's command)
 * with `env`, its HTTP port in `portVariable`; resolves once its /readyz answers 200.
 */
export async function startBuiltService(
  name: string,
  env: Record<string, string>,
  portVariable: "PORT" | "WORKER_HTTP_PORT",
  nodeArgs: readonly string[] = [],
): Promise<{ port: number; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, `dist/services/${name}/main.js`], {
    env: { PATH: process.env.PATH ?? "", ...env, [portVariable]: String(port) },
    stdio: ["ignore", "ignore", "inherit"],
  });
  let exitCode: number | null | undefined;
  child.once("exit", (code) => {
    exitCode = code;
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (exitCode !== undefined) throw new Error(`${name} exited with ${exitCode}`);
    const status = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return { port, child };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill("SIGKILL");
  throw new Error(`${name} was not ready within 60 s`);
}

export async function stopServer(server: { child: ChildProcess }): Promise<void> {
  const exited = new Promise((resolve) => server.child.once("exit", resolve));
  server.child.kill("SIGTERM");
  await exited;
}

export type LoadResult = { requestsPerSecond: number; p50Ms: number; p99Ms: number; total: number; non2xx: number };

/** autocannon on loopback; each request may set its own headers (for example another merchant's key). */
export async function load(options: {
  url: string;
  connections: number;
  /** Run for this long, or until `amount` requests when given. */
  durationSeconds: number;
  amount?: number;
  /** Paced at this many requests per second overall; as fast as the connections go when absent. */
  ratePerSecond?: number;
  headersFor?: (requestNumber: number) => Record<string, string>;
  method?: "GET" | "POST";
  bodyFor?: (requestNumber: number) => string;
  /** Each request's own path (and query), in place of the url's. */
  pathFor?: (requestNumber: number) => string;
}): Promise<LoadResult> {
  let counter = 0;
  const startedAt = performance.now();
  return new Promise((resolve, reject) => {
    let answered = false;
    const instance = autocannon(
      {
        url: options.url,
        connections: options.connections,
        duration: options.durationSeconds,
        ...(options.amount === undefined ? {} : { amount: options.amount }),
        ...(options.ratePerSecond === undefined ? {} : { overallRate: options.ratePerSecond }),
        requests: [
          {
            method: options.method ?? "GET",
            setupRequest: (request) => {
              counter += 1;
              return {
                ...request,
                headers: { ...request.headers, ...(options.headersFor?.(counter) ?? {}) },
                ...(options.bodyFor === undefined ? {} : { body: options.bodyFor(counter) }),
                ...(options.pathFor === undefined ? {} : { path: options.pathFor(counter) }),
              };
            },
          },
        ],
      },
      (error, result) => {
        if (answered) return;
        answered = true;
        if (error !== null && error !== undefined) {
          reject(error);
          return;
        }
        resolve({
          requestsPerSecond: result.requests.average,
          p50Ms: result.latency.p50,
          p99Ms: result.latency.p99,
          total: result.requests.total,
          non2xx: result.non2xx + result.errors + result.timeouts,
        });
      },
    );
    const { amount } = options;
    if (amount === undefined) return;
    // autocannon ends a run of `amount` requests only at its next one-second tick, up to a second after
    // the last answer (1,000 answers in 0.2 s took 1.04 s): timed by that, a short run reads up to a
    // second long and its rate too low. So the run is timed to its last answer, measured here; the
    // requests answered with an error (no response) leave it to autocannon's own end and figures.
    const latenciesMs: number[] = [];
    let non2xx = 0;
    instance.on("response", (_client, statusCode, _bytes, responseTimeMs) => {
      latenciesMs.push(responseTimeMs);
      if (statusCode < 200 || statusCode >= 300) non2xx += 1;
      if (latenciesMs.length < amount || answered) return;
      answered = true;
      instance.stop();
      resolve({
        requestsPerSecond: amount / ((performance.now() - startedAt) / 1000),
        p50Ms: Math.round(percentile(latenciesMs, 0.5)),
        p99Ms: Math.round(percentile(latenciesMs, 0.99)),
        total: amount,
        non2xx,
      });
    });
  });
}

/**
 * Each statement's text, how many times the database's backends have run it and for how long in all
 * (pg_stat_statements; a trigger's statements count too, their time also inside their caller's).
 */
export type StatementCounts = Map<string, { query: string; calls: number; execMs: number; planMs: number }>;

/** The statements run so far, by pg_stat_statements' queryid, or null when the server has not loaded it. */
export async function statementCounts(url: string): Promise<StatementCounts | null> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
    const { rows } = await client.query<{
      queryid: string;
      query: string;
      calls: string;
      exec_ms: string;
      plan_ms: string;
    }>(
      `SELECT queryid::text, min(query) AS query, sum(calls) AS calls, sum(total_exec_time) AS exec_ms,
        sum(total_plan_time) AS plan_ms
      FROM pg_stat_statements
      WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) GROUP BY queryid`,
    );
    return new Map(
      rows.map((row) => [
        row.queryid,
        { query: row.query, calls: Number(row.calls), execMs: Number(row.exec_ms), planMs: Number(row.plan_ms) },
      ]),
    );
  } catch {
    // Not loaded at the server's start (shared_preload_libraries), or not installable here.
    return null;
  } finally {
    await client.end();
  }
}

/** How many statements ran between two counts, or null when they were not counted. */
export function statementsBetween(before: StatementCounts | null, after: StatementCounts | null): number | null {
  if (before === null || after === null) return null;
  let total = 0;
  for (const [id, { calls }] of after) total += calls - (before.get(id)?.calls ?? 0);
  return total;
}

/**
 * The statements that took the database's time between two counts, longest first, with how often
 * they ran: where an operation's database time and round trips go.
 */
export function busiestStatements(
  before: StatementCounts | null,
  after: StatementCounts | null,
  limit: number,
): BusyStatement[] {
  if (before === null || after === null) return [];
  return [...after]
    .map(([id, { query, calls, execMs, planMs }]) => ({
      query,
      calls: calls - (before.get(id)?.calls ?? 0),
      execMs: execMs - (before.get(id)?.execMs ?? 0),
      planMs: planMs - (before.get(id)?.planMs ?? 0),
    }))
    .filter((statement) => statement.calls > 0)
    .sort((a, b) => b.execMs + b.planMs - (a.execMs + a.planMs))
    .slice(0, limit);
}

export type BusyStatement = { query: string; calls: number; execMs: number; planMs: number };

/**
 * How long a backend may keep its transaction counts to itself: a busy one publishes them about once
 * a second, one that went idle within 10 s (PostgreSQL's PGSTAT_IDLE_INTERVAL), so a quiet phase's
 * count waits this long on both sides or it takes in the busy phase before it.
 */
export const IDLE_BACKENDS_PUBLISHED_MS = 11_000;

/** Transactions committed in a database so far: each autocommit statement is one round trip's work. */
export async function committedTransactions(url: string, options: { settledMs?: number } = {}): Promise<number> {
  // Busy backends publish their counts at most about once a second: wait that long when they just ran.
  await new Promise((resolve) => setTimeout(resolve, options.settledMs ?? 0));
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // Statistics are flushed lazily; ask for a fresh snapshot.
    await client.query("SELECT pg_stat_clear_snapshot()");
    const { rows } = await client.query<{ commits: string }>(
      "SELECT xact_commit AS commits FROM pg_stat_database WHERE datname = current_database()",
    );
    return Number(rows[0]?.commits ?? 0);
  } finally {
    await client.end();
  }
}

/**
 * Active merchants with one key each (test keys unless `livemode`), written directly: the service would hash a dashboard
 * password per merchant (scrypt), which is not what the benchmarks measure.
 */
export async function seedMerchants(
  client: pg.Client,
  keys: readonly string[],
  options: { livemode?: boolean } = {},
): Promise<void> {
  await client.query(
    `INSERT INTO merchants (id, name, type, status, fee_bps, fee_fixed_cents)
     SELECT 'mch_bench_' || n, 'Bench ' || n, 'business', 'active', 150, 0 FROM generate_series(1, $1::int) AS n`,
    [keys.length],
  );
  await client.query(
    `INSERT INTO api_keys (merchant_id, id, livemode, secret_hash, secret_last4)
     SELECT 'mch_bench_' || ordinality, 'key_bench_' || ordinality, $2::boolean, sha256(convert_to(key, 'UTF8')), right(key, 4)
     FROM unnest($1::text[]) WITH ORDINALITY AS k(key)`,
    [keys, options.livemode ?? false],
  );
}

export type ComparedPair<T> = { baseline: T; server: T; ratio: number };

/**
 * A server's throughput against its baseline, in `rounds` alternated pairs (baseline then server,
 * then server then baseline, …), and the pair of median ratio. On this shared 2-core VM, throughput
 * drifts by ±15 % between consecutive runs (the hypervisor's steal time comes and goes), so a single
 * pair of runs decides a ratio near its target by chance; alternating cancels the drift's order and
 * the median drops the outlying pair.
 */
export async function compareInPairs<T extends { requestsPerSecond: number }>(
  rounds: number,
  measure: (script: string) => Promise<T>,
  scripts: { baseline: string; server: string },
): Promise<{ pairs: ComparedPair<T>[]; median: ComparedPair<T> }> {
  const pairs: ComparedPair<T>[] = [];
  for (let round = 0; round < rounds; round += 1) {
    let baseline: T;
    let server: T;
    if (round % 2 === 0) {
      baseline = await measure(scripts.baseline);
      server = await measure(scripts.server);
    } else {
      server = await measure(scripts.server);
      baseline = await measure(scripts.baseline);
    }
    pairs.push({ baseline, server, ratio: server.requestsPerSecond / baseline.requestsPerSecond });
  }
  const byRatio = [...pairs].sort((left, right) => left.ratio - right.ratio);
  const median = byRatio[Math.floor((byRatio.length - 1) / 2)];
  if (median === undefined) {
    throw new RangeError("compareInPairs needs at least one round");
  }
  return { pairs, median };
}

/** Each pair's requests per second, server over baseline, and their ratio. */
export function describePairs(pairs: readonly ComparedPair<{ requestsPerSecond: number }>[]): string {
  const each = pairs.map(
    (pair) =>
      `${pair.server.requestsPerSecond.toFixed(0)}/${pair.baseline.requestsPerSecond.toFixed(0)} = ${pair.ratio.toFixed(2)}`,
  );
  return `ratios of ${pairs.length} alternated pairs: ${each.join(", ")}; the median pair:`;
}

/** The sample below which `fraction` of the samples lie (nearest rank); NaN without samples. */
export function percentile(samples: readonly number[], fraction: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] as number;
}
