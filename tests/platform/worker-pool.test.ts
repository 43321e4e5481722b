import type pg from "pg";
import { Registry } from "prom-client";
import { z } from "zod";
import { freePort } from "../../src/platform/db/embedded.ts";
import { sql } from "../../src/platform/db/pool.ts";
import { addJob } from "../../src/platform/queue/add-job.ts";
import { beatAndFreeDeadPools } from "../../src/platform/queue/heartbeat.ts";
import { createWorkerPgPool } from "../../src/platform/queue/pg-pool.ts";
import { sampleQueueDepth } from "../../src/platform/queue/queue-depth.ts";
import type { TaskDefinition } from "../../src/platform/queue/task.ts";
import {
  isWorkerDatabaseUnavailable,
  startWorkerPool,
  workerPgPoolSize,
} from "../../src/platform/queue/worker-pool.ts";
import { createLogger } from "../../src/platform/telemetry/logger.ts";
import { testConfig } from "../support/app.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { startServiceProcess } from "../support/service-process.ts";

let db: TestDatabase;
let pgPool: pg.Pool;

beforeAll(async () => {
  db = await createTestDatabase();
  pgPool = createWorkerPgPool({
    url: db.url,
    size: 6,
    applicationName: "test",
    logger: createLogger({ level: "silent", service: "test" }),
  });
  await db.database.query(
    sql.unsafe`CREATE TABLE job_log (job text NOT NULL, event text NOT NULL, at timestamptz DEFAULT clock_timestamp())`,
  );
});
afterAll(async () => {
  await pgPool.end();
  await db.close();
});

const events = () =>
  db.database.any(
    sql.type(z.object({ job: z.string(), event: z.string() }))`SELECT job, event FROM job_log ORDER BY at`,
  );
const queued = (task: string) =>
  db.database.oneFirst(sql.type(z.object({ count: z.number() }))`
    SELECT count(*)::int AS count FROM graphile_worker.jobs WHERE task_identifier = ${task}`);

/** The slow job's work, which goes on until the test lets it finish. */
let finishSlowJob = () => {};
const slowJob: TaskDefinition = {
  identifier: "test_slow_job",
  build:
    ({ database }) =>
    async (payload) => {
      const { name } = z.object({ name: z.string() }).parse(payload);
      await database.query(sql.unsafe`INSERT INTO job_log (job, event) VALUES (${name}, 'started')`);
      await new Promise<void>((resolve) => {
        finishSlowJob = resolve;
      });
      await database.query(sql.unsafe`INSERT INTO job_log (job, event) VALUES (${name}, 'finished')`);
    },
};

test("a pool stopped with a job in flight lets the job finish, and never takes other pools' tasks", async () => {
  const config = testConfig(db.url, { WORKER_POLL_INTERVAL_MS: "100" });
  const runner = await startWorkerPool({
    pool: "payout-processor",
    tasks: [slowJob],
    dependencies: { config, database: db.database, logger: createLogger({ level: "silent", service: "test" }) },
    pgPool,
    registry: new Registry(),
  });
  await db.database.transaction(async (transaction) => {
    await addJob(transaction, { task: "test_slow_job", payload: { name: "first" }, maxAttempts: 3 });
    await addJob(transaction, { task: "another_pools_task", payload: {}, maxAttempts: 3 });
  });
  const deadline = Date.now() + 30_000;
  while ((await events()).length === 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(await events()).toEqual([{ job: "first", event: "started" }]);

  // Asked to stop with the job in flight, the pool waits for it (for as long as the test holds it).
  const stopping = runner.stop();
  const stoppedFirst = await Promise.race([
    stopping.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 200)),
  ]);
  expect(stoppedFirst).toBe(false);
  finishSlowJob();
  await stopping;

  expect(await events()).toEqual([
    { job: "first", event: "started" },
    { job: "first", event: "finished" },
  ]);
  expect(await queued("test_slow_job")).toBe(0);
  // The other identifier is not this pool's: still queued, untouched.
  expect(await queued("another_pools_task")).toBe(1);
});

test("addJob inside a rolled-back transaction leaves no job", async () => {
  await expect(
    db.database.transaction(async (transaction) => {
      await addJob(transaction, { task: "test_rolled_back", payload: {}, maxAttempts: 1 });
      throw new Error("roll back");
    }),
  ).rejects.toThrow("roll back");
  expect(await queued("test_rolled_back")).toBe(0);
});

