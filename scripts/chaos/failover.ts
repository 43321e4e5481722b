import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { startWebhookSink } from "../../load-tests/webhook-sink.ts";
import { migrate } from "../../src/platform/db/migrate.ts";
import { createLogger } from "../../src/platform/telemetry/logger.ts";
import { type Check, ledgerBalanced, paymentsSettledOnce, payoutsOnce, subscribedEventIds } from "./checks.ts";
import { jobCounters, type ServiceProcess, startServices } from "./deployment.ts";
import { provisionMerchant, SUBSCRIBED_EVENTS } from "./merchants.ts";
import { type Replication, startReplicatedCluster, startTcpSwitch } from "./replication.ts";
import { createTraffic, HANG_MS } from "./traffic.ts";

/**
 * npm run chaos:failover [--replication synchronous|asynchronous|both] [--seconds N] [--short]
 *                        [--stall-replication-ms N]
 *
 * A primary and a streaming standby (PostgreSQL 15), a TCP switch as the read-write Service, the API
 * and the pools on the switch. Under traffic the primary's postmaster is SIGKILLed, the standby
 * promoted and the switch moved, as CloudNativePG does. Then: every acknowledged payment, sale and payout
 * is on the new primary (with asynchronous replication, what is lost is counted and reported), nothing
 * settled or paid out twice, the ledger balances, every event is delivered, the API answered 503 and
 * never 500 nor hung, and served again within 10 s of the switch; With `--stall-replication-ms N` the
 * standby's replication link stalls N ms before the kill (a replica fallen behind: a slow link between
 * zones, a busy replica), which is what asynchronous replication loses. a till's waiting request (LISTEN)
 * is woken on the new primary, every LISTEN (the API's, the pools' wake-ups) is back on it, every pool
 * claims work again and no process had to be restarted. SIGINT or SIGTERM stops the run and removes
 * what it started (servers, switch, services, temporary directories).
 */

const { values } = parseArgs({
  options: {
    failover: { type: "boolean", default: true },
    replication: { type: "string", default: "both" },
    seconds: { type: "string" },
    short: { type: "boolean", default: false },
    "stall-replication-ms": { type: "string", default: "0" },
  },
});
const stallReplicationMs = Number(values["stall-replication-ms"]);
const trafficSeconds = Number(values.seconds ?? (values.short ? 12 : 40));
const modes: Replication[] =
  values.replication === "both" ? ["synchronous", "asynchronous"] : [values.replication as Replication];
const API_RECOVERY_LIMIT_MS = 10_000;
const CONVERGENCE_MS = 120_000;

const startedAtMs = Date.now();

/**
 * What the run has started and must stop, newest first: on SIGINT or SIGTERM all of it is stopped
 * (services, switch, servers) and its directories removed before the process exits.
 */
const cleanups: (() => Promise<unknown>)[] = [];
/** One clean-up at a time: the signal's and the scenario's own wait for each other. */
let cleaning = Promise.resolve();
function cleanUp(): Promise<void> {
  cleaning = cleaning.then(async () => {
    while (cleanups.length > 0) {
      await (cleanups.shift() as () => Promise<unknown>)().catch(() => {});
    }
  });
  return cleaning;
}
/** Set on SIGINT or SIGTERM: the run then ends with the signal's code once cleaned up, whatever else fails. */
let signalled: string | undefined;
for (const [signal, code] of [
  ["SIGINT", 130],
  ["SIGTERM", 143],
] as const) {
  process.once(signal, () => {
    signalled = signal;
    process.stderr.write(`${signal}: stopping the services, the switch and the servers\n`);
    // A second signal during the clean-up ends the process at once.
    process.once(signal, () => process.exit(code));
    void cleanUp().finally(() => process.exit(code));
  });
}

