import type { EventEmitter } from "node:events";
import type { Runner, WorkerEvents } from "graphile-worker";
import { createLogger } from "../telemetry/logger.ts";
import { superviseWorkerPool } from "./pool-supervisor.ts";

/**
 * The supervisor's decisions with runners it cannot tell from graphile-worker's: what it does when a
 * runner stops by itself and never finishes stopping (seen under load while the database was down).
 */

type FakeRunner = { runner: Runner; events: WorkerEvents; poolId: string; stopCalls: number };

function fakeRunners() {
  const started: FakeRunner[] = [];
  const start = async (events: WorkerEvents): Promise<Runner> => {
    const poolId = `pool-${started.length + 1}`;
    const fake: FakeRunner = { runner: undefined as unknown as Runner, events, poolId, stopCalls: 0 };
    fake.runner = {
      // Never settles: the retired runner's shutdown hangs.
      promise: new Promise<void>(() => {}),
      stop: async () => {
        fake.stopCalls += 1;
      },
    } as unknown as Runner;
    started.push(fake);
    (events as EventEmitter).emit("pool:create", { workerPool: { id: poolId } });
    return fake.runner;
  };
  return { started, start };
}

/** The runner the supervisor started first. */
function firstRunner(started: readonly FakeRunner[]): FakeRunner {
  const first = started[0];
  if (first === undefined) {
    throw new Error("no runner started");
  }
  return first;
}

