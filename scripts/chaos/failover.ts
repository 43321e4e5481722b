import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { startWebhookSink } from "../../load-tests/webhook-sink.ts";
import { migrate } from "../../src/platform/db/migrate.ts";
import { createLogger } from "../../src/platform/telemetry/logger.ts";
import { type Check, ledgerBalanced, paymentsSettledOnce, payoutsOnce, subscribedEventIds } from "./checks.ts";
import { startServices } from "./deployment.ts";
import { provisionMerchant, SUBSCRIBED_EVENTS } from "./merchants.ts";
import { type Replication, startReplicatedCluster, startTcpSwitch } from "./replication.ts";
import { createTraffic, HANG_MS } from "./traffic.ts";

/**
 * npm run chaos:failover [--replication synchronous|asynchronous|both] [--seconds N] [--short]
 *
 * A primary and a streaming standby (PostgreSQL 15), a TCP switch as the read-write Service, the API
 * and the pools on the switch. Under traffic the primary's postmaster is SIGKILLed, the standby
 * promoted and the switch moved, as CloudNativePG does. Then: every acknowledged payment and payout
 * is on the new primary (with asynchronous replication, what is lost is counted and reported), nothing
 * settled or paid out twice, the ledger balances, every event is delivered, the API answered 503 and
 * never 500 nor hung, and served again within 10 s of the switch; a till's waiting request (LISTEN)
 * is woken on the new primary; no process had to be restarted.
 */

const { values } = parseArgs({
  options: {
    failover: { type: "boolean", default: true },
    replication: { type: "string", default: "both" },
    seconds: { type: "string" },
    short: { type: "boolean", default: false },
  },
});
const trafficSeconds = Number(values.seconds ?? (values.short ? 12 : 40));
const modes: Replication[] =
  values.replication === "both" ? ["synchronous", "asynchronous"] : [values.replication as Replication];
const API_RECOVERY_LIMIT_MS = 10_000;
const CONVERGENCE_MS = 120_000;

const startedAtMs = Date.now();
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
  await cluster.killPrimary();
  const promotedAt = Date.now();
  await cluster.promoteStandby();
  const promoteMs = Date.now() - promotedAt;
  tcpSwitch.moveTo(cluster.standbyPort);
  const apiBackAfterSwitchMs = await waitFor("the API serves on the new primary", probe, 60_000);
  state.down = false;
  return { promoteMs, apiBackAfterSwitchMs };
}

/** A wallet sale's waiting request on the new primary, woken by its payment (the API's LISTEN path). */
async function tillWaitWakes(apiUrl: string, key: string): Promise<Check> {
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
  await sleep(500);
  await post(`/checkout/${sale.body.payment_id}/mockpay`, {});
  const status = await waiting;
  return {
    name: "a till's waiting request is woken on the new primary (LISTEN resumed)",
    ok: sale.status === 201 && status === "completed",
    detail: `sale ${sale.status}, the wait answered ${status} after ${Date.now() - started} ms`,
  };
}

async function acknowledgedPresent(database: pg.Pool, table: string, ids: readonly string[]) {
  const found = await database.query<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE id = ANY($1)`, [ids]);
  return { acknowledged: ids.length, missing: ids.length - Number(found.rows[0]?.n) };
}

async function scenario(mode: Replication): Promise<{ checks: Check[]; figures: string[] }> {
  const root = await mkdtemp(path.join(tmpdir(), "pos-failover-"));
  // As root the servers run as the postgres user, who must reach their directories.
  await chmod(root, 0o755);
  const cluster = await startReplicatedCluster(path.join(root, "pg"), mode);
  const tcpSwitch = await startTcpSwitch(cluster.primaryPort);
  const databaseUrl = `postgres://postgres@127.0.0.1:${tcpSwitch.port}/postgres`;
  const sink = await startWebhookSink({ host: "127.0.0.1", port: 0 });
  const cleanups: (() => Promise<unknown>)[] = [() => sink.close(), () => tcpSwitch.close(), () => cluster.stop()];
  try {
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
    const traffic = createTraffic({ apiUrl: services.apiUrl, databaseDown: () => state.down });
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
    const failover = await failOver(cluster, tcpSwitch, probe, state);
    log(
      `${mode}: failed over (promotion ${failover.promoteMs} ms, API back ${failover.apiBackAfterSwitchMs} ms after the switch)`,
    );
    const tillCheck = await tillWaitWakes(services.apiUrl, key).catch((error: unknown) => ({
      name: "a till's waiting request is woken on the new primary (LISTEN resumed)",
      ok: false,
      detail: `failed: ${(error as Error).message} ${String((error as Error).cause ?? "")}`,
    }));
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
    const answers = traffic.record.answers;
    const other5xx = answers.filter((a) => typeof a.status === "number" && a.status >= 500 && a.status !== 503);
    const unavailable = answers.filter((a) => a.status === 503).length;
    const hung = answers.filter((a) => a.status === "timeout").length;
    const inFlight = answers.filter((a) => a.status === 409).length;
    const restarts = services.services.flatMap((service) => service.unexpectedExits.map(() => service.name));
    const lost = payments.missing + payouts.missing;
    const checks: Check[] = [
      {
        name: `${mode}: every acknowledged payment and payout is on the new primary`,
        // Asynchronous replication may lose acknowledged commits: counted and reported, not failed.
        ok: mode === "asynchronous" || lost === 0,
        detail: `payments ${payments.acknowledged - payments.missing}/${payments.acknowledged}, payouts ${payouts.acknowledged - payouts.missing}/${payouts.acknowledged} (${lost} lost)`,
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
        detail: `${answers.length} answers, ${unavailable} × 503, ${other5xx.length} other 5xx, ${hung} over ${HANG_MS / 1000} s, ${inFlight} × 409 idempotency_in_flight, ${traffic.record.abandoned.length} abandoned`,
      },
      {
        name: `${mode}: the API serves within ${API_RECOVERY_LIMIT_MS / 1000} s of the switch, no process restarted`,
        ok: failover.apiBackAfterSwitchMs <= API_RECOVERY_LIMIT_MS && restarts.length === 0,
        detail: `back ${failover.apiBackAfterSwitchMs} ms after the switch; restarts: ${restarts.join(", ") || "none"}`,
      },
      tillCheck,
    ];
    const figures = [
      `${mode}: promotion ${failover.promoteMs} ms, API 2xx ${failover.apiBackAfterSwitchMs} ms after the switch, ${unavailable} × 503 in the gap, ${lost} acknowledged writes lost`,
    ];
    return { checks, figures };
  } finally {
    for (const cleanup of cleanups) {
      await cleanup().catch(() => {});
    }
    await rm(root, { recursive: true, force: true });
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
    process.stdout.write(passed ? "failover run passed\n" : "failover run FAILED\n");
    process.exit(passed ? 0 : 1);
  },
  (error: unknown) => {
    process.stderr.write(`failover run crashed: ${(error as Error).stack}\n`);
    process.exit(1);
  },
);