const log = (message: string) =>
  process.stdout.write(`[${((Date.now() - startedAtMs) / 1000).toFixed(1)} s] ${message}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(what: string, condition: () => Promise<boolean>, limitMs: number): Promise<number> {
  const start = Date.now();
  while (!(await condition().catch(() => false))) {
    if (Date.now() - start > limitMs) {
      throw new Error(`${what}: not within ${limitMs / 1000} s`);
    }
    await sleep(50);
  }
  return Date.now() - start;
}

type Failover = { promoteMs: number; apiBackAfterSwitchMs: number };

/** Kills the primary, promotes the standby, moves the switch; measures the API's return. */
async function failOver(
  cluster: Awaited<ReturnType<typeof startReplicatedCluster>>,
  tcpSwitch: Awaited<ReturnType<typeof startTcpSwitch>>,
  probe: () => Promise<boolean>,
  state: { down: boolean },
): Promise<Failover> {
  state.down = true;
  if (stallReplicationMs > 0) {
    // The scenario's own parameter, not a guess: how far the standby falls behind before the kill.
    cluster.stallReplication();
    await sleep(stallReplicationMs);
  }
  await cluster.killPrimary();
  const promotedAt = Date.now();
  await cluster.promoteStandby();
  const promoteMs = Date.now() - promotedAt;
  tcpSwitch.moveTo(cluster.standbyPort);
  const apiBackAfterSwitchMs = await waitFor("the API serves on the new primary", probe, 60_000);
  state.down = false;
  return { promoteMs, apiBackAfterSwitchMs };
}

/**
 * A wallet sale's waiting request on the new primary, woken by its payment (the API's LISTEN path):
 * paid once `listening` says the API LISTENs there, so that the NOTIFY, not the first read, answers it.
 */
async function tillWaitWakes(apiUrl: string, key: string, listening: () => Promise<boolean>): Promise<Check> {
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const post = (url: string, body: unknown) =>
    fetch(`${apiUrl}${url}`, {
      method: "POST",
      headers: { ...headers, "idempotency-key": crypto.randomUUID() },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(HANG_MS),
    }).then(async (response) => ({ status: response.status, body: (await response.json()) as Record<string, string> }));
  const sale = await post("/v1/sales", { tender: "wallet", items: [{ name: "Bread", qty: 1, unit_cents: 150 }] });
  const started = Date.now();
  const waiting = fetch(`${apiUrl}/v1/sales/${sale.body.id}?wait_seconds=25`, {
    headers,
    signal: AbortSignal.timeout(60_000),
  }).then(async (response) => ((await response.json()) as { status: string }).status);
  await waitFor("the waiting request listens on the new primary", listening, 30_000);
  await post(`/checkout/${sale.body.payment_id}/mockpay`, {});
  const status = await waiting;
  return {
    name: "a till's waiting request is woken on the new primary (LISTEN resumed)",
    ok: sale.status === 201 && status === "completed",
    detail: `sale ${sale.status}, the wait answered ${status} after ${Date.now() - started} ms`,
  };
}

/** The connections LISTENing on a server, counted by application name (graphile-worker's, the pumps', the API's). */
async function listeners(port: number): Promise<Map<string, number>> {
  const client = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string; n: string }>(
      `SELECT application_name AS name, count(*) AS n FROM pg_stat_activity
       WHERE backend_type = 'client backend' AND query ILIKE 'listen %' GROUP BY 1`,
    );
    return new Map(rows.map((row) => [row.name, Number(row.n)]));
  } finally {
    await client.end();
  }
}

const missingListeners = (before: Map<string, number>, after: Map<string, number>) =>
  [...before].filter(([name, n]) => (after.get(name) ?? 0) < n).map(([name]) => name);

async function acknowledgedPresent(database: pg.Pool, table: string, ids: readonly string[]) {
  const found = await database.query<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE id = ANY($1)`, [ids]);
  return { acknowledged: ids.length, missing: ids.length - Number(found.rows[0]?.n) };
}

