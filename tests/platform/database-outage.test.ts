import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import type pg from "pg";
import pino from "pino";
import { Registry } from "prom-client";
import request from "supertest";
import { z } from "zod";
import {
  controlEmbeddedPostgres,
  type EmbeddedCluster,
  startEmbeddedPostgres,
} from "../../src/platform/db/embedded.ts";
import { migrate } from "../../src/platform/db/migrate.ts";
import { createDatabase, type Database, sql } from "../../src/platform/db/pool.ts";
import { addJob } from "../../src/platform/queue/add-job.ts";
import { createWorkerPgPool } from "../../src/platform/queue/pg-pool.ts";
import type { SupervisedPool } from "../../src/platform/queue/pool-supervisor.ts";
import type { TaskDefinition } from "../../src/platform/queue/task.ts";
import { startSupervisedWorkerPool } from "../../src/platform/queue/worker-pool.ts";
import { createLogger } from "../../src/platform/telemetry/logger.ts";
import { testApp, testConfig } from "../support/app.ts";
import { newMerchant } from "../support/factories.ts";

/**
 * Faults of the database itself, on a PostgreSQL cluster of this test's own (the shared server is
 * never stopped): the worker pools wait for it and resume, the API answers 503 meanwhile.
 */

let directory: string;
let cluster: EmbeddedCluster;
let control: Awaited<ReturnType<typeof controlEmbeddedPostgres>>;
let database: Database;
let pgPool: pg.Pool;
const silent = createLogger({ level: "silent", service: "test" });

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), "pos-outage-"));
  // As root, the server runs as the postgres user, who must reach the data directory.
  await chmod(directory, 0o755);
  const dataDirectory = path.join(directory, "data");
  cluster = await startEmbeddedPostgres({ dataDirectory });
  control = await controlEmbeddedPostgres(cluster.dataDirectory);
  await migrate({ databaseUrl: cluster.url("postgres"), logger: silent });
  database = await createDatabase({
    url: cluster.url("postgres"),
    poolSize: 4,
    statementTimeoutMs: 10_000,
    logger: silent,
    applicationName: "test",
  });
  pgPool = createWorkerPgPool({ url: cluster.url("postgres"), size: 6, applicationName: "test", logger: silent });
  await database.query(sql.unsafe`CREATE TABLE job_log (job text NOT NULL, event text NOT NULL)`);
}, 120_000);

afterAll(async () => {
  await pgPool?.end();
  await database?.end();
  await cluster?.stop();
  await rm(directory, { recursive: true, force: true });
});

