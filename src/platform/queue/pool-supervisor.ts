import type { Runner, WorkerEvents } from "graphile-worker";
import { isDatabaseUnavailable } from "../db/unavailable.ts";
import type { Logger } from "../telemetry/logger.ts";
import { watchRunner } from "./runner-watch.ts";

/**
 * Keeps one worker pool taking jobs through database outages. graphile-worker's runner does not
 * survive every outage: a job that finishes while the database is down cannot be marked complete,
 * and the runner then shuts its worker pool down ("queue is in an inconsistent state") and settles
 * `runner.promise`, while the process lives on and takes no job. The supervisor
 * - starts the runner, retrying with backoff while the database is unavailable (a pool never dies of
 *   a connection error at start-up or during a restart);
 * - starts a new runner as soon as the old one stops, or begins stopping, by itself (its shutdown may
 *   wait long for jobs in flight), and unlocks the jobs the old one held once it has settled or
 *   `retiredRunnerGraceMs` has passed, whichever comes first (else they would wait four hours for
 *   graphile-worker's own reset);
 * - starts a new runner when the old one fails every fetch of a job for `brokenRunnerAfterMs` while the
 *   database answers: graphile-worker caches the task list's lookup as a promise on the runner's first
 *   fetch, and when the database dies during that lookup, the rejected promise is kept for good and every
 *   later fetch fails with the same error, though the database is back (seen in the chaos run: a pool
 *   "Failed to acquire job: Connection terminated unexpectedly" 2,500 times in 20 minutes). A new runner
 *   has a new cache. A local queue's fetch failures raise no event: a polling local queue that has not
 *   answered for `brokenRunnerAfterMs` counts as failing;
 * - reports the pool not live when it has taken no job (nor found the queue empty) for `stallAfterMs`
 *   although jobs have been due that long, and then calls `onStalled` (the process exits, so that
 *   Kubernetes restarts it) – the backstop for a runner that hangs without stopping;
 * - beats for its live runner every `beatIntervalMs` (`beat`, which also frees the jobs of pools in
 *   other processes that stopped beating: heartbeat.ts).
 */

export type PoolLiveness = { live: boolean; detail: string };

export type SupervisedPool = {
  /** Resolves once the first runner has started (after any waiting for the database). */
  started: Promise<void>;
  liveness: () => Promise<PoolLiveness>;
  /** Stops taking jobs and waits for those in flight; also ends any waiting for the database. */
  stop: () => Promise<void>;
};

export type SupervisorOptions = {
  pool: string;
  logger: Logger;
  /**
   * Fails while the database does not accept connections. Checked before each start: graphile-worker
   * itself retries "the database system is starting up" with delays growing from 3 s to minutes.
   */
  probeDatabase: () => Promise<void>;
  /** Builds and starts a runner that reports to `events`. */
  start: (events: WorkerEvents) => Promise<Runner>;
  /** Frees the jobs a stopped runner's worker pool still holds locked. */
  unlockWorkerPool: (workerPoolId: string) => Promise<void>;
  /**
   * How long a retired runner may take to settle before its jobs are unlocked anyway. Its shutdown
   * retries what it cannot write while the database is away and, under load, was seen never to
   * settle, leaving its jobs locked. A job unlocked while its handler still runs may run twice at
   * once; every task is idempotent (its effects are guarded in SQL), so that costs work, not money.
   */
  retiredRunnerGraceMs: number;
  /**
   * How long a runner's fetches may fail without one succeeding before the database is asked whether it
   * answers; if it does, the runner is broken (see above) and is replaced.
   */
  brokenRunnerAfterMs: number;
  /** How long the pool's oldest runnable job has waited, in seconds (0 when none). */
  oldestRunnableAgeSeconds: () => Promise<number>;
  stallAfterMs: number;
  /** How often the watchdog checks liveness. */
  checkIntervalMs: number;
  retryDelayMs: { initial: number; max: number };
  /** The pool cannot go on (a stall, or a start-up error other than the database being unavailable). */
  onFatal: (reason: string, error?: unknown) => void;
  /**
   * Records that the live runner's worker pool (its id; none while no runner is up) is alive, and frees
   * the jobs of dead pools; answers the ids of the pools freed.
   */
  beat: (workerPoolIds: readonly string[]) => Promise<string[]>;
  beatIntervalMs: number;
};

