import { createHash } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import pg from "pg";
import { loadConfig } from "../src/platform/config.ts";
import { randomSecret } from "../src/platform/ids.ts";
import { type CpuSample, cpuPerRequest, startCpuSample } from "./cpu-usage.ts";
import {
  committedTransactions,
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
 * npm run bench:platform — authenticated, rate-limited GET /v1/me against bare Express answering
 * with one indexed query, both measured in this run on this machine in alternated pairs (the verdict
 * is the median pair's ratio), each server in its own process with the same database pool size.
 * Enough merchants that no one of them reaches the rate limit.
 */
const { values } = parseArgs({
  options: {
    merchants: { type: "string", default: "3000" },
    connections: { type: "string", default: "50" },
    seconds: { type: "string", default: "6" },
    rounds: { type: "string", default: "3" },
    "warmup-seconds": { type: "string", default: "2" },
    json: { type: "string" },
  },
});
const merchantCount = Number(values.merchants);
const connections = Number(values.connections);
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const warmupSeconds = Number(values["warmup-seconds"]);

const database = await createBenchDatabase(loadConfig().databaseUrl);
try {
  const keys = Array.from({ length: merchantCount }, () => `sk_test_${randomSecret()}`);
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  await seedMerchants(client, keys);
  await client.query("ANALYZE");
  await client.end();
  const hashCheck = createHash("sha256")
    .update(keys[0] ?? "")
    .digest("hex");
  process.stdout.write(`${merchantCount} merchants ready (first key hash ${hashCheck.slice(0, 8)}…)\n`);

  const environment = {
    DATABASE_URL: database.url,
    DATABASE_POOL_SIZE: "10",
    LOG_LEVEL: "warn",
    NODE_ENV: "production",
  };
  const headersFor = (requestNumber: number) => ({ authorization: `Bearer ${keys[requestNumber % keys.length]}` });

  async function measure(script: string): Promise<LoadResult & { transactionsPerRequest: number; cpu: CpuSample }> {
    const server = await startServer(script, environment);
    try {
      const url = `http://127.0.0.1:${server.port}/v1/me`;
      // Warm-up: one request per merchant first, so each merchant's rate-limit log row exists (it is
      // created once in a merchant's life), then two seconds of load.
      await load({ url, connections, durationSeconds: 60, amount: merchantCount, headersFor });
      await load({ url, connections, durationSeconds: warmupSeconds, headersFor });
      const before = await committedTransactions(database.url);
      const cpuSince = await startCpuSample(server.child.pid ?? 0, database.url);
      const result = await load({ url, connections, durationSeconds: seconds, headersFor });
      const cpu = await cpuSince();
      const after = await committedTransactions(database.url);
      return { ...result, transactionsPerRequest: (after - before) / result.total, cpu };
    } finally {
      await stopServer(server);
    }
  }

  const compared = await compareInPairs(rounds, measure, {
    baseline: "bench/servers/baseline.ts",
    server: "bench/servers/api.ts",
  });
  const { baseline, server: api, ratio } = compared.median;
  const line = (name: string, result: typeof api) =>
    `${name.padEnd(40)} ${result.requestsPerSecond.toFixed(0).padStart(7)} req/s   p50 ${String(result.p50Ms).padStart(4)} ms   p99 ${String(result.p99Ms).padStart(4)} ms   non-2xx ${result.non2xx}   db transactions/request ${result.transactionsPerRequest.toFixed(2)}\n  ${cpuPerRequest(result.cpu, result.total)}`;
  process.stdout.write(
    [
      "",
      `bench:platform — ${connections} connections, ${seconds} s each, ${merchantCount} merchants, database pool 10`,
      describePairs(compared.pairs),
      line("baseline: Express + one indexed query", baseline),
      line("GET /v1/me: auth + rate limit + handler", api),
      `ratio ${ratio.toFixed(2)} (target ≥ 0.60: ${ratio >= 0.6 ? "met" : "NOT met"}); round trips per request ${api.transactionsPerRequest.toFixed(2)} (target ≤ 1)`,
      "",
    ].join("\n"),
  );
  if (values.json !== undefined) {
    await writeFile(
      values.json,
      JSON.stringify({ baseline, api, ratio, pairs: compared.pairs, merchantCount, connections, seconds }, null, 2),
    );
  }
} finally {
  await database.dispose();
}