async function waitFor(description: string, condition: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition().catch(() => false)) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${description}`);
}

const logged = (job: string, event: string) =>
  database.exists(sql.unsafe`SELECT 1 FROM job_log WHERE job = ${job} AND event = ${event}`);
const jobsLeft = () =>
  database.oneFirst(sql.type(z.object({ count: z.number() }))`SELECT count(*)::int AS count FROM graphile_worker.jobs`);

/** A job that logs its start, then waits for the test to open its gate before it completes. */
let openGate: () => void = () => {};
let gate = Promise.resolve();
const gatedJob: TaskDefinition = {
  identifier: "test_gated",
  build: () => async (payload) => {
    const { name } = z.object({ name: z.string() }).parse(payload);
    // The log goes through the pg pool: the slonik pool may still hold a connection the outage cut.
    await pgPool.query("INSERT INTO job_log (job, event) VALUES ($1, 'started')", [name]);
    await gate;
  },
};
const quickJob: TaskDefinition = {
  identifier: "test_quick",
  build: () => async (payload) => {
    const { name } = z.object({ name: z.string() }).parse(payload);
    await pgPool.query("INSERT INTO job_log (job, event) VALUES ($1, 'done')", [name]);
  },
};

function supervisedPool(options: { logs?: string[]; environment?: Record<string, string>; fatal?: string[] }) {
  const logs = options.logs ?? [];
  const logger = pino(
    { level: "info" },
    new Writable({
      write(chunk, _encoding, callback) {
        logs.push(String(chunk));
        callback();
      },
    }),
  );
  const config = testConfig(cluster.url("postgres"), {
    WORKER_POLL_INTERVAL_MS: "200",
    // A retired runner's shutdown waits this long for jobs in flight; its jobs are unlocked when it
    // settles, or at the latest 10 s after this timeout.
    WORKER_SHUTDOWN_TIMEOUT_SECONDS: "2",
    ...options.environment,
  });
  return startSupervisedWorkerPool({
    pool: "payout-processor",
    tasks: [gatedJob, quickJob],
    dependencies: { config, database, logger },
    pgPool,
    registry: new Registry(),
    onFatal: (reason) => {
      options.fatal?.push(reason);
    },
  });
}

// Under load the retired runner was seen never to settle; its jobs are then unlocked at the
// supervisor's deadline (the shutdown timeout plus a margin) instead of waiting for it.
test("a pool whose job finished while the database was down rebuilds its runner and takes jobs again", async () => {
  const logs: string[] = [];
  const pool = supervisedPool({ logs });
  try {
    await pool.started;
    gate = new Promise((resolve) => {
      openGate = resolve;
    });
    await database.transaction((transaction) =>
      addJob(transaction, { task: "test_gated", payload: { name: "in-flight" }, maxAttempts: 5 }),
    );
    await waitFor("the gated job to start", () => logged("in-flight", "started"));

    await control.stop("fast");
    // The job completes while the database is down: graphile-worker cannot mark it complete and
    // shuts its runner down.
    openGate();
    await waitFor("the runner to stop by itself", async () => logs.some((line) => line.includes("rebuilding it")));
    await control.start();

    await database.transaction((transaction) =>
      addJob(transaction, { task: "test_quick", payload: { name: "after" }, maxAttempts: 5 }),
    );
    await waitFor("a job added after the outage to run", () => logged("after", "done"));
    // The job the stopped runner held is unlocked and run again, not left locked for hours.
    await waitFor("every job to be done", async () => (await jobsLeft()) === 0, 120_000);
    expect(await pool.liveness()).toMatchObject({ live: true });
  } finally {
    openGate();
    await pool.stop();
  }
}, 240_000);

test("a pool started while the database is down starts working once it is up", async () => {
  const logs: string[] = [];
  await control.stop("immediate");
  const pool = supervisedPool({ logs });
  try {
    await waitFor("the pool to wait for the database", async () =>
      logs.some((line) => line.includes("database unavailable; the worker pool will try again")),
    );
    await control.start();
    await pool.started;
    await database.transaction((transaction) =>
      addJob(transaction, { task: "test_quick", payload: { name: "late start" }, maxAttempts: 5 }),
    );
    await waitFor("the job to run", () => logged("late start", "done"));
  } finally {
    await pool.stop();
  }
}, 120_000);

test("a pool that takes no job although jobs are due is not live, and says so through onFatal", async () => {
  gate = new Promise((resolve) => {
    openGate = resolve;
  });
  const fatal: string[] = [];
  const pool: SupervisedPool = supervisedPool({
    fatal,
    environment: { WORKER_CONCURRENCY: "1", WORKER_STALL_TIMEOUT_SECONDS: "2" },
  });
  try {
    await pool.started;
    // The only worker is held by a job that never ends; another job waits behind it.
    await database.transaction((transaction) =>
      addJob(transaction, { task: "test_gated", payload: { name: "stuck" }, maxAttempts: 5 }),
    );
    await waitFor("the stuck job to start", () => logged("stuck", "started"));
    await database.transaction((transaction) =>
      addJob(transaction, { task: "test_quick", payload: { name: "waiting" }, maxAttempts: 5 }),
    );
    await waitFor("the pool to report a stall", async () => !(await pool.liveness()).live);
    expect((await pool.liveness()).detail).toMatch(
      /^payout-processor: no job taken for \d+ s while a job has been due/,
    );
    await waitFor("the watchdog to call onFatal", async () => fatal.length > 0);
    expect(fatal[0]).toMatch(/stalled/);
  } finally {
    openGate();
    await pool.stop();
  }
}, 120_000);

test("the API answers 503 service_unavailable while the database is down, and serves again once it is up", async () => {
  const merchant = await newMerchant(database);
  const app = testApp({ database, config: testConfig(cluster.url("postgres")) });
  const createPayment = (key: string) =>
    request(app)
      .post("/v1/payments")
      .set("Authorization", `Bearer ${merchant.testKey}`)
      .set("Idempotency-Key", key)
      .send({ amount_cents: 1500 });
  const before = await createPayment("before-outage");
  expect(before.status).toBe(201);

  await control.stop("immediate");
  try {
    const during = await createPayment("during-outage");
    expect(during.status).toBe(503);
    expect(during.headers["retry-after"]).toBeDefined();
    expect(during.body).toEqual({
      error: { type: "api_error", code: "service_unavailable", message: expect.any(String) },
    });
    const read = await request(app)
      .get(`/v1/payments/${before.body.id}`)
      .set("Authorization", `Bearer ${merchant.testKey}`);
    expect(read.status).toBe(503);
    expect(read.body.error.code).toBe("service_unavailable");
  } finally {
    await control.start();
  }
  await waitFor("the API to serve again", async () => (await createPayment("after-outage")).status === 201);
  // The 503 kept nothing of the request: its retry with the same key runs.
  expect((await createPayment("during-outage")).status).toBe(201);
}, 120_000);
