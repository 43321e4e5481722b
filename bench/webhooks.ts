import http from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import pg from "pg";
import { z } from "zod";
import * as events from "../src/modules/events/service.ts";
import * as webhooks from "../src/modules/webhooks/service.ts";
import { loadConfig } from "../src/platform/config.ts";
import { createConfiguredDatabase, sql } from "../src/platform/db/pool.ts";
import { createLogger } from "../src/platform/telemetry/logger.ts";
import {
  committedTransactions,
  createBenchDatabase,
  NOOP_TASK,
  percentile,
  startServer,
  stopServer,
} from "./support.ts";

/**
 * npm run bench:webhooks
 *
 * 1. Latency: events emitted one at a time at a steady rate; from each event's commit to the
 *    receiver's 2xx on loopback (p50, p99; targets ≤ 100 ms and ≤ 500 ms).
 * 2. Throughput: a backlog of events, each with one delivery, drained by one worker process; as a
 *    ratio to the same worker process draining as many no-op jobs (target ≥ 0.5). Both backlogs
 *    are committed at once and timed from commit to the last job done.
 */
const { values } = parseArgs({
  options: {
    events: { type: "string", default: "5000" },
    "warmup-events": { type: "string", default: "2000" },
    "latency-events": { type: "string", default: "300" },
    "latency-rate": { type: "string", default: "50" },
    concurrency: { type: "string", default: "20" },
  },
});
const backlog = Number(values.events);
const warmup = Number(values["warmup-events"]);
const latencyEvents = Number(values["latency-events"]);
const latencyRatePerSecond = Number(values["latency-rate"]);
const concurrency = values.concurrency ?? "20";

const WEBHOOK_KEY = Buffer.alloc(32, 3).toString("base64");
const bench = await createBenchDatabase(loadConfig().databaseUrl);
const logger = createLogger({ level: "warn", service: "bench" });
const config = loadConfig({
  DATABASE_URL: bench.url,
  LOG_LEVEL: "warn",
  WEBHOOK_SECRET_ENCRYPTION_KEY: WEBHOOK_KEY,
});
const database = await createConfiguredDatabase(config, { url: bench.url, logger, applicationName: "bench" });

