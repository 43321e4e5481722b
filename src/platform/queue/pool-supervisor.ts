import { EventEmitter } from "node:events";
import type { Runner, WorkerEvents } from "graphile-worker";
import { isDatabaseUnavailable } from "../db/unavailable.ts";
import type { Logger } from "../telemetry/logger.ts";

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

/**
 * How long after the database answered a fetch must still fail to condemn the runner: a healthy runner's
 * fetch already under way when the database came back may still fail once.
 */
const BROKEN_RUNNER_CONFIRM_MS = 1_000;

// Events that show a worker asking the queue for work and getting an answer, a job or none.
const ACTIVITY_EVENTS = ["worker:getJob:empty", "job:start", "job:complete", "localQueue:getJobs:complete"] as const;

export function superviseWorkerPool(options: SupervisorOptions): SupervisedPool {
  const { logger } = options;
  let runner: Runner | undefined;
  // The live runner's worker pool id, once graphile-worker has reported it.
  let runnerPoolId: () => string | undefined = () => undefined;
  // Watches the live (or starting) runner's local queue for silence; one at a time.
  let silenceCheck: NodeJS.Timeout | undefined;
  let lastActivityAt = Date.now();
  let stopping = false;
  let wakeUp: (() => void) | undefined;
  let startLoop: Promise<void> = Promise.resolve();

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const startRunner = async (): Promise<void> => {
    let delayMs = options.retryDelayMs.initial;
    while (!stopping) {
      clearInterval(silenceCheck);
      try {
        await options.probeDatabase();
        const events: WorkerEvents = new EventEmitter();
        let workerPoolId: string | undefined;
        let started: Runner | undefined;
        events.on("pool:create", ({ workerPool }) => {
          workerPoolId = workerPool.id;
        });
        // graphile-worker shuts its worker pool down by itself when it cannot record a job's outcome;
        // that shutdown may wait long for jobs in flight, so a new runner starts at once.
        events.on("pool:gracefulShutdown", () => {
          setImmediate(() => {
            if (started !== undefined) {
              retire(started, () => workerPoolId);
            }
          });
        });
        // Fetches failing since (undefined while they succeed), and when the database last answered a
        // probe made because of them. A fetch failing after that answer is the runner's fault.
        let failingSince: number | undefined;
        let databaseAnsweredAt: number | undefined;
        let probing = false;
        for (const event of ACTIVITY_EVENTS) {
          events.on(event, () => {
            lastActivityAt = Date.now();
            failingSince = undefined;
            databaseAnsweredAt = undefined;
          });
        }
        // A fetch failed. After the database has answered a probe, one more failure condemns the runner
        // (`confirmMs` later: a fetch already under way when the database came back may still fail).
        const fetchFailed = (confirmMs: number) => {
          const now = Date.now();
          failingSince ??= now;
          if (started === undefined || now - failingSince < options.brokenRunnerAfterMs) {
            return;
          }
          if (databaseAnsweredAt !== undefined && now - databaseAnsweredAt >= confirmMs) {
            logger.error(
              { pool: options.pool },
              "the worker pool's runner fails every fetch of a job while the database answers; rebuilding it",
            );
            retire(started, () => workerPoolId);
            return;
          }
          if (probing || databaseAnsweredAt !== undefined) {
            return;
          }
          probing = true;
          // A plain query: it answers once the database is back, whatever the runner has cached.
          options
            .probeDatabase()
            .then(
              () => {
                if (failingSince !== undefined) databaseAnsweredAt ??= Date.now();
              },
              () => {},
            )
            .finally(() => {
              probing = false;
            });
        };
        events.on("worker:getJob:error", () => fetchFailed(BROKEN_RUNNER_CONFIRM_MS));
        // A local queue's failed fetch raises no event (graphile-worker logs it and polls again), but a
        // polling local queue whose fetches succeed answers at least every poll interval, so one silent
        // for `brokenRunnerAfterMs` (above the poll interval) is failing, and still silent that long
        // after the database answered, broken. A waiting one (jobs fetched, workers busy) fetches
        // nothing and is not judged.
        let localQueuePolling = false;
        let localQueueAnsweredAt = Date.now();
        events.on("localQueue:setMode", ({ newMode }) => {
          localQueuePolling = newMode === "POLLING";
          localQueueAnsweredAt = Date.now();
        });
        events.on("localQueue:getJobs:complete", () => {
          localQueueAnsweredAt = Date.now();
        });
        silenceCheck = setInterval(
          () => {
            if (localQueuePolling && Date.now() - localQueueAnsweredAt >= options.brokenRunnerAfterMs) {
              failingSince ??= localQueueAnsweredAt;
              fetchFailed(options.brokenRunnerAfterMs);
            }
          },
          Math.max(10, options.brokenRunnerAfterMs / 5),
        );
        silenceCheck.unref();
        started = await options.start(events);
        lastActivityAt = Date.now();
        if (stopping) {
          await started.stop();
          return;
        }
        runner = started;
        runnerPoolId = () => workerPoolId;
        watch(started, () => workerPoolId);
        beatOnce();
        return;
      } catch (error) {
        if (!isDatabaseUnavailable(error)) {
          throw error;
        }
        logger.warn(
          { pool: options.pool, err: error, retryInMs: delayMs },
          "database unavailable; the worker pool will try again",
        );
        await sleep(delayMs);
        delayMs = Math.min(delayMs * 2, options.retryDelayMs.max);
      }
    }
  };

  const runStartLoop = () => {
    startLoop = startRunner().catch((error: unknown) => {
      options.onFatal("the worker pool could not start", error);
    });
    return startLoop;
  };

  const watch = (watched: Runner, workerPoolId: () => string | undefined) => {
    watched.promise.then(
      () => retire(watched, workerPoolId),
      (error: unknown) => retire(watched, workerPoolId, error),
    );
  };

  /**
   * Replaces a runner that stopped, or began stopping, by itself. Its jobs (fetched, or in flight)
   * are unlocked once it has settled, so that the new runner takes them now rather than in hours.
   */
  const retire = (retired: Runner, workerPoolId: () => string | undefined, error?: unknown) => {
    if (stopping || runner !== retired) {
      return;
    }
    runner = undefined;
    clearInterval(silenceCheck);
    logger.error({ pool: options.pool, err: error }, "the worker pool's runner is stopping by itself; rebuilding it");
    // Also ends the retired runner's cron and queue-depth sampling; it rejects when already stopped.
    retired.stop().catch(() => {});
    void runStartLoop();
    let unlockStarted = false;
    const unlockOnce = () => {
      if (unlockStarted) {
        return;
      }
      unlockStarted = true;
      clearTimeout(graceTimer);
      const id = workerPoolId();
      if (id === undefined) {
        logger.error(
          { pool: options.pool },
          "the retired runner never reported its worker pool id; its jobs stay locked",
        );
        return;
      }
      void unlockEventually(id);
    };
    const graceTimer = setTimeout(unlockOnce, options.retiredRunnerGraceMs);
    graceTimer.unref();
    retired.promise.then(unlockOnce, unlockOnce);
  };

  const unlockEventually = async (workerPoolId: string) => {
    let delayMs = options.retryDelayMs.initial;
    while (!stopping) {
      try {
        await options.unlockWorkerPool(workerPoolId);
        logger.info({ pool: options.pool, workerPoolId }, "unlocked the jobs of the retired runner");
        return;
      } catch (error) {
        logger.warn(
          { pool: options.pool, err: error, retryInMs: delayMs },
          "unlocking the retired runner's jobs failed",
        );
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        delayMs = Math.min(delayMs * 2, options.retryDelayMs.max);
      }
    }
  };

  const liveness = async (): Promise<PoolLiveness> => {
    const status = await livenessOfRunner();
    return { ...status, detail: `${options.pool}: ${status.detail}` };
  };

  const livenessOfRunner = async (): Promise<PoolLiveness> => {
    if (stopping) {
      return { live: true, detail: "stopping" };
    }
    if (runner === undefined) {
      return { live: true, detail: "starting: waiting for the database" };
    }
    const idleMs = Date.now() - lastActivityAt;
    if (idleMs < options.stallAfterMs) {
      return { live: true, detail: "taking jobs" };
    }
    let oldestAgeSeconds: number;
    try {
      oldestAgeSeconds = await options.oldestRunnableAgeSeconds();
    } catch {
      // Without the database no pool can take jobs; restarting this one would not help.
      return { live: true, detail: "database unavailable" };
    }
    if (oldestAgeSeconds * 1000 < options.stallAfterMs) {
      return { live: true, detail: "idle" };
    }
    return {
      live: false,
      detail: `no job taken for ${Math.round(idleMs / 1000)} s while a job has been due for ${Math.round(oldestAgeSeconds)} s`,
    };
  };

  // The beat under way, if any: one at a time, and awaited by `stop` (its connection must be back
  // in the pool before the process closes it).
  let beat: Promise<void> | undefined;
  const beatOnce = () => {
    if (beat !== undefined || stopping) {
      return;
    }
    const id = runner === undefined ? undefined : runnerPoolId();
    beat = options
      .beat(id === undefined ? [] : [id])
      .then(
        (freed) => {
          if (freed.length > 0) {
            logger.warn(
              { pool: options.pool, freedWorkerPools: freed },
              "freed the jobs of worker pools that stopped beating (their processes died)",
            );
          }
        },
        (error: unknown) => {
          logger.warn({ pool: options.pool, err: error }, "the worker pool's heartbeat failed");
        },
      )
      .finally(() => {
        beat = undefined;
      });
  };
  const heartbeat = setInterval(beatOnce, options.beatIntervalMs);
  heartbeat.unref();

  let checking = false;
  const watchdog = setInterval(() => {
    if (checking) {
      return;
    }
    checking = true;
    liveness()
      .then((status) => {
        if (!status.live && !stopping) {
          options.onFatal(`the worker pool is stalled: ${status.detail}`);
        }
      })
      .finally(() => {
        checking = false;
      });
  }, options.checkIntervalMs);
  watchdog.unref();

  return {
    started: runStartLoop(),
    liveness,
    stop: async () => {
      stopping = true;
      clearInterval(watchdog);
      clearInterval(heartbeat);
      clearInterval(silenceCheck);
      wakeUp?.();
      await beat;
      await startLoop;
      await runner?.stop();
    },
  };
}
