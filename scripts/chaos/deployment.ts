import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { controlEmbeddedPostgres, freePort, startEmbeddedPostgres } from "../../src/platform/db/embedded.ts";
import { migrate } from "../../src/platform/db/migrate.ts";
import type { PoolName } from "../../src/platform/queue/task.ts";
import { createLogger } from "../../src/platform/telemetry/logger.ts";

/**
 * The deployment shape on one machine: a PostgreSQL cluster of the run's own (so it may be crashed and
 * stopped), the API and every worker pool as separate processes started from their entry points, each
 * with only the environment a pod would have. Like Kubernetes, it starts a process again when it exits,
 * and counts such exits.
 */

export const ADMIN_TOKEN = `chaos-admin-${randomBytes(8).toString("hex")}`;

/** Settings that make a short run see whole lifecycles: quick settlement, payouts, retries and expiry. */
const RUN_ENVIRONMENT: Record<string, string> = {
  NODE_ENV: "production",
  LOG_LEVEL: "warn",
  ADMIN_TOKEN,
  WEBHOOK_SECRET_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
  PUBLIC_BASE_URL: "http://127.0.0.1",
  RATE_LIMIT_REQUESTS: "10000",
  SANDBOX_AUTO_SETTLE_SECONDS: "4",
  PAYMENT_CODE_WINDOW_SECONDS: "30",
  PAYMENT_POLL_SCHEDULE_SECONDS: "1,2,2,3,5",
  PAYOUT_SETTLE_SECONDS: "2",
  PAYOUT_PROCESSOR_INTERVAL_SECONDS: "2",
  PAYOUT_RETRY_SECONDS: "2",
  MONEY_OUT_LEASE_SECONDS: "20",
  WEBHOOK_RETRY_SCHEDULE_SECONDS: "2,4,8,15,30,60,60",
  IDEMPOTENCY_LOCK_TIMEOUT_SECONDS: "20",
  WORKER_POLL_INTERVAL_MS: "500",
  // A killed pool's locked jobs are freed by another's heartbeat sweep within four beats.
  WORKER_HEARTBEAT_SECONDS: "1",
  WORKER_STALL_TIMEOUT_SECONDS: "30",
  WORKER_SHUTDOWN_TIMEOUT_SECONDS: "5",
  DATABASE_STATEMENT_TIMEOUT_MS: "10000",
  OTEL_SDK_DISABLED: "true",
  // To find why a run failed: CHAOS_LOG_LEVEL=debug shows graphile-worker's own fetch errors.
  ...(process.env.CHAOS_LOG_LEVEL === undefined ? {} : { LOG_LEVEL: process.env.CHAOS_LOG_LEVEL }),
};

/**
 * Each pool that runs jobs fetches them as the Helm chart has it (values.yaml): a local queue, and a
 * refetch delay, here scaled to this run's 500 ms poll interval; payout-processor and webhook-delivery
 * run no job (only pumps over their due rows), webhook-delivery with the chart's 40 attempts at once.
 * A pool SIGKILLed with jobs fetched leaves them locked until another pool's heartbeat frees them; a
 * killed pump's leases lapse.
 */
const BATCHED_FETCH: Record<PoolName, Record<string, string>> = {
  "gateway-poller": { WORKER_LOCAL_QUEUE_SIZE: "5", WORKER_REFETCH_DELAY_MS: "250" },
  "code-expiry": { WORKER_LOCAL_QUEUE_SIZE: "5", WORKER_REFETCH_DELAY_MS: "250" },
  "payout-processor": {},
  "webhook-delivery": { WORKER_CONCURRENCY: "40" },
};

/**
 * CHAOS_LOG_DIR keeps every process's whole output in `<dir>/<name>.log` (appended across restarts):
 * a failed run otherwise shows only the last lines of a process that died, not what a live but
 * silent one was doing.
 */
const LOG_DIR = process.env.CHAOS_LOG_DIR;

export type Role = "api" | PoolName;

/** How long a stopped process may take to exit before it is killed (Kubernetes' default grace period). */
const STOP_GRACE_MS = 30_000;

export type ServiceProcess = {
  name: string;
  role: Role;
  /** The port of its HTTP server: the API's, or the pool's ops server. */
  port: number;
  pid: () => number | undefined;
  /** Exits this run did not cause (crashes, a stalled pool's exit), each followed by a restart. */
  unexpectedExits: { code: number | null; signal: string | null; atMs: number; output: string }[];
  starts: number;
  /** Kills the process outright (SIGKILL), as an OOM kill or a node failure would; it is restarted. */
  kill: () => Promise<void>;
  stop: () => Promise<void>;
};

