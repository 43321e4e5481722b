import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import pg from "pg";
import QRCode from "qrcode";
import { loadConfig } from "../src/platform/config.ts";
import { randomSecret } from "../src/platform/ids.ts";
import { qrPngDataUrl } from "../src/platform/qr/index.ts";
import { type CpuSample, cpuPerRequest, startCpuSample } from "./cpu-usage.ts";
import {
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
 * npm run bench:payments
 *
 * 1. POST /v1/payments (sandbox, many merchants so none reaches its rate limit) at full speed, against
 *    bare Express doing one INSERT, both measured in this run, in alternated pairs (target: the
 *    median pair's ratio ≥ 0.5). A server's throughput is the most it answers at any of the client
 *    concurrencies of `--connections`: a closed loop of 50 connections saturates the one-INSERT
 *    baseline (it runs out of CPU), but not the API, whose creation is two shared round trips
 *    (authentication, then the batched insert): at a given concurrency its rate is bounded by
 *    connections ÷ latency before any resource is exhausted, and more concurrency gives it bigger
 *    batches, as more traffic would. Each level's figures are printed.
 * 2. p99 of POST /v1/payments at half the rate it reached.
 * 3. Where the time goes: the QR PNG alone, on one core, in this process.
 * 4. Upstream inquiries per pending payment while clients poll GET /v1/payments/:id as fast as they can.
 */
const { values } = parseArgs({
  options: {
    merchants: { type: "string", default: "1000" },
    connections: { type: "string", default: "50,200" },
    seconds: { type: "string", default: "6" },
    rounds: { type: "string", default: "3" },
    "poll-payments": { type: "string", default: "20" },
  },
});
const merchantCount = Number(values.merchants);
const connectionLevels = values.connections.split(",").map(Number);
const connections = Math.max(...connectionLevels);
// Paced load is sent by the fewest connections that carry it: autocannon paces each connection on
// its own, and many connections at a low rate each arrive in bursts, which the p99 would measure.
const pacedConnections = Math.min(...connectionLevels);
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const pollPayments = Number(values["poll-payments"]);

const database = await createBenchDatabase(loadConfig().databaseUrl);
try {
  const keys = Array.from({ length: merchantCount }, () => `sk_test_${randomSecret()}`);
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  await seedMerchants(client, keys);
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
    // Nothing settles by itself during the run: every payment stays pending for the polling phase.
    SANDBOX_AUTO_SETTLE_SECONDS: "3600",
  };
  const headersFor = (requestNumber: number) => ({
    authorization: `Bearer ${keys[requestNumber % keys.length]}`,
    "idempotency-key": randomUUID(),
    "content-type": "application/json",
  });
  const body = () => JSON.stringify({ amount_cents: 1000 + Math.floor(Math.random() * 9000) });

  type Measured = LoadResult & { cpu: CpuSample; connections: number };
  const levelsMeasured: { script: string; results: Measured[] }[] = [];
  /** The server's best throughput over the concurrency levels, after a warm-up at the highest. */
  async function measureCreate(script: string): Promise<Measured> {
    const server = await startServer(script, environment);
    try {
      const url = `http://127.0.0.1:${server.port}/v1/payments`;
      await load({ url, connections, durationSeconds: 2, method: "POST", headersFor, bodyFor: body });
      const results: Measured[] = [];
      for (const level of connectionLevels) {
        const cpuSince = await startCpuSample(server.child.pid ?? 0, database.url);
        const result = await load({
          url,
          connections: level,
          durationSeconds: seconds,
          method: "POST",
          headersFor,
          bodyFor: body,
        });
        results.push({ ...result, cpu: await cpuSince(), connections: level });
      }
      levelsMeasured.push({ script, results });
      return results.reduce((best, result) => (result.requestsPerSecond > best.requestsPerSecond ? result : best));
    } finally {
      await stopServer(server);
    }
  }

  const compared = await compareInPairs(rounds, measureCreate, {
    baseline: "bench/servers/baseline.ts",
    server: "bench/servers/api.ts",
  });
  const { baseline, server: api, ratio } = compared.median;

  // p99 at half the rate reached, and the polling phase, on one API server.
  const server = await startServer("bench/servers/api.ts", { ...environment, RATE_LIMIT_REQUESTS: "10000" });
  let halfRate: LoadResult;
  let polling: { getsPerPayment: number; inquiriesPerPayment: number; pollSeconds: number };
  try {
    const url = `http://127.0.0.1:${server.port}/v1/payments`;
    const targetRate = Math.max(1, Math.floor(api.requestsPerSecond / 2));
    const pacedLoad = (durationSeconds: number) =>
      load({
        url,
        connections: pacedConnections,
        durationSeconds,
        ratePerSecond: targetRate,
        method: "POST",
        headersFor,
        bodyFor: body,
      });
    // A fresh server: warmed up at the same rate first, as the throughput runs are, so the p99 is the
    // steady state's, not the first second's (module loading, JIT, new pool connections).
    await pacedLoad(2);
    halfRate = await pacedLoad(seconds);

    // Aggressive polling: every connection GETs one of a few fresh pending payments back to back.
    const created: { id: string; key: string }[] = [];
    for (let index = 0; index < pollPayments; index += 1) {
      const key = keys[index % keys.length] ?? "";
      const response = await fetch(url, {
        method: "POST",
        headers: {
          authorization: `Bearer ${key}`,
          "idempotency-key": randomUUID(),
          "content-type": "application/json",
        },
        body: JSON.stringify({ amount_cents: 500 }),
      });
      created.push({ id: ((await response.json()) as { id: string }).id, key });
    }
    const pollSeconds = 5;
    let polls = 0;
    const result = await autocannon({
      url: `http://127.0.0.1:${server.port}/v1/payments/${created[0]?.id}`,
      connections,
      duration: pollSeconds,
      requests: [
        {
          method: "GET",
          setupRequest: (request) => {
            polls += 1;
            const target = created[polls % created.length];
            return {
              ...request,
              path: `/v1/payments/${target?.id}`,
              headers: { ...request.headers, authorization: `Bearer ${target?.key}` },
            };
          },
        },
      ],
    });
    const { rows } = await client.query<{ inquiries: number }>(
      "SELECT coalesce(sum(inquiry_count), 0)::int AS inquiries FROM payments WHERE id = ANY($1::text[])",
      [created.map((payment) => payment.id)],
    );
    polling = {
      getsPerPayment: result.requests.total / created.length,
      inquiriesPerPayment: (rows[0]?.inquiries ?? 0) / created.length,
      pollSeconds,
    };
  } finally {
    await stopServer(server);
  }
  await client.end();

  // Where the time goes: the QR of a deep link, alone, on this process's one thread: the module matrix,
  // the image the API draws from it, and the qrcode library's own PNG path for comparison.
  const cpuMsPerCode = async (draw: (text: string) => unknown) => {
    // Warmed up first: compiled, and our template for the prefix built (once per process).
    for (let index = 0; index < 200; index += 1) {
      await draw(`wallet://pay?code=${String(900_000_000 + index)}`);
    }
    const count = 1000;
    const started = performance.now();
    for (let index = 0; index < count; index += 1) {
      await draw(`wallet://pay?code=${String(100_000_000 + index)}`);
    }
    return (performance.now() - started) / count;
  };
  const qrMatrixMs = await cpuMsPerCode((text) => QRCode.create(text, { errorCorrectionLevel: "M" }));
  const qrMs = await cpuMsPerCode((text) => qrPngDataUrl(text));
  const qrLibraryMs = await cpuMsPerCode((text) =>
    QRCode.toDataURL(text, { errorCorrectionLevel: "M", margin: 1, scale: 4 }),
  );

  const levels = (results: readonly Measured[]) =>
    results
      .map((result) => `${result.requestsPerSecond.toFixed(0)} req/s (p99 ${result.p99Ms} ms) at ${result.connections}`)
      .join(", ");
  const isBaseline = (script: string) => script.endsWith("baseline.ts");
  const line = (name: string, result: LoadResult) =>
    `${name.padEnd(46)} ${result.requestsPerSecond.toFixed(0).padStart(6)} req/s   p50 ${String(result.p50Ms).padStart(4)} ms   p99 ${String(result.p99Ms).padStart(4)} ms   non-2xx ${result.non2xx}`;
  process.stdout.write(
    [
      "",
      `bench:payments — ${connectionLevels.join(" and ")} connections (a server's throughput: its best), ${seconds} s each, ${merchantCount} merchants, database pool 10`,
      "each run, in order:",
      ...levelsMeasured.map(
        (run) => `  ${isBaseline(run.script) ? "baseline" : "API     "} ${levels(run.results)} connections`,
      ),
      describePairs(compared.pairs),
      line(`baseline: Express + one INSERT (${baseline.connections} conn.)`, baseline),
      `  ${cpuPerRequest(baseline.cpu, baseline.total)}`,
      line(`POST /v1/payments (${api.connections} connections)`, api),
      `  ${cpuPerRequest(api.cpu, api.total)}`,
      `ratio ${ratio.toFixed(2)} (target ≥ 0.50: ${ratio >= 0.5 ? "met" : "NOT met"})`,
      line(
        `POST /v1/payments paced at half (${Math.floor(api.requestsPerSecond / 2)}/s, ${pacedConnections} conn.)`,
        halfRate,
      ),
      `QR per payment, CPU on one core: ${qrMs.toFixed(3)} ms drawn by the API (the code's bits XORed into its prefix's template, then a 1-bit PNG with our own deflate codes); the qrcode library's own matrix, scoring the masks, ${qrMatrixMs.toFixed(3)} ms, and its PNG path ${qrLibraryMs.toFixed(3)} ms`,
      `polling: ${polling.getsPerPayment.toFixed(0)} GETs per pending payment in ${polling.pollSeconds} s caused ${polling.inquiriesPerPayment.toFixed(1)} gateway inquiries per payment (throttle: one per ${loadConfig({}).payment.inquiryMinIntervalMs / 1000} s)`,
      "",
    ].join("\n"),
  );
} finally {
  await database.dispose();
}
