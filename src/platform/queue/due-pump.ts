import pg from "pg";
import type { Registry } from "prom-client";
import type { Config } from "../config.ts";
import type { Logger } from "../telemetry/logger.ts";
import { inJobSpan } from "../telemetry/trace-context.ts";
import { jobMetrics } from "./job-metrics.ts";
import type { PoolLiveness } from "./pool-supervisor.ts";
import type { QueueDepth } from "./queue-depth.ts";
import type { PoolName, TaskDependencies } from "./task.ts";

/**
 * Work kept as rows that fall due (webhook deliveries, payments' polls and expiries, withdrawal codes',
 * payouts' passes), done by a pool without a job per item: a claim takes up to `limit` due rows in one
 * statement (each claimed row leased, so any number of pumps side by side never take a row twice, and a
 * row whose worker died falls due again) and answers each as the work to do. The pump claims when the
 * database announces new work on `channel` (NOTIFY, sent at the commit that made it due, heard only by
 * this pool; null for work that only falls due by time), when a claimed item ends while more may be
 * due, and at least every `intervalMs` otherwise (rows that fall due by time, lapsed leases,
 * announcements missed while the listening connection was down): the pool's `WORKER_POLL_INTERVAL_MS`
 * unless the definition says how late its work may be. Each item runs in a span named and counted as
 * a job of `task` (`worker_jobs_total`), continuing its `traceparent`; the pool's backlog gauges add
 * up `backlog` (its due rows, the way a pool of jobs counts its runnable ones).
 */
export type PumpDefinition = {
  name: string;
  task: string;
  channel: string | null;
  intervalMs?: number;
  build: (dependencies: TaskDependencies) => {
    claim: (limit: number) => Promise<readonly PumpItem[]>;
    backlog: () => Promise<QueueDepth>;
  };
};

/** A claimed row's work: `attempt` is the row's own count of attempts, this one included. */
export type PumpItem = { id: string; attempt: number; traceparent: string | null; run: () => Promise<unknown> };

export type RunningPump = {
  liveness: () => PoolLiveness;
  /** The pump's due rows now (`PumpDefinition.build`'s `backlog`). */
  backlog: () => Promise<QueueDepth>;
  /** Stops claiming and waits (at most `shutdownTimeoutMs`) for the items in flight. */
  stop: () => Promise<void>;
};

/** A pool's pump settings from its configuration (`WORKER_*`), as `startPools` runs it. */
export function pumpSettingsOf(
  worker: Config["worker"],
): Pick<Parameters<typeof startPump>[0], "concurrency" | "idleIntervalMs" | "stallAfterMs" | "shutdownTimeoutMs"> {
  return {
    concurrency: worker.concurrency,
    // As graphile-worker's own polling: how long a pool goes without looking when nothing is announced.
    idleIntervalMs: worker.pollIntervalMs,
    stallAfterMs: worker.stallTimeoutMs,
    shutdownTimeoutMs: worker.shutdownTimeoutMs,
  };
}

/** Delays between claims (and between connections of the listener) while the database is away. */
const RETRY_DELAY_MS = { initial: 500, max: 5000 };

/**
 * Runs a pump: at most `concurrency` items at once, one claim at a time (announcements that arrive
 * during a claim fold into one more claim, so a burst costs a claim per batch, not per item). A claim
 * that fails (the database away) is retried with growing delays, and the pump resumes by itself when
 * the database returns. Live while its claims keep coming round: not live when none has begun or
 * ended for `stallAfterMs` (a claim that hangs, or a pump whose timer no longer fires).
 */
