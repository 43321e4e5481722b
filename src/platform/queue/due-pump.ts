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
): Pick<PumpOptions, "concurrency" | "idleIntervalMs" | "stallAfterMs" | "shutdownTimeoutMs"> {
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
export function startPump(options: PumpOptions): RunningPump {
  const pump = new Pump(options);
  const { definition } = options;
  const listener =
    definition.channel === null
      ? null
      : listen({
          databaseUrl: options.databaseUrl,
          channel: definition.channel,
          applicationName: definition.name,
          logger: pump.logger,
          // Also on each (re)connection: what was announced while no one listened is claimed now.
          onAnnounced: () => void pump.claimDue(),
        });
  void pump.claimDue();

  return {
    backlog: pump.backlog,
    liveness: () => pump.liveness(),
    stop: async () => {
      pump.stopClaiming();
      await listener?.close();
      await pump.waitForInFlight();
    },
  };
}

type PumpOptions = {
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
};

/** One pump's state: the items in flight, the claim under way, and the timers that claim next. */
class Pump {
  readonly logger: Logger;
  readonly backlog: () => Promise<QueueDepth>;
  private readonly options: PumpOptions;
  private readonly claim: (limit: number) => Promise<readonly PumpItem[]>;
  private readonly idleIntervalMs: number;
  private readonly metrics: ReturnType<typeof jobMetrics>;
  private readonly labels: { pool: PoolName; task: string };
  private readonly inFlight = new Set<Promise<unknown>>();
  private stopped = false;
  private claiming = false;
  private claimAgain = false;
  private moreMayBeDue = false;
  private failures = 0;
  // When the last claim began or ended: a claim that hangs counts as quiet too.
  private lastClaimMovedAt = Date.now();
  private timer: NodeJS.Timeout | undefined;
  private soon: NodeJS.Immediate | undefined;

  constructor(options: PumpOptions) {
    const { pool, definition, dependencies } = options;
    this.options = options;
    this.logger = dependencies.logger.child({ pool, pump: definition.name });
    const { claim, backlog } = definition.build(dependencies);
    this.claim = claim;
    this.backlog = backlog;
    this.idleIntervalMs = definition.intervalMs ?? options.idleIntervalMs;
    this.metrics = jobMetrics(options.registry);
    this.labels = { pool, task: definition.task };
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = this.stopped ? undefined : setTimeout(() => void this.claimDue(), delayMs);
  }

  // Items that end in the same turn (their records share a statement) lead to one claim.
  private claimSoon(): void {
    this.soon ??= setImmediate(() => {
      this.soon = undefined;
      void this.claimDue();
    });
  }

  /** Runs one claimed item in its job span, counted as a job of the definition's task. */
  private run(item: PumpItem): void {
    const { jobsTotal, jobDurationSeconds } = this.metrics;
    const { labels } = this;
    const task = this.options.definition.task;
    jobsTotal.inc({ ...labels, outcome: "started" });
    const stopTimer = jobDurationSeconds.startTimer(labels);
    const running: Promise<unknown> = inJobSpan(
      {
        pool: this.options.pool,
        task,
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
          this.logger.warn({ err: error, id: item.id }, `${task} failed; it falls due again`);
        },
      )
      .finally(() => {
        stopTimer();
        this.inFlight.delete(running);
        if (this.moreMayBeDue) {
          this.claimSoon();
        }
      });
    this.inFlight.add(running);
  }

  /**
   * Claims up to the room left, again while a claim fills it or an announcement came meanwhile, then
   * schedules the next look. The loop stays inline: `claiming` must drop in the same turn as the last
   * claim answers, or an announcement in between would be folded into a claim that never comes.
   */
  async claimDue(): Promise<void> {
    if (this.stopped) {
      return;
    }
    if (this.claiming) {
      this.claimAgain = true;
      return;
    }
    this.claiming = true;
    this.lastClaimMovedAt = Date.now();
    const { pumpClaimsTotal } = this.metrics;
    const { pool, definition } = this.options;
    let delayMs = this.idleIntervalMs;
    try {
      do {
        this.claimAgain = false;
        const room = this.options.concurrency - this.inFlight.size;
        // Full: an item that ends claims again.
        this.moreMayBeDue = room <= 0;
        if (room <= 0) {
          break;
        }
        const items = await this.claim(room);
        pumpClaimsTotal.inc({ pool, pump: definition.name, outcome: "succeeded" });
        for (const item of items) {
          this.run(item);
        }
        if (items.length === room) {
          this.moreMayBeDue = true;
          this.claimAgain = true;
        }
      } while (this.claimAgain && !this.stopped);
      this.failures = 0;
    } catch (error) {
      pumpClaimsTotal.inc({ pool, pump: definition.name, outcome: "failed" });
      this.failures += 1;
      delayMs = Math.min(RETRY_DELAY_MS.max, RETRY_DELAY_MS.initial * 2 ** (this.failures - 1));
      this.logger.warn({ err: error, failures: this.failures }, `${definition.name}: claim failed; trying again`);
    } finally {
      this.claiming = false;
      this.lastClaimMovedAt = Date.now();
      this.schedule(delayMs);
    }
  }

  liveness(): PoolLiveness {
    const { name } = this.options.definition;
    const quietMs = Date.now() - this.lastClaimMovedAt;
    return this.stopped || quietMs < this.options.stallAfterMs
      ? { live: true, detail: `${name}: ${this.inFlight.size} in flight` }
      : { live: false, detail: `${name}: no claim for ${Math.round(quietMs / 1000)} s` };
  }

  stopClaiming(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.soon !== undefined) {
      clearImmediate(this.soon);
    }
  }

  /** Waits for the items in flight, at most `shutdownTimeoutMs`. */
  async waitForInFlight(): Promise<void> {
    let timeout: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.inFlight]),
      new Promise((resolve) => {
        timeout = setTimeout(resolve, this.options.shutdownTimeoutMs);
      }),
    ]);
    clearTimeout(timeout);
  }
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
