import type { JobHelpers, TaskSpec } from "graphile-worker";
import { loadConfig } from "../config.ts";
import type { Database } from "../db/pool.ts";
import { createLogger } from "../telemetry/logger.ts";
import { recurringTask } from "./recurring-task.ts";

type Enqueued = { identifier: string; payload: unknown; spec: TaskSpec | undefined };

/** Runs one job of the task with fake helpers; answers what it enqueued. */
async function runJob(
  payload: unknown,
  outcome: () => Promise<{ nextDueAt: Date | null; workLeft: boolean }>,
  batchJobs = 2,
  chainsMax: number | undefined = undefined,
): Promise<Enqueued[]> {
  const enqueued: Enqueued[] = [];
  const task = recurringTask({
    identifier: "sweep",
    intervalMs: { min: 200, max: 1000 },
    run: outcome,
    ...(chainsMax === undefined ? {} : { chainsMax }),
  });
  const config = loadConfig({ NODE_ENV: "test", WORKER_BATCH_JOBS: String(batchJobs) });
  const handler = task.build({
    config,
    database: {} as Database,
    logger: createLogger({ level: "silent", service: "test" }),
  });
  const helpers = {
    addJob: async (identifier: string, jobPayload: unknown, spec?: TaskSpec) => {
      enqueued.push({ identifier, payload: jobPayload, spec });
      return {};
    },
  } as unknown as JobHelpers;
  await Promise.resolve()
    .then(() => handler(payload, helpers))
    .catch(() => {});
  return enqueued;
}

/** Runs a chain's job; answers its one successor and the bounds its run time must lie within. */
async function successorOf(chain: number, outcome: () => Promise<{ nextDueAt: Date | null; workLeft: boolean }>) {
  const started = Date.now();
  const enqueued = await runJob({ chain }, outcome);
  const ended = Date.now();
  expect(enqueued).toHaveLength(1);
  const [successor] = enqueued;
  const runAt = successor?.spec?.runAt?.getTime() ?? 0;
  // Between the run's start and end plus the expected delay, whatever the machine's pauses.
  return { successor, within: (delayMs: number) => runAt >= started + delayMs && runAt <= ended + delayMs };
}

test("a chain's job enqueues its successor under its own key, when the next work falls due, within the interval", async () => {
  const soon = await successorOf(1, async () => ({ nextDueAt: new Date(Date.now() + 500), workLeft: false }));
  expect(soon.successor?.identifier).toBe("sweep");
  expect(soon.successor?.payload).toEqual({ chain: 1 });
  expect(soon.successor?.spec?.jobKey).toBe("sweep:1");
  expect(soon.within(500)).toBe(true);
  // Nothing waiting: the longest interval.
  expect((await successorOf(0, async () => ({ nextDueAt: null, workLeft: false }))).within(1000)).toBe(true);
  // Due long ago or work left: the shortest (a run is never back to back with the last).
  expect((await successorOf(0, async () => ({ nextDueAt: new Date(0), workLeft: false }))).within(200)).toBe(true);
  expect((await successorOf(0, async () => ({ nextDueAt: null, workLeft: true }))).within(200)).toBe(true);
});

test("a failed run still enqueues its successor", async () => {
  const enqueued = await runJob({ chain: 0 }, async () => {
    throw new Error("database away");
  });
  expect(enqueued.map((job) => job.spec?.jobKey)).toEqual(["sweep:0"]);
});

test("the cron's run restores every chain without moving those waiting; a chain beyond the count ends", async () => {
  const restored = await runJob({}, async () => ({ nextDueAt: null, workLeft: false }), 3);
  expect(restored.map((job) => [job.spec?.jobKey, job.spec?.jobKeyMode, job.payload])).toEqual([
    ["sweep:0", "preserve_run_at", { chain: 0 }],
    ["sweep:1", "preserve_run_at", { chain: 1 }],
    ["sweep:2", "preserve_run_at", { chain: 2 }],
  ]);
  expect(await runJob({ chain: 3 }, async () => ({ nextDueAt: null, workLeft: false }), 3)).toEqual([]);
});

test("a task's own chainsMax bounds its chains below WORKER_BATCH_JOBS, never above it", async () => {
  const idle = async () => ({ nextDueAt: null, workLeft: false });
  const restored = await runJob({}, idle, 4, 1);
  expect(restored.map((job) => job.spec?.jobKey)).toEqual(["sweep:0"]);
  expect(await runJob({ chain: 1 }, idle, 4, 1)).toEqual([]);
  expect((await runJob({ chain: 0 }, idle, 4, 1)).map((job) => job.spec?.jobKey)).toEqual(["sweep:0"]);
  expect((await runJob({}, idle, 2, 8)).map((job) => job.spec?.jobKey)).toEqual(["sweep:0", "sweep:1"]);
});
