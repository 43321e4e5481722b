import { Registry } from "prom-client";
import { testConfig } from "../../../tests/support/app.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/database.ts";
import { waitUntil } from "../../../tests/support/time.ts";
import { sql } from "../db/pool.ts";
import { createLogger } from "../telemetry/logger.ts";
import { type PumpDefinition, type PumpItem, startPump } from "./due-pump.ts";

const logger = createLogger({ level: "silent", service: "test" });
const CHANNEL = "pump_test_due";
let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.close());

/** A pump over claims the test decides, counted; at most `concurrency` items at once. */
function pumpOver(
  claim: (limit: number) => Promise<readonly PumpItem[]>,
  options: { concurrency: number; idleIntervalMs: number; stallAfterMs?: number },
) {
  const definition: PumpDefinition = {
    name: "test_pump",
    task: "test_item",
    channel: CHANNEL,
    build: () => ({ claim, backlog: async () => ({ runnableJobs: 0, oldestRunnableAgeSeconds: 0 }) }),
  };
  const config = testConfig(db.url);
  return startPump({
    pool: "webhook-delivery",
    definition,
    dependencies: { config, database: db.database, logger },
    databaseUrl: db.url,
    registry: new Registry(),
    concurrency: options.concurrency,
    idleIntervalMs: options.idleIntervalMs,
    stallAfterMs: options.stallAfterMs ?? 60_000,
    shutdownTimeoutMs: 5000,
  });
}

const itemOf = (id: string, run: () => Promise<unknown>): PumpItem => ({ id, attempt: 1, traceparent: null, run });

test("an announcement on the channel wakes the pump: it claims without waiting for its interval", async () => {
  const queue: string[] = [];
  const done: string[] = [];
  let claims = 0;
  // An hour between looks: only the announcement (or the look at start) can make it claim.
  const pump = pumpOver(
    async (limit) => {
      claims += 1;
      return queue.splice(0, limit).map((id) => itemOf(id, async () => done.push(id)));
    },
    { concurrency: 5, idleIntervalMs: 3_600_000 },
  );
  try {
    // The look at start, and the one after the listening connection is up, find nothing.
    await waitUntil("the pump has looked after listening", () => claims >= 2);
    queue.push("a", "b");
    await db.database.query(sql.unsafe`SELECT pg_notify(${CHANNEL}, '')`);
    await waitUntil("the announced items are done", () => done.length === 2, { timeoutMs: 20_000 });
    expect(done.sort()).toEqual(["a", "b"]);
    expect(pump.liveness().live).toBe(true);
  } finally {
    await pump.stop();
  }
});

test("at most `concurrency` items run at once; a full claim is followed by more until none is due", async () => {
  const queue = Array.from({ length: 23 }, (_, index) => `item-${index}`);
  const done: string[] = [];
  const limits: number[] = [];
  let running = 0;
  let mostAtOnce = 0;
  const pump = pumpOver(
    async (limit) => {
      limits.push(limit);
      return queue.splice(0, limit).map((id) =>
        itemOf(id, async () => {
          running += 1;
          mostAtOnce = Math.max(mostAtOnce, running);
          await new Promise((resolve) => setImmediate(resolve));
          running -= 1;
          done.push(id);
        }),
      );
    },
    { concurrency: 4, idleIntervalMs: 3_600_000 },
  );
  try {
    await waitUntil("every item is done", () => done.length === 23, { timeoutMs: 20_000 });
    expect(mostAtOnce).toBeLessThanOrEqual(4);
    expect(Math.max(...limits)).toBeLessThanOrEqual(4);
    expect(new Set(done).size).toBe(23);
  } finally {
    await pump.stop();
  }
});

test("a claim that fails (the database away) is tried again until it succeeds; a failing item does not stop the pump", async () => {
  let failuresLeft = 2;
  let served = false;
  const done: string[] = [];
  const pump = pumpOver(
    async () => {
      if (failuresLeft > 0) {
        failuresLeft -= 1;
        throw new Error("Connection terminated unexpectedly");
      }
      if (served) {
        return [];
      }
      served = true;
      return [
        itemOf("fails", async () => {
          throw new Error("the receiver is down");
        }),
        itemOf("succeeds", async () => done.push("succeeds")),
      ];
    },
    { concurrency: 2, idleIntervalMs: 3_600_000 },
  );
  try {
    // Two failed claims, retried after 0.5 s and 1 s: no announcement and no interval is needed.
    await waitUntil("the item after the failed claims is done", () => done.length === 1, { timeoutMs: 20_000 });
    expect(failuresLeft).toBe(0);
    expect(pump.liveness().live).toBe(true);
  } finally {
    await pump.stop();
  }
});

test("stop waits for the items in flight and claims nothing after", async () => {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let claims = 0;
  let finished = false;
  let started = false;
  const pump = pumpOver(
    async () => {
      claims += 1;
      return claims === 1
        ? [
            itemOf("slow", async () => {
              started = true;
              await held;
              finished = true;
            }),
          ]
        : [];
    },
    { concurrency: 1, idleIntervalMs: 10 },
  );
  await waitUntil("the item has started", () => started);
  const stopping = pump.stop();
  release();
  await stopping;
  expect(finished).toBe(true);
  const claimsAtStop = claims;
  await db.database.query(sql.unsafe`SELECT pg_notify(${CHANNEL}, '')`);
  // A round trip later, any claim the announcement or a timer could have caused would have started.
  await db.database.query(sql.unsafe`SELECT 1`);
  expect(claims).toBe(claimsAtStop);
});

test("a claim that hangs makes the pump not live once it has hung for the stall time", async () => {
  let release: () => void = () => {};
  const hung = new Promise<readonly PumpItem[]>((resolve) => {
    release = () => resolve([]);
  });
  const pump = pumpOver(() => hung, { concurrency: 1, idleIntervalMs: 3_600_000, stallAfterMs: 300 });
  try {
    expect(pump.liveness().live).toBe(true);
    await waitUntil("the pump reports the hung claim", () => !pump.liveness().live, { timeoutMs: 20_000 });
    expect(pump.liveness().detail).toMatch(/no claim for/);
    release();
    await waitUntil("the pump is live again once the claim ends", () => pump.liveness().live, { timeoutMs: 20_000 });
  } finally {
    release();
    await pump.stop();
  }
});