export function startPump(options: {
  pool: PoolName;
  definition: PumpDefinition;
  dependencies: TaskDependencies;
  databaseUrl: string;
  registry: Registry;
  concurrency: number;
  /** How long the pump goes without looking when nothing is announced, unless the definition says. */
  idleIntervalMs: number;
  stallAfterMs: number;
  shutdownTimeoutMs: number;
}): RunningPump {
  const { pool, definition, dependencies } = options;
  const logger = dependencies.logger.child({ pool, pump: definition.name });
  const { claim, backlog } = definition.build(dependencies);
  const idleIntervalMs = definition.intervalMs ?? options.idleIntervalMs;
  const { jobsTotal, jobDurationSeconds, pumpClaimsTotal } = jobMetrics(options.registry);
  const labels = { pool, task: definition.task };
  const inFlight = new Set<Promise<unknown>>();
  let stopped = false;
  let claiming = false;
  let claimAgain = false;
  let moreMayBeDue = false;
  let failures = 0;
  // When the last claim began or ended: a claim that hangs counts as quiet too.
  let lastClaimMovedAt = Date.now();
  let timer: NodeJS.Timeout | undefined;
  let soon: NodeJS.Immediate | undefined;

  const schedule = (delayMs: number) => {
    clearTimeout(timer);
    timer = stopped ? undefined : setTimeout(() => void claimDue(), delayMs);
  };
  // Items that end in the same turn (their records share a statement) lead to one claim.
  const claimSoon = () => {
    soon ??= setImmediate(() => {
      soon = undefined;
      void claimDue();
    });
  };

  const run = (item: PumpItem) => {
    jobsTotal.inc({ ...labels, outcome: "started" });
    const stopTimer = jobDurationSeconds.startTimer(labels);
    const running: Promise<unknown> = inJobSpan(
      {
        pool,
        task: definition.task,
        jobId: item.id,
        attempt: item.attempt,
        payload: { traceparent: item.traceparent },
      },
      item.run,
    )
      .then(
        () => jobsTotal.inc({ ...labels, outcome: "succeeded" }),
        (error: unknown) => {
          // The row keeps its own attempts: it falls due again when its lease lapses.
          jobsTotal.inc({ ...labels, outcome: "retried" });
          logger.warn({ err: error, id: item.id }, `${definition.task} failed; it falls due again`);
        },
      )
      .finally(() => {
        stopTimer();
        inFlight.delete(running);
        if (moreMayBeDue) {
          claimSoon();
        }
      });
    inFlight.add(running);
  };

  async function claimDue(): Promise<void> {
    if (stopped) {
      return;
    }
    if (claiming) {
      claimAgain = true;
      return;
    }
    claiming = true;
    lastClaimMovedAt = Date.now();
    let delayMs = idleIntervalMs;
    try {
      do {
        claimAgain = false;
        const room = options.concurrency - inFlight.size;
        // Full: an item that ends claims again.
        moreMayBeDue = room <= 0;
        if (room <= 0) {
          break;
        }
        const items = await claim(room);
        pumpClaimsTotal.inc({ pool, pump: definition.name, outcome: "succeeded" });
        for (const item of items) {
          run(item);
        }
        if (items.length === room) {
          moreMayBeDue = true;
          claimAgain = true;
        }
      } while (claimAgain && !stopped);
      failures = 0;
    } catch (error) {
      pumpClaimsTotal.inc({ pool, pump: definition.name, outcome: "failed" });
      failures += 1;
      delayMs = Math.min(RETRY_DELAY_MS.max, RETRY_DELAY_MS.initial * 2 ** (failures - 1));
      logger.warn({ err: error, failures }, `${definition.name}: claim failed; trying again`);
    } finally {
      claiming = false;
      lastClaimMovedAt = Date.now();
      schedule(delayMs);
    }
  }

  const listener =
    definition.channel === null
      ? null
      : listen({
          databaseUrl: options.databaseUrl,
          channel: definition.channel,
          applicationName: definition.name,
          logger,
          // Also on each (re)connection: what was announced while no one listened is claimed now.
          onAnnounced: () => void claimDue(),
        });
  void claimDue();

  return {
    backlog,
    liveness: () => {
      const quietMs = Date.now() - lastClaimMovedAt;
      return stopped || quietMs < options.stallAfterMs
        ? { live: true, detail: `${definition.name}: ${inFlight.size} in flight` }
        : { live: false, detail: `${definition.name}: no claim for ${Math.round(quietMs / 1000)} s` };
    },
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      if (soon !== undefined) {
        clearImmediate(soon);
      }
      await listener?.close();
      let timeout: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...inFlight]),
        new Promise((resolve) => {
          timeout = setTimeout(resolve, options.shutdownTimeoutMs);
        }),
      ]);
      clearTimeout(timeout);
    },
  };
}

/**
 * A connection that LISTENs on `channel` and calls `onAnnounced` for each notification and after each
 * connection; when the connection fails it is made again, after growing delays, until `close`.
 */
function listen(options: {
  databaseUrl: string;
  channel: string;
  applicationName: string;
  logger: Logger;
  onAnnounced: () => void;
}): { close: () => Promise<void> } {
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let failures = 0;

  const reconnectLater = () => {
    if (closed) {
      return;
    }
    failures += 1;
    retry = setTimeout(connect, Math.min(RETRY_DELAY_MS.max, RETRY_DELAY_MS.initial * 2 ** (failures - 1)));
  };

  async function connect(): Promise<void> {
    const connecting = new pg.Client({
      connectionString: options.databaseUrl,
      application_name: `${options.applicationName}:listen`,
    });
    client = connecting;
    let lost = false;
    const lose = (error?: Error) => {
      if (lost) {
        return;
      }
      lost = true;
      if (!closed) {
        options.logger.warn({ err: error }, `listening on ${options.channel} failed; listening again`);
      }
      connecting.end().catch(() => {});
      reconnectLater();
    };
    connecting.on("error", lose);
    connecting.on("end", () => lose());
    connecting.on("notification", () => options.onAnnounced());
    try {
      await connecting.connect();
      await connecting.query(`LISTEN ${pg.escapeIdentifier(options.channel)}`);
    } catch (error) {
      lose(error as Error);
      return;
    }
    if (closed) {
      await connecting.end().catch(() => {});
      return;
    }
    failures = 0;
    options.onAnnounced();
  }

  void connect();
  return {
    close: async () => {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
    },
  };
}