export function superviseWorkerPool(options: SupervisorOptions): SupervisedPool {
  const supervisor = new PoolSupervisor(options);
  const heartbeat = setInterval(() => supervisor.beatOnce(), options.beatIntervalMs);
  heartbeat.unref();
  const watchdog = startWatchdog(supervisor, options);
  return {
    started: supervisor.runStartLoop(),
    liveness: () => supervisor.liveness(),
    stop: async () => {
      clearInterval(watchdog);
      clearInterval(heartbeat);
      await supervisor.stop();
    },
  };
}

/** Checks liveness every `checkIntervalMs` (one check at a time) and gives up on a stalled pool. */
function startWatchdog(supervisor: PoolSupervisor, options: SupervisorOptions): NodeJS.Timeout {
  let checking = false;
  const watchdog = setInterval(() => {
    if (checking) {
      return;
    }
    checking = true;
    supervisor
      .liveness()
      .then((status) => {
        if (!status.live && !supervisor.stopping) {
          options.onFatal(`the worker pool is stalled: ${status.detail}`);
        }
      })
      .finally(() => {
        checking = false;
      });
  }, options.checkIntervalMs);
  watchdog.unref();
  return watchdog;
}

/** The state of one supervised pool: its live runner, and what watches and beats for it. */
class PoolSupervisor {
  stopping = false;
  private runner: Runner | undefined;
  // The live runner's worker pool id, once graphile-worker has reported it.
  private runnerPoolId: () => string | undefined = () => undefined;
  // Watches the live (or starting) runner's local queue for silence; one at a time.
  private silenceCheck: NodeJS.Timeout | undefined;
  private lastActivityAt = Date.now();
  private wakeUp: (() => void) | undefined;
  private startLoop: Promise<void> = Promise.resolve();
  // The beat under way, if any: one at a time, and awaited by `stop` (its connection must be back
  // in the pool before the process closes it).
  private beat: Promise<void> | undefined;
  private readonly options: SupervisorOptions;
  private readonly logger: Logger;

  constructor(options: SupervisorOptions) {
    this.options = options;
    this.logger = options.logger;
  }

  /** Starts a runner, retrying with backoff while the database is unavailable; rejects on any other error. */
  runStartLoop(): Promise<void> {
    this.startLoop = this.startRunner().catch((error: unknown) => {
      this.options.onFatal("the worker pool could not start", error);
    });
    return this.startLoop;
  }

  private async startRunner(): Promise<void> {
    let delayMs = this.options.retryDelayMs.initial;
    while (!this.stopping) {
      clearInterval(this.silenceCheck);
      try {
        await this.options.probeDatabase();
        await this.startOneRunner();
        return;
      } catch (error) {
        if (!isDatabaseUnavailable(error)) {
          throw error;
        }
        this.logger.warn(
          { pool: this.options.pool, err: error, retryInMs: delayMs },
          "database unavailable; the worker pool will try again",
        );
        await this.sleep(delayMs);
        delayMs = Math.min(delayMs * 2, this.options.retryDelayMs.max);
      }
    }
  }