export type Deployment = {
  databaseUrl: string;
  apiUrl: string;
  services: ServiceProcess[];
  /** Crashes PostgreSQL (immediate shutdown: no checkpoint, connections cut) and starts it again. */
  crashDatabase: () => Promise<void>;
  stopDatabase: () => Promise<void>;
  startDatabase: () => Promise<void>;
  stop: () => Promise<void>;
};

function superviseProcess(options: {
  name: string;
  role: Role;
  port: number;
  environment: Record<string, string>;
  startedAtMs: number;
}): ServiceProcess {
  const script = path.join("services", options.role, "main.ts");
  let child: ChildProcess | undefined;
  let output = "";
  let expectingExit = false;
  let stopped = false;
  const service: ServiceProcess = {
    name: options.name,
    role: options.role,
    port: options.port,
    pid: () => child?.pid,
    unexpectedExits: [],
    starts: 0,
    kill: async () => {
      const current = child;
      if (current === undefined || current.exitCode !== null) {
        return;
      }
      expectingExit = true;
      const exited = once(current, "exit");
      current.kill("SIGKILL");
      await exited;
    },
    stop: async () => {
      stopped = true;
      const current = child;
      if (current === undefined || current.exitCode !== null || current.signalCode !== null) {
        return;
      }
      const exited = once(current, "exit");
      current.kill("SIGTERM");
      // As Kubernetes does after a pod's grace period: a process whose shutdown hangs is killed, so that
      // the run ends and says so rather than waiting for ever.
      const graceTimer = setTimeout(() => {
        process.stderr.write(`${options.name} did not exit within ${STOP_GRACE_MS / 1000} s of SIGTERM; killed\n`);
        current.kill("SIGKILL");
      }, STOP_GRACE_MS);
      await exited;
      clearTimeout(graceTimer);
    },
  };
  const start = () => {
    output = "";
    const started = spawn(process.execPath, [script], {
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...RUN_ENVIRONMENT, ...options.environment },
      stdio: ["ignore", "pipe", "pipe"],
    });
    // Keep the last lines only: enough to say why a process died.
    const keep = (chunk: Buffer) => {
      output = (output + String(chunk)).slice(-16000);
    };
    started.stdout?.on("data", keep);
    started.stderr?.on("data", keep);
    if (LOG_DIR !== undefined) {
      const file = createWriteStream(path.join(LOG_DIR, `${options.name}.log`), { flags: "a" });
      started.stdout?.pipe(file, { end: false });
      started.stderr?.pipe(file, { end: false });
      started.once("close", () => file.end());
    }
    // On "close", not "exit": the process's last lines (why it died) may still be in its pipes at "exit".
    started.once("close", (code, signal) => {
      if (stopped) {
        return;
      }
      if (!expectingExit) {
        service.unexpectedExits.push({ code, signal, atMs: Date.now() - options.startedAtMs, output });
      }
      expectingExit = false;
      // Like a Deployment's pod: started again at once (Kubernetes backs off; here one second).
      setTimeout(() => {
        if (!stopped) {
          start();
        }
      }, 1000);
    });
    child = started;
    service.starts += 1;
  };
  start();
  return service;
}

/**
 * A pool process's work counters from its /metrics: attempts started and finished (jobs and pumps'
 * items alike) and its pumps' successful claims.
 */
export async function jobCounters(
  service: ServiceProcess,
): Promise<{ started: number; finished: number; claims: number } | undefined> {
  const text = await fetch(`http://127.0.0.1:${service.port}/metrics`, { signal: AbortSignal.timeout(2000) }).then(
    (response) => response.text(),
    () => undefined,
  );
  if (text === undefined) {
    return undefined;
  }
  let started = 0;
  let finished = 0;
  for (const match of text.matchAll(/^worker_jobs_total\{[^}]*outcome="(\w+)"[^}]*\} (\d+)/gm)) {
    if (match[1] === "started") {
      started += Number(match[2]);
    } else {
      finished += Number(match[2]);
    }
  }
  let claims = 0;
  for (const match of text.matchAll(/^worker_pump_claims_total\{[^}]*outcome="succeeded"[^}]*\} (\d+)/gm)) {
    claims += Number(match[1]);
  }
  return { started, finished, claims };
}