async function scenario(mode: Replication): Promise<{ checks: Check[]; figures: string[] }> {
  if (signalled !== undefined) {
    throw new Error(`${signalled}: not starting the ${mode} scenario`);
  }
  const root = await mkdtemp(path.join(tmpdir(), "pos-failover-"));
  cleanups.unshift(() => rm(root, { recursive: true, force: true }));
  // As root the servers run as the postgres user, who must reach their directories.
  await chmod(root, 0o755);
  try {
    const cluster = await startReplicatedCluster(path.join(root, "pg"), mode, (stop) => cleanups.unshift(stop));
    const tcpSwitch = await startTcpSwitch(cluster.primaryPort);
    cleanups.unshift(() => tcpSwitch.close());
    const databaseUrl = `postgres://postgres@127.0.0.1:${tcpSwitch.port}/postgres`;
    const sink = await startWebhookSink({ host: "127.0.0.1", port: 0 });
    cleanups.unshift(() => sink.close());
    await waitFor(
      "the standby streams",
      async () => (await cluster.syncState()) === (mode === "synchronous" ? "sync" : "async"),
      60_000,
    );
    await migrate({ databaseUrl, logger: createLogger({ level: "warn", service: "chaos" }) });
    const services = await startServices({ databaseUrl, replicatedPool: "webhook-delivery", startedAtMs });
    cleanups.unshift(services.stop);
    log(`${mode}: primary, standby, switch, API and pools up`);
    const merchants = [];
    for (let index = 0; index < 2; index += 1) {
      merchants.push(await provisionMerchant(services.apiUrl, index, sink));
    }
    const key = merchants[0]?.key ?? "";
    const state = { down: false };
    const traffic = createTraffic({ apiUrl: services.apiUrl, databaseDown: () => state.down, sales: true });
    const endsAt = Date.now() + trafficSeconds * 1000;
    const trafficDone = traffic.run(merchants, 3, endsAt, 60_000);
    await sleep(trafficSeconds * 400);
    const probe = async () =>
      (
        await fetch(`${services.apiUrl}/v1/me`, {
          headers: { authorization: `Bearer ${key}` },
          signal: AbortSignal.timeout(5000),
        })
      ).status === 200;
    // What must come back on the new primary: each LISTEN, and each pool's claims (none succeeds
    // between the kill and the switch: the old primary is gone).
    const listenersBefore = await listeners(cluster.primaryPort);
    const pools = services.services.filter((service) => service.role !== "api");
    const poolsBefore = new Map(
      await Promise.all(
        pools.map(async (pool) => [pool, { pid: pool.pid(), counters: await jobCounters(pool) }] as const),
      ),
    );
    const failover = await failOver(cluster, tcpSwitch, probe, state);
    const switchedAt = Date.now() - failover.apiBackAfterSwitchMs;
    log(
      `${mode}: failed over (promotion ${failover.promoteMs} ms, API back ${failover.apiBackAfterSwitchMs} ms after the switch)`,
    );
    const poolsBackSoon = Promise.all(
      pools.map(async (pool: ServiceProcess) => {
        const before = poolsBefore.get(pool);
        const claimed = await waitFor(
          `${pool.name} claims on the new primary`,
          async () =>
            pool.pid() === before?.pid &&
            ((await jobCounters(pool))?.claims ?? 0) > (before?.counters?.claims ?? Number.POSITIVE_INFINITY),
          60_000,
        ).then(
          () => Date.now() - switchedAt,
          () => undefined,
        );
        return [pool.name, claimed] as const;
      }),
    );
    let listenersAfter = new Map<string, number>();
    const listeningSoon = waitFor(
      "every LISTEN is back on the new primary",
      async () => {
        listenersAfter = await listeners(cluster.standbyPort);
        return missingListeners(listenersBefore, listenersAfter).length === 0;
      },
      60_000,
    ).then(
      () => Date.now() - switchedAt,
      () => undefined,
    );
    const apiListens = async () => ((await listeners(cluster.standbyPort)).get("notifications") ?? 0) > 0;
    const tillCheck = await tillWaitWakes(services.apiUrl, key, apiListens).catch((error: unknown) => ({
      name: "a till's waiting request is woken on the new primary (LISTEN resumed)",
      ok: false,
      detail: `failed: ${(error as Error).message} ${String((error as Error).cause ?? "")}`,
    }));
    const [poolsBack, listening] = await Promise.all([poolsBackSoon, listeningSoon]);
    await trafficDone;
    const database = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    cleanups.unshift(() => database.end());
    const converged = await waitFor(
      "every payment, payout and event finished",
      async () => {
        const pending = await database.query<{ n: string }>(
          `SELECT (SELECT count(*) FROM payments WHERE status = 'pending')
                + (SELECT count(*) FROM payouts WHERE status NOT IN ('confirmed', 'failed')) AS n`,
        );
        const seen = new Set(sink.received.filter((delivery) => delivery.verified).map((d) => d.eventId));
        return (
          Number(pending.rows[0]?.n) === 0 &&
          (await subscribedEventIds(database, SUBSCRIBED_EVENTS)).every((id) => seen.has(id))
        );
      },
      CONVERGENCE_MS,
    ).catch(() => undefined);
    const payments = await acknowledgedPresent(database, "payments", traffic.record.paymentIds);
    const payouts = await acknowledgedPresent(database, "payouts", traffic.record.payoutIds);
    const sales = await acknowledgedPresent(database, "sales", traffic.record.saleIds);
    const inGap = new Map<string, number>();
    for (const answer of traffic.record.answers.filter((a) => a.duringOutage)) {
      inGap.set(String(answer.status), (inGap.get(String(answer.status)) ?? 0) + 1);
    }
    const gap = [...inGap].map(([status, n]) => `${n} × ${status}`).join(", ") || "none";
    const all = traffic.record.answers;
    const other5xx = all.filter((a) => typeof a.status === "number" && a.status >= 500 && a.status !== 503);
    const unavailable = all.filter((a) => a.status === 503).length;
    const hung = all.filter((a) => a.status === "timeout").length;
    const inFlight = all.filter((a) => a.status === 409).length;
    const restarts = services.services.flatMap((service) => service.unexpectedExits.map(() => service.name));
    const lost = payments.missing + payouts.missing + sales.missing;
    const latePools = poolsBack.filter(([, ms]) => ms === undefined);
    const stillMissing = missingListeners(listenersBefore, listenersAfter);
    const checks: Check[] = [
      {
        name: `${mode}: every acknowledged payment, sale and payout is on the new primary`,
        // Asynchronous replication may lose acknowledged commits: counted and reported, not failed.
        ok:
          (mode === "asynchronous" || lost === 0) &&
          payments.acknowledged > 0 &&
          sales.acknowledged > 0 &&
          payouts.acknowledged > 0,
        detail: `payments ${payments.acknowledged - payments.missing}/${payments.acknowledged}, sales ${sales.acknowledged - sales.missing}/${sales.acknowledged}, payouts ${payouts.acknowledged - payouts.missing}/${payouts.acknowledged} (${lost} lost)`,
      },
      await paymentsSettledOnce(database, traffic.record.paymentIds.slice()),
      await payoutsOnce(database, traffic.record.payoutIds.slice()),
      await ledgerBalanced(database),
      {
        name: `${mode}: every event delivered and everything finished`,
        ok: converged !== undefined,
        detail: converged === undefined ? `not within ${CONVERGENCE_MS / 1000} s` : `${converged} ms after the traffic`,
      },
      {
        name: `${mode}: the API answered 503 in the gap, never another 5xx, never hung`,
        ok: other5xx.length === 0 && hung === 0,
        detail: `${all.length} answers, in the gap: ${gap}; in all ${unavailable} × 503, ${other5xx.length} other 5xx, ${hung} over ${HANG_MS / 1000} s, ${inFlight} × 409 idempotency_in_flight, ${traffic.record.abandoned.length} abandoned`,
      },
      {
        name: `${mode}: the API serves within ${API_RECOVERY_LIMIT_MS / 1000} s of the switch, no process restarted`,
        ok: failover.apiBackAfterSwitchMs <= API_RECOVERY_LIMIT_MS && restarts.length === 0,
        detail: `back ${failover.apiBackAfterSwitchMs} ms after the switch; restarts: ${restarts.join(", ") || "none"}`,
      },
      {
        name: `${mode}: every pool claims work on the new primary without a restart`,
        ok: latePools.length === 0,
        detail: poolsBack
          .map(([name, ms]) => `${name} ${ms === undefined ? "never (within 60 s)" : `${ms} ms`} after the switch`)
          .join(", "),
      },
      {
        name: `${mode}: every LISTEN (the pools' wake-ups, graphile-worker's, the API's) is back on the new primary`,
        ok: listening !== undefined && listenersBefore.size > 0,
        detail: `${[...listenersBefore].map(([name, n]) => `${name} ×${n}`).join(", ")}; ${listening === undefined ? `missing: ${stillMissing.join(", ")}` : `all back ${listening} ms after the switch`}`,
      },
      tillCheck,
    ];
    const figures = [
      `${mode}${stallReplicationMs > 0 ? ` (replication stalled ${stallReplicationMs} ms before the kill)` : ""}: promotion ${failover.promoteMs} ms, API 2xx ${failover.apiBackAfterSwitchMs} ms after the switch, answers in the gap ${gap}, ${lost} acknowledged writes lost (payments ${payments.missing}/${payments.acknowledged}, sales ${sales.missing}/${sales.acknowledged}, payouts ${payouts.missing}/${payouts.acknowledged})`,
    ];
    return { checks, figures };
  } finally {
    await cleanUp();
  }
}

async function main(): Promise<boolean> {
  const checks: Check[] = [];
  const figures: string[] = [];
  for (const mode of modes) {
    const result = await scenario(mode);
    checks.push(...result.checks);
    figures.push(...result.figures);
  }
  for (const check of checks) {
    process.stdout.write(`${check.ok ? "PASS" : "FAIL"} ${check.name}: ${check.detail}\n`);
  }
  for (const figure of figures) {
    process.stdout.write(`figure: ${figure}\n`);
  }
  return checks.every((check) => check.ok);
}

main().then(
  (passed) => {
    if (signalled !== undefined) {
      return;
    }
    process.stdout.write(passed ? "failover run passed\n" : "failover run FAILED\n");
    process.exit(passed ? 0 : 1);
  },
  (error: unknown) => {
    if (signalled !== undefined) {
      return;
    }
    process.stderr.write(`failover run crashed: ${(error as Error).stack}\n`);
    process.exit(1);
  },
);
