import { parseArgs } from "node:util";
import pg from "pg";
import { startWebhookSink } from "../../load-tests/webhook-sink.ts";
import { loadConfig } from "../../src/platform/config.ts";
import type { PoolName } from "../../src/platform/queue/task.ts";
import { createGateways } from "../../src/wiring/gateways.ts";
import { poolTasks } from "../../src/wiring/pools.ts";
import {
  type Check,
  dueJobs,
  ledgerBalanced,
  noPaymentPastDeadline,
  paymentsSettledOnce,
  payoutsOnce,
  subscribedEventIds,
} from "./checks.ts";
import { type Deployment, jobCounters, type ServiceProcess, startDeployment } from "./deployment.ts";
import { provisionMerchant, SUBSCRIBED_EVENTS } from "./merchants.ts";
import { createTraffic, HANG_MS } from "./traffic.ts";

/**
 * node scripts/chaos/main.ts [--seconds N] [--short] (the first part of `npm run chaos`: ./all.ts)
 *
 * Runs the deployment shape (API and the four pools as separate processes, two replicas of one, on a
 * PostgreSQL of its own), drives payments and payouts with idempotent retries, and meanwhile SIGKILLs
 * each pool mid-job (it is restarted), crashes PostgreSQL once (immediate shutdown, then started again)
 * and stops it for ten seconds once. Then it checks money, payments, payouts, events, the API's answers
 * during the outage and the pools' recovery, prints a report and exits 1 when a check fails.
 * `--short` is the CI form (30 seconds of traffic, about a minute and a half in all).
 */

const { values } = parseArgs({
  options: { seconds: { type: "string" }, short: { type: "boolean", default: false } },
});
const trafficSeconds = Number(values.seconds ?? (values.short ? 30 : 120));
if (!Number.isFinite(trafficSeconds) || trafficSeconds < 20) {
  process.stderr.write("Usage: node scripts/chaos/main.ts [--seconds N (at least 20)] [--short]\n");
  process.exit(2);
}

const OUTAGE_MS = 10_000;
/** How soon after the database returns the API must serve and every pool take jobs again. */
const RECOVERY_LIMIT_MS = { api: 10_000, pools: 20_000 };
/** How long the run may take, after the traffic, for every payment, payout and delivery to finish. */
const CONVERGENCE_MS = 180_000;
const REPLICATED_POOL: PoolName = "webhook-delivery";