async function waitUntilAnswering(service: ServiceProcess, timeoutMs: number): Promise<void> {
  const url = `http://127.0.0.1:${service.port}/readyz`;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const exit = service.unexpectedExits[0];
    if (exit !== undefined) {
      throw new Error(`${service.name} exited while starting (code ${exit.code}):\n${exit.output}`);
    }
    const ok = await fetch(url, { signal: AbortSignal.timeout(2000) }).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/** Another process may take the free port picked for the server before it binds it: try another. */
async function startCluster(dataDirectory: string) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startEmbeddedPostgres({ dataDirectory });
    } catch (error) {
      if (attempt === 3) {
        throw error;
      }
    }
  }
}

/**
 * The API and every pool as supervised processes on `databaseUrl` (one pool as two replicas), each
 * answering /readyz before this resolves; `stop` stops them all.
 */
export async function startServices(options: {
  databaseUrl: string;
  replicatedPool: PoolName;
  startedAtMs: number;
  /** More settings for every process (the failover run's shorter statement timeout, ...). */
  environment?: Record<string, string>;
}): Promise<{ services: ServiceProcess[]; apiUrl: string; stop: () => Promise<void> }> {
  const { databaseUrl } = options;
  const pools: PoolName[] = ["gateway-poller", "code-expiry", "payout-processor", "webhook-delivery"];
  const instances: { name: string; role: Role }[] = [
    { name: "api", role: "api" },
    ...pools.flatMap((pool) =>
      pool === options.replicatedPool
        ? [
            { name: `${pool}-1`, role: pool },
            { name: `${pool}-2`, role: pool },
          ]
        : [{ name: pool, role: pool }],
    ),
  ];
  const services: ServiceProcess[] = [];
  for (const instance of instances) {
    const port = await freePort();
    const own: Record<string, string> =
      instance.role === "api"
        ? { DATABASE_URL: databaseUrl, PORT: String(port), METRICS_PORT: "0" }
        : { DATABASE_URL: databaseUrl, WORKER_HTTP_PORT: String(port), ...BATCHED_FETCH[instance.role] };
    services.push(
      superviseProcess({
        ...instance,
        port,
        startedAtMs: options.startedAtMs,
        environment: { ...options.environment, ...own },
      }),
    );
  }
  const stop = () => Promise.all(services.map((service) => service.stop())).then(() => {});
  try {
    for (const service of services) {
      // Generous: on a busy machine, six Node processes load their modules at once.
      await waitUntilAnswering(service, 180_000);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const api = services.find((service) => service.role === "api") as ServiceProcess;
  return { services, apiUrl: `http://127.0.0.1:${api.port}`, stop };
}

export async function startDeployment(options: {
  /** The pool run as two replicas. */
  replicatedPool: PoolName;
  startedAtMs: number;
}): Promise<Deployment> {
  const directory = await mkdtemp(path.join(tmpdir(), "pos-chaos-"));
  // As root, the server runs as the postgres user, who must reach the data directory.
  await chmod(directory, 0o755);
  const dataDirectory = path.join(directory, "postgres");
  const cluster = await startCluster(dataDirectory).catch(async (error: unknown) => {
    await rm(directory, { recursive: true, force: true });
    throw error;
  });
  const control = await controlEmbeddedPostgres(cluster.dataDirectory);
  const databaseUrl = cluster.url("postgres");
  await migrate({ databaseUrl, logger: createLogger({ level: "warn", service: "chaos" }) });

  const started = await startServices({
    databaseUrl,
    replicatedPool: options.replicatedPool,
    startedAtMs: options.startedAtMs,
  }).catch(async (error: unknown) => {
    await cluster.stop().catch(() => control.stop("immediate"));
    await rm(directory, { recursive: true, force: true });
    throw error;
  });
  const stop = async () => {
    await started.stop();
    await cluster.stop().catch(() => control.stop("immediate"));
    await rm(directory, { recursive: true, force: true });
  };
  return {
    databaseUrl,
    apiUrl: started.apiUrl,
    services: started.services,
    crashDatabase: async () => {
      await control.stop("immediate");
      await control.start();
    },
    stopDatabase: () => control.stop("fast"),
    startDatabase: () => control.start(),
    stop,
  };
}