test("a pool service serves /healthz and /metrics and exits 0 on SIGTERM", async () => {
  const port = await freePort();
  const service = startServiceProcess("services/code-expiry/main.ts", {
    DATABASE_URL: db.url,
    WORKER_HTTP_PORT: String(port),
    LOG_LEVEL: "info",
  });
  let code: number | null;
  try {
    await service.waitForOutput("worker ops server listening");
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(await health.json()).toEqual({ status: "ok" });
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(ready.status).toBe(200);
    const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    expect(metrics).toContain('service="code-expiry"');
    // The backlog gauges are sampled at start (and then on a timer).
    expect(metrics).toMatch(/worker_queue_runnable_jobs\{[^}]*pool="code-expiry"[^}]*\} \d+/);
    expect(metrics).toMatch(/worker_queue_oldest_runnable_job_age_seconds\{[^}]*pool="code-expiry"/);
    expect(service.output()).toContain("purge_idempotency_keys");
  } finally {
    code = await service.stop();
  }
  expect(code).toBe(0);
});

test("queue depth: only the pool's runnable jobs count, and the oldest one's wait is measured", async () => {
  await db.database.transaction(async (transaction) => {
    const past = new Date(Date.now() - 60_000);
    await addJob(transaction, { task: "depth_task_a", payload: {}, runAt: past, maxAttempts: 3 });
    await addJob(transaction, { task: "depth_task_a", payload: {}, maxAttempts: 3 });
    await addJob(transaction, { task: "depth_task_b", payload: {}, maxAttempts: 3 });
    // Not runnable yet, and another pool's task: neither counts.
    await addJob(transaction, {
      task: "depth_task_a",
      payload: {},
      runAt: new Date(Date.now() + 60_000),
      maxAttempts: 3,
    });
    await addJob(transaction, { task: "depth_task_other", payload: {}, maxAttempts: 3 });
  });
  const depth = await sampleQueueDepth(pgPool, ["depth_task_a", "depth_task_b"]);
  expect(depth.runnableJobs).toBe(3);
  expect(depth.oldestRunnableAgeSeconds).toBeGreaterThanOrEqual(59);
  expect(depth.oldestRunnableAgeSeconds).toBeLessThan(120);
  expect(await sampleQueueDepth(pgPool, ["depth_task_missing"])).toEqual({
    runnableJobs: 0,
    oldestRunnableAgeSeconds: 0,
  });
});

