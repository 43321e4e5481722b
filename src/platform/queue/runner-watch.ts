import { EventEmitter } from "node:events";
import type { Runner, WorkerEvents } from "graphile-worker";
import type { Logger } from "../telemetry/logger.ts";

/**
 * What one runner's events tell its supervisor: that it took or looked for work, that graphile-worker
 * began shutting it down by itself, or that it is broken (every fetch of a job fails while the database
 * answers; see pool-supervisor.ts for why that happens). One watch per runner, made before it starts.
 */
export type RunnerWatch = {
  /** The emitter to hand to the runner being started. */
  events: WorkerEvents;
  /** The runner's worker pool id, once graphile-worker has reported it. */
  workerPoolId: () => string | undefined;
  /** Polls a polling local queue for silence; the supervisor clears it when the runner goes. */
  silenceCheck: NodeJS.Timeout;
  /** Tells the watch which runner it watches, once `start` has answered. */
  attach: (runner: Runner) => void;
};

export type RunnerWatchOptions = {
  pool: string;
  logger: Logger;
  probeDatabase: () => Promise<void>;
  brokenRunnerAfterMs: number;
  /** A worker asked the queue for work and got an answer, a job or none. */
  onActivity: () => void;
  /** The runner stopped, or must stop: the supervisor retires it and starts another. */
  retire: (runner: Runner, workerPoolId: () => string | undefined) => void;
};

/**
 * How long after the database answered a fetch must still fail to condemn the runner: a healthy runner's
 * fetch already under way when the database came back may still fail once.
 */
const BROKEN_RUNNER_CONFIRM_MS = 1_000;

// Events that show a worker asking the queue for work and getting an answer, a job or none.
const ACTIVITY_EVENTS = ["worker:getJob:empty", "job:start", "job:complete", "localQueue:getJobs:complete"] as const;

export function watchRunner(options: RunnerWatchOptions): RunnerWatch {
  const events: WorkerEvents = new EventEmitter();
  let workerPoolId: string | undefined;
  let started: Runner | undefined;
  const retireStarted = () => {
    if (started !== undefined) {
      options.retire(started, () => workerPoolId);
    }
  };
  events.on("pool:create", ({ workerPool }) => {
    workerPoolId = workerPool.id;
  });
  // graphile-worker shuts its worker pool down by itself when it cannot record a job's outcome;
  // that shutdown may wait long for jobs in flight, so a new runner starts at once.
  events.on("pool:gracefulShutdown", () => {
    setImmediate(retireStarted);
  });
  const fetchFailed = watchFetches(events, options, {
    isStarted: () => started !== undefined,
    condemn: retireStarted,
  });
  const silenceCheck = watchLocalQueueSilence(events, options.brokenRunnerAfterMs, fetchFailed);
  return {
    events,
    workerPoolId: () => workerPoolId,
    silenceCheck,
    attach: (runner) => {
      started = runner;
    },
  };
}

/**
 * Records a fetch that failed (`since`: when a silent local queue last answered, for a failure that raised
 * no event), with how long after the database's answer one more failure condemns the runner.
 */
type FetchFailed = (confirmMs: number, since?: number) => void;

/**
 * Follows the runner's fetches of jobs. Once they have failed for `brokenRunnerAfterMs`, the database is
 * probed with a plain query; a fetch still failing `confirmMs` after it answered is the runner's fault.
 */
function watchFetches(
  events: WorkerEvents,
  options: RunnerWatchOptions,
  runner: { isStarted: () => boolean; condemn: () => void },
): FetchFailed {
  // Fetches failing since (undefined while they succeed), and when the database last answered a
  // probe made because of them. A fetch failing after that answer is the runner's fault.
  let failingSince: number | undefined;
  let databaseAnsweredAt: number | undefined;
  let probing = false;
  for (const event of ACTIVITY_EVENTS) {
    events.on(event, () => {
      options.onActivity();
      failingSince = undefined;
      databaseAnsweredAt = undefined;
    });
  }
  const fetchFailed: FetchFailed = (confirmMs, since) => {
    failingSince ??= since;
    const now = Date.now();
    failingSince ??= now;
    if (!runner.isStarted() || now - failingSince < options.brokenRunnerAfterMs) {
      return;
    }
    if (databaseAnsweredAt !== undefined && now - databaseAnsweredAt >= confirmMs) {
      options.logger.error(
        { pool: options.pool },
        "the worker pool's runner fails every fetch of a job while the database answers; rebuilding it",
      );
      runner.condemn();
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
  return fetchFailed;
}

/**
 * A local queue's failed fetch raises no event (graphile-worker logs it and polls again), but a
 * polling local queue whose fetches succeed answers at least every poll interval, so one silent
 * for `brokenRunnerAfterMs` (above the poll interval) is failing, and still silent that long
 * after the database answered, broken. A waiting one (jobs fetched, workers busy) fetches
 * nothing and is not judged.
 */
function watchLocalQueueSilence(
  events: WorkerEvents,
  brokenRunnerAfterMs: number,
  fetchFailed: FetchFailed,
): NodeJS.Timeout {
  let localQueuePolling = false;
  let localQueueAnsweredAt = Date.now();
  events.on("localQueue:setMode", ({ newMode }) => {
    localQueuePolling = newMode === "POLLING";
    localQueueAnsweredAt = Date.now();
  });
  events.on("localQueue:getJobs:complete", () => {
    localQueueAnsweredAt = Date.now();
  });
  const silenceCheck = setInterval(
    () => {
      if (localQueuePolling && Date.now() - localQueueAnsweredAt >= brokenRunnerAfterMs) {
        fetchFailed(brokenRunnerAfterMs, localQueueAnsweredAt);
      }
    },
    Math.max(10, brokenRunnerAfterMs / 5),
  );
  silenceCheck.unref();
  return silenceCheck;
}