  /** Starts one runner under a new watch, and makes it the live one unless the pool is stopping. */
  private async startOneRunner(): Promise<void> {
    const watch = watchRunner({
      pool: this.options.pool,
      logger: this.logger,
      probeDatabase: () => this.options.probeDatabase(),
      brokenRunnerAfterMs: this.options.brokenRunnerAfterMs,
      onActivity: () => {
        this.lastActivityAt = Date.now();
      },
      retire: (runner, workerPoolId) => this.retire(runner, workerPoolId),
    });
    this.silenceCheck = watch.silenceCheck;
    const started = await this.options.start(watch.events);
    watch.attach(started);
    this.lastActivityAt = Date.now();
    if (this.stopping) {
      await started.stop();
      return;
    }
    this.runner = started;
    this.runnerPoolId = watch.workerPoolId;
    started.promise.then(
      () => this.retire(started, watch.workerPoolId),
      (error: unknown) => this.retire(started, watch.workerPoolId, error),
    );
    this.beatOnce();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  /**
   * Replaces a runner that stopped, or began stopping, by itself. Its jobs (fetched, or in flight)
   * are unlocked once it has settled, so that the new runner takes them now rather than in hours.
   */
  private retire(retired: Runner, workerPoolId: () => string | undefined, error?: unknown): void {
    if (this.stopping || this.runner !== retired) {
      return;
    }
    this.runner = undefined;
    clearInterval(this.silenceCheck);
    this.logger.error(
      { pool: this.options.pool, err: error },
      "the worker pool's runner is stopping by itself; rebuilding it",
    );
    // Also ends the retired runner's cron and queue-depth sampling; it rejects when already stopped.
    retired.stop().catch(() => {});
    void this.runStartLoop();
    this.unlockWhenSettled(retired, workerPoolId);
  }

  /** Unlocks a retired runner's jobs once, when it settles or `retiredRunnerGraceMs` has passed. */
  private unlockWhenSettled(retired: Runner, workerPoolId: () => string | undefined): void {
    let unlockStarted = false;
    const unlockOnce = () => {
      if (unlockStarted) {
        return;
      }
      unlockStarted = true;
      clearTimeout(graceTimer);
      const id = workerPoolId();
      if (id === undefined) {
        this.logger.error(
          { pool: this.options.pool },
          "the retired runner never reported its worker pool id; its jobs stay locked",
        );
        return;
      }
      void this.unlockEventually(id);
    };
    const graceTimer = setTimeout(unlockOnce, this.options.retiredRunnerGraceMs);
    graceTimer.unref();
    retired.promise.then(unlockOnce, unlockOnce);
  }

  private async unlockEventually(workerPoolId: string): Promise<void> {
    let delayMs = this.options.retryDelayMs.initial;
    while (!this.stopping) {
      try {
        await this.options.unlockWorkerPool(workerPoolId);
        this.logger.info({ pool: this.options.pool, workerPoolId }, "unlocked the jobs of the retired runner");
        return;
      } catch (error) {
        this.logger.warn(
          { pool: this.options.pool, err: error, retryInMs: delayMs },
          "unlocking the retired runner's jobs failed",
        );
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        delayMs = Math.min(delayMs * 2, this.options.retryDelayMs.max);
      }
    }
  }

  async liveness(): Promise<PoolLiveness> {
    const status = await this.livenessOfRunner();
    return { ...status, detail: `${this.options.pool}: ${status.detail}` };
  }

  private async livenessOfRunner(): Promise<PoolLiveness> {
    if (this.stopping) {
      return { live: true, detail: "stopping" };
    }
    if (this.runner === undefined) {
      return { live: true, detail: "starting: waiting for the database" };
    }
    const idleMs = Date.now() - this.lastActivityAt;
    if (idleMs < this.options.stallAfterMs) {
      return { live: true, detail: "taking jobs" };
    }
    let oldestAgeSeconds: number;
    try {
      oldestAgeSeconds = await this.options.oldestRunnableAgeSeconds();
    } catch {
      // Without the database no pool can take jobs; restarting this one would not help.
      return { live: true, detail: "database unavailable" };
    }
    if (oldestAgeSeconds * 1000 < this.options.stallAfterMs) {
      return { live: true, detail: "idle" };
    }
    return {
      live: false,
      detail: `no job taken for ${Math.round(idleMs / 1000)} s while a job has been due for ${Math.round(oldestAgeSeconds)} s`,
    };
  }

  /** Beats for the live runner's worker pool (none while no runner is up); one beat at a time. */
  beatOnce(): void {
    if (this.beat !== undefined || this.stopping) {
      return;
    }
    const id = this.runner === undefined ? undefined : this.runnerPoolId();
    this.beat = this.options
      .beat(id === undefined ? [] : [id])
      .then(
        (freed) => {
          if (freed.length > 0) {
            this.logger.warn(
              { pool: this.options.pool, freedWorkerPools: freed },
              "freed the jobs of worker pools that stopped beating (their processes died)",
            );
          }
        },
        (error: unknown) => {
          this.logger.warn({ pool: this.options.pool, err: error }, "the worker pool's heartbeat failed");
        },
      )
      .finally(() => {
        this.beat = undefined;
      });
  }

  /** Stops taking jobs and waits for the beat, the start loop and the live runner's jobs in flight. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearInterval(this.silenceCheck);
    this.wakeUp?.();
    await this.beat;
    await this.startLoop;
    await this.runner?.stop();
  }
}