async function until(description: string, condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${description}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function supervise(options: {
  start: (events: WorkerEvents) => Promise<Runner>;
  graceMs: number;
  probeDatabase?: () => Promise<void>;
  brokenRunnerAfterMs?: number;
}) {
  const unlocked: string[] = [];
  const beats: (readonly string[])[] = [];
  const pool = superviseWorkerPool({
    pool: "payout-processor",
    logger: createLogger({ level: "silent", service: "test" }),
    probeDatabase: options.probeDatabase ?? (async () => {}),
    start: options.start,
    unlockWorkerPool: async (workerPoolId) => {
      unlocked.push(workerPoolId);
    },
    retiredRunnerGraceMs: options.graceMs,
    brokenRunnerAfterMs: options.brokenRunnerAfterMs ?? 50,
    oldestRunnableAgeSeconds: async () => 0,
    stallAfterMs: 60_000,
    checkIntervalMs: 60_000,
    retryDelayMs: { initial: 1, max: 1 },
    onFatal: () => {},
    beat: async (workerPoolIds) => {
      beats.push(workerPoolIds);
      return [];
    },
    beatIntervalMs: 20,
  });
  return { pool, unlocked, beats };
}

test("a runner that stops by itself is replaced at once, and its jobs are unlocked at the deadline although it never settles", async () => {
  const runners = fakeRunners();
  const { pool, unlocked } = supervise({ start: runners.start, graceMs: 200 });
  await pool.started;
  const first = firstRunner(runners.started);
  const retiredAt = Date.now();
  (first.events as EventEmitter).emit("pool:gracefulShutdown", {});

  await until("a second runner", () => runners.started.length === 2);
  expect(first.stopCalls).toBe(1);
  await until("the retired runner's jobs to be unlocked", () => unlocked.length > 0);
  expect(Date.now() - retiredAt).toBeGreaterThanOrEqual(200);
  expect(unlocked).toEqual(["pool-1"]);
  await pool.stop();
});

test("a retired runner that settles has its jobs unlocked then, once, not again at the deadline", async () => {
  let settle: () => void = () => {};
  let count = 0;
  const start = async (events: WorkerEvents): Promise<Runner> => {
    count += 1;
    const poolId = `pool-${count}`;
    (events as EventEmitter).emit("pool:create", { workerPool: { id: poolId } });
    return {
      promise: new Promise<void>((resolve) => {
        if (count === 1) {
          settle = resolve;
        }
      }),
      stop: async () => {},
    } as unknown as Runner;
  };
  const { pool, unlocked } = supervise({ start, graceMs: 300 });
  await pool.started;
  settle();
  await until("the settled runner's jobs to be unlocked", () => unlocked.length > 0);
  expect(unlocked).toEqual(["pool-1"]);
  // Past the deadline: still unlocked once.
  const deadline = Date.now() + 400;
  await until("the deadline to pass", () => Date.now() > deadline);
  expect(unlocked).toEqual(["pool-1"]);
  await pool.stop();
});

/** Emits a failed fetch every 10 ms, as the runner's workers do each poll, until `stop` says so. */
function failFetches(runner: FakeRunner, stop: () => boolean): Promise<void> {
  return until("the fetches to end", () => {
    (runner.events as EventEmitter).emit("worker:getJob:error", {
      error: new Error("Connection terminated unexpectedly"),
    });
    return stop();
  });
}

test("a runner whose every fetch fails while the database answers is replaced (graphile-worker keeps a failed task lookup)", async () => {
  const runners = fakeRunners();
  const { pool } = supervise({ start: runners.start, graceMs: 60_000 });
  await pool.started;
  const first = firstRunner(runners.started);
  await failFetches(first, () => runners.started.length === 2);
  expect(first.stopCalls).toBe(1);
  await pool.stop();
});

test("fetches failing while the database does not answer leave the runner in place", async () => {
  const runners = fakeRunners();
  let probes = 0;
  const { pool } = supervise({
    start: runners.start,
    graceMs: 60_000,
    probeDatabase: async () => {
      probes += 1;
      // The start-up probe answers; the probes made because of failed fetches find the database down.
      if (probes > 1) throw new Error("connect ECONNREFUSED");
    },
  });
  await pool.started;
  const first = firstRunner(runners.started);
  // Past the 50 ms and the one-second confirmation: the database was asked again and again, never answering.
  const failingFrom = Date.now();
  await failFetches(first, () => Date.now() - failingFrom > 1_500);
  expect(probes).toBeGreaterThan(2);
  expect(runners.started).toHaveLength(1);
  expect(first.stopCalls).toBe(0);
  await pool.stop();
});

test("the supervisor beats for its live runner's worker pool, and for the new one after a rebuild", async () => {
  const runners = fakeRunners();
  const { pool, beats } = supervise({ start: runners.start, graceMs: 60_000 });
  await pool.started;
  await until("a beat for the first runner", () => beats.some((ids) => ids.includes("pool-1")));
  const first = firstRunner(runners.started);
  (first.events as EventEmitter).emit("pool:gracefulShutdown", {});
  await until("a second runner", () => runners.started.length === 2);
  const rebuiltAt = beats.length;
  await until("a beat for the second runner", () => beats.slice(rebuiltAt).some((ids) => ids.includes("pool-2")));
  // A retired runner's pool is no longer beaten for: another process frees its jobs once it is stale.
  await until("three more beats", () => beats.length >= rebuiltAt + 4);
  expect(beats.slice(rebuiltAt + 1).every((ids) => !ids.includes("pool-1"))).toBe(true);
  await pool.stop();
  const stoppedAt = beats.length;
  await new Promise((resolve) => setTimeout(resolve, 60));
  expect(beats.length).toBe(stoppedAt);
});

test("a runner whose local queue polls but never gets an answer while the database answers is replaced (its fetch errors raise no event)", async () => {
  const runners = fakeRunners();
  const { pool } = supervise({ start: runners.start, graceMs: 60_000 });
  await pool.started;
  const first = firstRunner(runners.started);
  (first.events as EventEmitter).emit("localQueue:setMode", { oldMode: "STARTING", newMode: "POLLING" });
  await until("a second runner", () => runners.started.length === 2);
  expect(first.stopCalls).toBe(1);
  await pool.stop();
});

test("a local queue that answers its polls, or waits with jobs fetched, is left in place", async () => {
  const runners = fakeRunners();
  // A limit far above this test's pauses between polls, so a busy machine cannot make them look silent.
  const { pool } = supervise({ start: runners.start, graceMs: 60_000, brokenRunnerAfterMs: 500 });
  await pool.started;
  const first = firstRunner(runners.started);
  const events = first.events as EventEmitter;
  events.emit("localQueue:setMode", { oldMode: "STARTING", newMode: "POLLING" });
  // Answered every few milliseconds for three times the limit.
  const answeringFrom = Date.now();
  await until("1.5 s of answered polls", () => {
    events.emit("localQueue:getJobs:complete", { jobs: [] });
    return Date.now() - answeringFrom > 1_500;
  });
  // Jobs fetched and every worker busy: the queue fetches nothing, for as long as the jobs take.
  events.emit("localQueue:setMode", { oldMode: "POLLING", newMode: "WAITING" });
  const waitingFrom = Date.now();
  await until("1.5 s of waiting", () => Date.now() - waitingFrom > 1_500);
  expect(runners.started).toHaveLength(1);
  expect(first.stopCalls).toBe(0);
  await pool.stop();
});