// The receiver: answers 200 at once and notes when each event arrived.
const arrivals = new Map<string, number>();
const receiver = http.createServer((request, response) => {
  request.resume();
  request.on("end", () => {
    arrivals.set(String(request.headers["x-pos-event-id"]), performance.now());
    response.writeHead(200).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

const workerEnvironment = (task: "webhook" | "noop") => ({
  DATABASE_URL: bench.url,
  LOG_LEVEL: "warn",
  NODE_ENV: "production",
  BENCH_TASK: task,
  WEBHOOK_SECRET_ENCRYPTION_KEY: WEBHOOK_KEY,
  WORKER_CONCURRENCY: concurrency,
  // As deployed (helm: concurrency + 1): a connection for each job at once, and one for the runner.
  DATABASE_POOL_SIZE: String(Number(concurrency) + 1),
});

async function waitUntil(condition: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) {
      throw new Error("timed out");
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

try {
  const merchantId = "mch_bench_webhooks";
  await database.query(sql.unsafe`
    INSERT INTO merchants (id, name, type, status, fee_bps, fee_fixed_cents)
    VALUES (${merchantId}, 'Bench', 'business', 'active', 0, 0)`);
  await webhooks.createEndpoint(
    database,
    config,
    { merchantId, livemode: false },
    { url: receiverUrl, event_types: ["*"] },
    { actor: { kind: "api_key", id: "bench" }, client: { address: undefined, userAgent: undefined } },
  );
  const world = { merchantId, livemode: false };

  // 1. Latency, with the worker idle between events.
  const worker = await startServer("bench/servers/worker.ts", workerEnvironment("webhook"));
  const latenciesMs: number[] = [];
  try {
    for (let index = 0; index < latencyEvents; index += 1) {
      const event = await database.transaction((transaction) =>
        events.emit(transaction, { ...world, type: "payment.paid", data: { index } }),
      );
      const committedAt = performance.now();
      await waitUntil(() => arrivals.has(event.id), 10_000);
      latenciesMs.push((arrivals.get(event.id) ?? Number.NaN) - committedAt);
      await new Promise((resolve) => setTimeout(resolve, 1000 / latencyRatePerSecond));
    }

    // 2a. Throughput of deliveries: a backlog committed at once, after a warm-up backlog (untimed), so
    // that both sides are measured as a busy pool runs: compiled code, and tables holding the dead
    // rows of earlier work (which once made the planner pick a scan of every pending delivery).
    const drainDeliveries = async (count: number) => {
      arrivals.clear();
      await database.transaction(async (transaction) => {
        for (let index = 0; index < count; index += 1) {
          await events.emit(transaction, { ...world, type: "payment.paid", data: { index } });
        }
      });
      const committed = performance.now();
      const commitsBefore = await committedTransactions(bench.url);
      await waitUntil(() => arrivals.size >= count, 300_000);
      const pending = async () =>
        (await database.oneFirst(sql.type(z.object({ count: z.number() }))`
          SELECT count(*)::int AS count FROM webhook_deliveries WHERE status = 'pending'`)) === 0;
      await waitUntil(pending, 60_000);
      const perSecond = count / ((performance.now() - committed) / 1000);
      const commitsPerDelivery =
        ((await committedTransactions(bench.url, { settledMs: 1100 })) - commitsBefore) / count;
      return { perSecond, commitsPerDelivery };
    };
    if (warmup > 0) {
      await drainDeliveries(warmup);
    }
    const { perSecond: deliveriesPerSecond, commitsPerDelivery } = await drainDeliveries(backlog);
    await stopServer(worker);

    // 2b. The same worker process draining no-op jobs, with the same warm-up.
    const noopWorker = await startServer("bench/servers/worker.ts", workerEnvironment("noop"));
    try {
      const client = new pg.Client({ connectionString: bench.url });
      await client.connect();
      const drainNoops = async (count: number) => {
        await client.query(
          `SELECT graphile_worker.add_jobs(array_agg(ROW($1::text, '{}'::json, NULL, NULL, 5, NULL, NULL, NULL)::graphile_worker.job_spec))
           FROM generate_series(1, $2::int)`,
          [NOOP_TASK, count],
        );
        const committed = performance.now();
        const commitsBefore = await committedTransactions(bench.url);
        await waitUntil(async () => {
          const { rows } = await client.query<{ count: number }>(
            "SELECT count(*)::int AS count FROM graphile_worker.jobs WHERE task_identifier = $1",
            [NOOP_TASK],
          );
          return rows[0]?.count === 0;
        }, 300_000);
        const perSecond = count / ((performance.now() - committed) / 1000);
        const commitsPerJob = ((await committedTransactions(bench.url, { settledMs: 1100 })) - commitsBefore) / count;
        return { perSecond, commitsPerJob };
      };
      if (warmup > 0) {
        await drainNoops(warmup);
      }
      const { perSecond: noopJobsPerSecond, commitsPerJob: commitsPerNoopJob } = await drainNoops(backlog);
      await client.end();

      const p50 = percentile(latenciesMs, 0.5);
      const p99 = percentile(latenciesMs, 0.99);
      const ratio = deliveriesPerSecond / noopJobsPerSecond;
      process.stdout.write(
        [
          "",
          `bench:webhooks — one worker process, concurrency ${concurrency} (the delivery pool's pump; the baseline graphile-worker's defaults), receiver on loopback`,
          `latency commit → receiver 2xx over ${latencyEvents} events at ${latencyRatePerSecond}/s: p50 ${p50.toFixed(1)} ms (target ≤ 100: ${p50 <= 100 ? "met" : "NOT met"}), p99 ${p99.toFixed(1)} ms (target ≤ 500: ${p99 <= 500 ? "met" : "NOT met"})`,
          `deliveries ${deliveriesPerSecond.toFixed(0)}/s vs no-op jobs ${noopJobsPerSecond.toFixed(0)}/s over ${backlog} each after ${warmup} to warm up: ratio ${ratio.toFixed(2)} (target ≥ 0.50: ${ratio >= 0.5 ? "met" : "NOT met"})`,
          `database transactions per delivery ${commitsPerDelivery.toFixed(2)}, per no-op job ${commitsPerNoopJob.toFixed(2)} (includes the polling of this benchmark)`,
          "",
        ].join("\n"),
      );
    } finally {
      await stopServer(noopWorker);
    }
  } finally {
    if (worker.child.exitCode === null) {
      await stopServer(worker);
    }
  }
} finally {
  receiver.close();
  await database.end();
  await bench.dispose();
}