test("job metrics: started, succeeded, retried while attempts remain, failed when none do", async () => {
  const config = testConfig(db.url, { WORKER_POLL_INTERVAL_MS: "100" });
  const registry = new Registry();
  const failing: TaskDefinition = {
    identifier: "test_failing_job",
    build: () => async () => {
      throw new Error("always fails");
    },
  };
  const succeeding: TaskDefinition = { identifier: "test_succeeding_job", build: () => async () => {} };
  const runner = await startWorkerPool({
    pool: "payout-processor",
    tasks: [failing, succeeding],
    dependencies: { config, database: db.database, logger: createLogger({ level: "silent", service: "test" }) },
    pgPool,
    registry,
  });
  const value = async (task: string, outcome: string) => {
    const metric = registry.getSingleMetric("worker_jobs_total");
    const values = (await metric?.get())?.values ?? [];
    return values.find((sample) => sample.labels.task === task && sample.labels.outcome === outcome)?.value ?? 0;
  };
  try {
    await db.database.transaction(async (transaction) => {
      await addJob(transaction, { task: "test_failing_job", payload: { n: 1 }, maxAttempts: 1 });
      await addJob(transaction, { task: "test_failing_job", payload: { n: 2 }, maxAttempts: 5 });
      await addJob(transaction, { task: "test_succeeding_job", payload: {}, maxAttempts: 1 });
    });
    const deadline = Date.now() + 30_000;
    while ((await value("test_failing_job", "started")) < 2 || (await value("test_succeeding_job", "succeeded")) < 1) {
      if (Date.now() > deadline) {
        throw new Error("jobs did not run");
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await value("test_failing_job", "failed")).toBe(1);
    expect(await value("test_failing_job", "retried")).toBe(1);
    expect(await value("test_succeeding_job", "started")).toBe(1);
  } finally {
    await runner.stop();
  }
});

test("a client checked out with a callback may be released twice, as graphile-worker's LISTEN client is when the database goes away while its runner stops", async () => {
  const released = await new Promise<{ idle: number; total: number }>((resolve, reject) => {
    pgPool.connect((error, _client, release) => {
      if (error !== undefined) {
        reject(error);
        return;
      }
      try {
        release();
        // pg-pool itself throws here ("Release called on client which has already been released").
        release();
        resolve({ idle: pgPool.idleCount, total: pgPool.totalCount });
      } catch (releaseError) {
        reject(releaseError);
      }
    });
  });
  expect(released.idle).toBe(released.total);
  // The client came back once: the next checkout gets it and the pool still answers.
  const client = await pgPool.connect();
  try {
    expect((await client.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
  } finally {
    client.release();
  }
});

test("a worker process survives the database's unavailability and a stopped local queue's failed hand-back, and nothing else", () => {
  const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
  const handBack = new Error(
    "Error occurred whilst returning jobs from local queue to database queue; some jobs may remain locked",
  );
  expect(isWorkerDatabaseUnavailable(refused)).toBe(true);
  expect(isWorkerDatabaseUnavailable(handBack)).toBe(true);
  expect(isWorkerDatabaseUnavailable(new TypeError("Cannot read properties of undefined"))).toBe(false);
  expect(isWorkerDatabaseUnavailable("Error occurred whilst returning jobs from local queue")).toBe(false);
});

test("graphile-worker's pg pool: a connection per worker without a local queue, at most 8 with one", () => {
  expect(workerPgPoolSize({ concurrency: 1, localQueueSize: 0 })).toBe(4);
  expect(workerPgPoolSize({ concurrency: 5, localQueueSize: 0 })).toBe(7);
  expect(workerPgPoolSize({ concurrency: 40, localQueueSize: 1 })).toBe(42);
  expect(workerPgPoolSize({ concurrency: 5, localQueueSize: 5 })).toBe(7);
  expect(workerPgPoolSize({ concurrency: 40, localQueueSize: 80 })).toBe(8);
});

test("heartbeats: a worker pool silent past the limit has its locked jobs freed and is forgotten; live and unknown pools keep theirs", async () => {
  const lockedJob = async (lockedBy: string) => {
    const added = await pgPool.query<{ id: string }>(
      "SELECT id FROM graphile_worker.add_job('test_heartbeat_job', json_build_object('by', $1::text))",
      [lockedBy],
    );
    const id = added.rows[0]?.id as string;
    await pgPool.query("UPDATE graphile_worker._private_jobs SET locked_at = now(), locked_by = $2 WHERE id = $1", [
      id,
      lockedBy,
    ]);
    return id;
  };
  const deadJob = await lockedJob("pool-dead");
  const liveJob = await lockedJob("pool-live");
  const unknownJob = await lockedJob("pool-never-beat");
  await pgPool.query(
    `INSERT INTO worker_pool_heartbeats (worker_pool_id, pool, beat_at)
     VALUES ('pool-dead', 'test', now() - interval '61 seconds'), ('pool-live', 'test', now() - interval '59 seconds')`,
  );
  const lockedBy = async () =>
    Object.fromEntries(
      (
        await pgPool.query<{ id: string; locked_by: string | null }>(
          "SELECT id, locked_by FROM graphile_worker._private_jobs WHERE id = ANY($1::bigint[])",
          [[deadJob, liveJob, unknownJob]],
        )
      ).rows.map((row) => [row.id, row.locked_by]),
    );

  const freed = await beatAndFreeDeadPools(pgPool, { pool: "test", workerPoolIds: ["pool-me"], deadAfterMs: 60_000 });

  expect(freed).toEqual(["pool-dead"]);
  expect(await lockedBy()).toEqual({
    [deadJob]: null,
    [liveJob]: "pool-live",
    [unknownJob]: "pool-never-beat",
  });
  const beating = await pgPool.query<{ worker_pool_id: string }>(
    // Only this test's pools: the pool service started above beats here too.
    "SELECT worker_pool_id FROM worker_pool_heartbeats WHERE pool = 'test' ORDER BY worker_pool_id",
  );
  expect(beating.rows.map((row) => row.worker_pool_id)).toEqual(["pool-live", "pool-me"]);
  // The next beat finds nobody dead: the freed pool was forgotten, the beating one is fresh.
  expect(await beatAndFreeDeadPools(pgPool, { pool: "test", workerPoolIds: ["pool-me"], deadAfterMs: 60_000 })).toEqual(
    [],
  );
  await pgPool.query("DELETE FROM graphile_worker._private_jobs WHERE id = ANY($1::bigint[])", [
    [deadJob, liveJob, unknownJob],
  ]);
});