const startedAtMs = Date.now();
const elapsed = () => `${((Date.now() - startedAtMs) / 1000).toFixed(1)} s`;
const log = (message: string) => process.stdout.write(`[${elapsed()}] ${message}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const tasksOfPool = poolTasks(createGateways(loadConfig({ NODE_ENV: "test" })));
const taskIdentifiers = (pool: PoolName) => tasksOfPool[pool].map((definition) => definition.identifier);

/** SIGKILLs a pool process, if possible while one of its jobs runs; says whether one did. */
async function killMidJob(service: ServiceProcess): Promise<boolean> {
  const deadline = Date.now() + 10_000;
  let midJob = false;
  while (Date.now() < deadline) {
    const counters = await jobCounters(service);
    if (counters !== undefined && counters.started > counters.finished) {
      midJob = true;
      break;
    }
    await sleep(20);
  }
  await service.kill();
  return midJob;
}

/** Milliseconds until `condition` holds (polled), or undefined after `limitMs`. */
async function timeUntil(condition: () => Promise<boolean>, limitMs: number): Promise<number | undefined> {
  const start = Date.now();
  while (Date.now() - start < limitMs) {
    if (await condition().catch(() => false)) {
      return Date.now() - start;
    }
    await sleep(200);
  }
  return undefined;
}

type OutageObservation = {
  readyzDuringOutage: number[];
  apiBackAfterMs: number | undefined;
  poolsBackAfterMs: Map<string, number | undefined>;
};

/** Stops PostgreSQL for ten seconds, probing the API's readiness meanwhile; measures the recovery. */
async function outage(deployment: Deployment, state: { databaseDown: boolean }): Promise<OutageObservation> {
  const pools = deployment.services.filter((service) => service.role !== "api");
  state.databaseDown = true;
  await deployment.stopDatabase();
  log("PostgreSQL stopped for ten seconds");
  const readyzDuringOutage: number[] = [];
  const until = Date.now() + OUTAGE_MS;
  while (Date.now() < until) {
    readyzDuringOutage.push(
      await fetch(`${deployment.apiUrl}/readyz`, { signal: AbortSignal.timeout(5000) }).then(
        (response) => response.status,
        () => 0,
      ),
    );
    await sleep(500);
  }
  const atReturn = new Map(
    await Promise.all(
      pools.map(async (pool) => [pool, { pid: pool.pid(), counters: await jobCounters(pool) }] as const),
    ),
  );
  await deployment.startDatabase();
  state.databaseDown = false;
  log("PostgreSQL started again");
  const checks = new pg.Pool({ connectionString: deployment.databaseUrl, max: 2 });
  checks.on("error", () => {});
  const apiBack = timeUntil(async () => {
    const response = await fetch(`${deployment.apiUrl}/readyz`, { signal: AbortSignal.timeout(2000) });
    return response.status === 200;
  }, 60_000);
  // A pool works again when its pumps have claimed after the return (they claim at least every
  // second), and it has finished a job since or none of its jobs is waiting. (A process restarted
  // since then counts from zero.)
  const poolsBack = pools.map(async (pool) => {
    const before = atReturn.get(pool);
    const ms = await timeUntil(async () => {
      const counters = await jobCounters(pool);
      const sameProcess = pool.pid() === before?.pid;
      const claimsBefore = sameProcess ? (before?.counters?.claims ?? 0) : 0;
      if (counters === undefined || counters.claims <= claimsBefore) {
        return false;
      }
      const finishedBefore = sameProcess ? (before?.counters?.finished ?? 0) : 0;
      return (
        counters.finished > finishedBefore ||
        (await dueJobs(checks, taskIdentifiers(pool.role as PoolName))).oldestSeconds < 2
      );
    }, 60_000);
    return [pool.name, ms] as const;
  });
  const observation = {
    readyzDuringOutage,
    apiBackAfterMs: await apiBack,
    poolsBackAfterMs: new Map(await Promise.all(poolsBack)),
  };
  await checks.end();
  return observation;
}

async function main(): Promise<boolean> {
  log(`starting PostgreSQL, the API and the pools (${REPLICATED_POOL} twice); ${trafficSeconds} s of traffic`);
  const deployment = await startDeployment({ replicatedPool: REPLICATED_POOL, startedAtMs });
  const sink = await startWebhookSink({ host: "127.0.0.1", port: 0 });
  const state = { databaseDown: false };
  try {
    const merchants = [];
    for (let index = 0; index < 3; index += 1) {
      merchants.push(await provisionMerchant(deployment.apiUrl, index, sink));
    }
    const traffic = createTraffic({ apiUrl: deployment.apiUrl, databaseDown: () => state.databaseDown });
    const trafficEndsAt = Date.now() + trafficSeconds * 1000;
    const trafficDone = traffic.run(merchants, 3, trafficEndsAt, 60_000);

    const at = async (fraction: number) => {
      const due = trafficEndsAt - trafficSeconds * 1000 * (1 - fraction);
      await sleep(Math.max(0, due - Date.now()));
    };
    const kills: string[] = [];
    const poolServices = deployment.services.filter((service) => service.role !== "api");
    const firstOfEachPool = poolServices.filter(
      (service, index) => poolServices.findIndex((other) => other.role === service.role) === index,
    );
    for (const [index, service] of firstOfEachPool.entries()) {
      await at(0.08 + index * 0.05);
      const midJob = await killMidJob(service);
      kills.push(`${service.name}${midJob ? " (mid-job)" : " (no job was running)"}`);
      log(`SIGKILLed ${service.name}${midJob ? " while a job ran" : ""}; it restarts`);
    }
    await at(0.35);
    state.databaseDown = true;
    await deployment.crashDatabase();
    state.databaseDown = false;
    log("PostgreSQL crashed (immediate shutdown) and started again");
    await at(0.5);
    const observed = await outage(deployment, state);
    log("traffic continues");
    await trafficDone;
    log(
      `traffic done: ${traffic.record.paymentIds.length} payments, ${traffic.record.payoutIds.length} payouts, ${traffic.record.answers.length} answers`,
    );

    const database = new pg.Pool({ connectionString: deployment.databaseUrl, max: 2 });
    try {
      const expected = async () => subscribedEventIds(database, SUBSCRIBED_EVENTS);
      const delivered = () => new Set(sink.received.filter((delivery) => delivery.verified).map((d) => d.eventId));
      const convergedAfter = await timeUntil(async () => {
        const pending = await database.query<{ n: number }>(
          `SELECT (SELECT count(*) FROM payments WHERE status = 'pending')
                + (SELECT count(*) FROM payouts WHERE status NOT IN ('confirmed', 'failed')) AS n`,
        );
        if (Number(pending.rows[0]?.n) > 0) {
          return false;
        }
        const seen = delivered();
        return (await expected()).every((id) => seen.has(id));
      }, CONVERGENCE_MS);
      log(
        convergedAfter === undefined
          ? `not everything finished within ${CONVERGENCE_MS / 1000} s`
          : `everything finished ${(convergedAfter / 1000).toFixed(1)} s after the traffic`,
      );

      const checks: Check[] = [];
      checks.push(await paymentsSettledOnce(database, traffic.record.paymentIds));
      checks.push(await ledgerBalanced(database));
      const eventIds = await expected();
      const seen = delivered();
      const missing = eventIds.filter((id) => !seen.has(id));
      const unverified = sink.received.filter((delivery) => !delivery.verified).length;
      checks.push({
        name: "every event delivered at least once with a valid signature",
        ok: missing.length === 0 && unverified === 0 && eventIds.length > 0,
        detail: `${eventIds.length} events (${SUBSCRIBED_EVENTS.join(", ")}), ${missing.length} never delivered, ${sink.received.length} deliveries received, ${unverified} with a bad signature`,
      });
      checks.push(await payoutsOnce(database, traffic.record.payoutIds));
      checks.push(await noPaymentPastDeadline(database, 20));
      checks.push(...apiChecks(traffic.record, observed, deployment));
      checks.push(...poolChecks(observed, deployment, kills));
      printReport(checks, traffic.record);
      return checks.every((check) => check.ok);
    } finally {
      await database.end();
    }
  } finally {
    await sink.close();
    await deployment.stop();
  }
}

function apiChecks(
  record: ReturnType<typeof createTraffic>["record"],
  observed: OutageObservation,
  deployment: Deployment,
): Check[] {
  const serverErrors = record.answers.filter((answer) => typeof answer.status === "number" && answer.status >= 500);
  const notUnavailable = serverErrors.filter((answer) => answer.status !== 503);
  const badEnvelopes = serverErrors.filter(
    (answer) => answer.status === 503 && (answer.envelopeCode !== "service_unavailable" || !answer.retryAfter),
  );
  const hung = record.answers.filter((answer) => answer.status === "timeout");
  const unavailableDuringOutage = serverErrors.filter((answer) => answer.duringOutage && answer.status === 503);
  const slowest = Math.max(0, ...record.answers.map((answer) => answer.latencyMs));
  const api = deployment.services.find((service) => service.role === "api") as ServiceProcess;
  const readyzDown = observed.readyzDuringOutage.filter((status) => status !== 200).length;
  return [
    {
      name: "the API answers 503 with the envelope while the database is down (never 500, never hanging)",
      ok:
        notUnavailable.length === 0 &&
        badEnvelopes.length === 0 &&
        hung.length === 0 &&
        unavailableDuringOutage.length > 0,
      detail: `${record.answers.length} answers; ${unavailableDuringOutage.length} × 503 service_unavailable during the faults; ${notUnavailable.length} other 5xx${notUnavailable.length > 0 ? ` (${[...new Set(notUnavailable.map((a) => `${a.operation} ${a.status} ${a.envelopeCode}`))].join(", ")})` : ""}; ${badEnvelopes.length} 503 without envelope or Retry-After; ${hung.length} hanging over ${HANG_MS / 1000} s; slowest ${(slowest / 1000).toFixed(1)} s; ${record.abandoned.length} operations abandoned`,
    },
    {
      name: "the API serves again within seconds of the database's return, without a restart",
      ok:
        observed.apiBackAfterMs !== undefined &&
        observed.apiBackAfterMs <= RECOVERY_LIMIT_MS.api &&
        api.starts === 1 &&
        api.unexpectedExits.length === 0,
      detail: `ready ${observed.apiBackAfterMs === undefined ? "never" : `${(observed.apiBackAfterMs / 1000).toFixed(1)} s`} after the return (limit ${RECOVERY_LIMIT_MS.api / 1000} s); started ${api.starts} time(s)`,
    },
    {
      name: "readyz is unready while the database is down",
      ok: readyzDown === observed.readyzDuringOutage.length && readyzDown > 0,
      detail: `${readyzDown} of ${observed.readyzDuringOutage.length} probes answered 503`,
    },
  ];
}

function poolChecks(observed: OutageObservation, deployment: Deployment, kills: readonly string[]): Check[] {
  const pools = deployment.services.filter((service) => service.role !== "api");
  const late = [...observed.poolsBackAfterMs].filter(([, ms]) => ms === undefined || ms > RECOVERY_LIMIT_MS.pools);
  const exits = pools.flatMap((service) =>
    service.unexpectedExits.map(
      (exit) =>
        `${service.name} at ${(exit.atMs / 1000).toFixed(1)} s (code ${exit.code}, signal ${exit.signal}):\n${exit.output.trim().split("\n").slice(-12).join("\n")}`,
    ),
  );
  return [
    {
      name: "every pool works again within seconds of the database's return",
      ok: late.length === 0,
      detail: [...observed.poolsBackAfterMs]
        .map(([name, ms]) => `${name} ${ms === undefined ? "never" : `${(ms / 1000).toFixed(1)} s`}`)
        .join(", "),
    },
    {
      name: "no pool died (of a connection error or a stall); each was SIGKILLed and restarted",
      ok: exits.length === 0 && kills.length === 4,
      detail: `killed: ${kills.join(", ")}; replicas: ${pools.map((service) => `${service.name} started ${service.starts}×`).join(", ")}${exits.length > 0 ? `; unexpected exits: ${exits.join("; ")}` : ""}`,
    },
  ];
}

function printReport(checks: readonly Check[], record: ReturnType<typeof createTraffic>["record"]): void {
  const statuses = new Map<string, number>();
  for (const answer of record.answers) {
    const key = `${answer.operation} → ${answer.status}`;
    statuses.set(key, (statuses.get(key) ?? 0) + 1);
  }
  const lines = [
    "",
    "Answers:",
    ...[...statuses].sort().map(([key, n]) => `  ${key}: ${n}`),
    "",
    "Checks:",
    ...checks.flatMap((check) => [`  ${check.ok ? "PASS" : "FAIL"}  ${check.name}`, `        ${check.detail}`]),
    "",
    checks.every((check) => check.ok) ? "chaos run passed" : "chaos run FAILED",
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
}

main().then(
  (passed) => {
    log("done");
    process.exit(passed ? 0 : 1);
  },
  (error: unknown) => {
    process.stderr.write(
      `chaos run failed to complete: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
