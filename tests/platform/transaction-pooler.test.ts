import { randomUUID } from "node:crypto";
import type { Server } from "node:http";
import pg from "pg";
import { z } from "zod";
import { runScenario, violations } from "../../load-tests/runner.ts";
import { scenarios } from "../../load-tests/scenarios.ts";
import { freePort } from "../../src/platform/db/embedded.ts";
import { createConfiguredDatabase, createDatabase, type Database, sql } from "../../src/platform/db/pool.ts";
import { closeGracefully, listen } from "../../src/platform/http/server.ts";
import { createLogger } from "../../src/platform/telemetry/logger.ts";
import { testApp, testConfig } from "../support/app.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { fund, newMerchant } from "../support/factories.ts";
import { type PgBouncer, startPgBouncer } from "../support/pgbouncer.ts";
import { shopDay } from "../support/shop-http.ts";
import { waitUntil } from "../support/time.ts";

/**
 * The API through Debian's PgBouncer in `pool_mode = transaction` (1.18: no prepared statements kept
 * across transactions), with `DATABASE_PREPARED_STATEMENTS=false` and its LISTEN connection direct, as
 * the chart wires it (NOTIFICATIONS_DATABASE_URL on the session path). Three server connections serve
 * the API's ten, so transactions of different clients share server sessions as in production. Every
 * path must answer as it does direct: no 500, whatever statement or session state it relies on.
 */

let db: TestDatabase;
let bouncer: PgBouncer;
let pooled: Database;
let server: Server;
let baseUrl: string;
/** Every status the API answered through the pooler, by request, for the no-5xx check at the end. */
const answered: { request: string; status: number }[] = [];

/** Above the 43 requests each merchant of the load test makes (20 payments, 3 products, 20 sales). */
const RATE_LIMIT = 50;

beforeAll(async () => {
  db = await createTestDatabase();
  // What a transaction pooler cannot carry from the connection's start-up, the database provides
  // (k8s/base/cnpg/cluster.yaml does the same).
  const admin = new pg.Client({ connectionString: db.url });
  await admin.connect();
  await admin.query(`ALTER DATABASE "${db.name}" SET timezone = 'UTC'`);
  await admin.query(`ALTER DATABASE "${db.name}" SET statement_timeout = '30s'`);
  await admin.query(`ALTER DATABASE "${db.name}" SET idle_in_transaction_session_timeout = '60s'`);
  await admin.end();
  bouncer = await startPgBouncer({
    serverUrl: db.url,
    poolSize: 3,
    aliases: { single_session: { database: db.name, poolSize: 1 } },
  });
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  const config = testConfig(bouncer.urlFor(db.name), {
    DATABASE_PREPARED_STATEMENTS: "false",
    NOTIFICATIONS_DATABASE_URL: db.url,
    PUBLIC_BASE_URL: baseUrl,
    SANDBOX_AUTO_SETTLE_SECONDS: "3600",
    RATE_LIMIT_REQUESTS: String(RATE_LIMIT),
    // One window for the whole file: the rate-limit check counts exactly, however slow the machine.
    RATE_LIMIT_WINDOW_SECONDS: "3600",
  });
  const logger = createLogger({ level: "silent", service: "test" });
  pooled = await createConfiguredDatabase(config, { url: bouncer.urlFor(db.name), logger, applicationName: "api" });
  server = await listen(testApp({ database: pooled, config }), port, "127.0.0.1");
});
// Each part only if the setup got that far: a setup that failed (no pgbouncer installed) fails this
// file alone instead of the teardown's TypeError ending the whole test process.
afterAll(async () => {
  if (server) await closeGracefully(server, 1000);
  await pooled?.end();
  await bouncer?.stop();
  await db?.close();
});

/** The fields of the API's answers these tests read. */
type Answer = { error?: { code: string }; id?: string; status?: string; payment_id?: string };

async function call(
  method: "GET" | "POST",
  path: string,
  key: string,
  options: { body?: unknown; idempotencyKey?: string } = {},
): Promise<{ status: number; headers: Headers; text: string; body: Answer }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(method === "POST" ? { "content-type": "application/json" } : {}),
      ...(method === "POST" ? { "idempotency-key": options.idempotencyKey ?? randomUUID() } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  answered.push({ request: `${method} ${path}`, status: response.status });
  return { status: response.status, headers: response.headers, text, body: JSON.parse(text) };
}

const scenario = (name: string) => {
  const found = scenarios[name];
  if (found === undefined) {
    throw new Error(`no scenario ${name}`);
  }
  return found;
};

test("the control: named prepared statements fail through this pooler (why the setting exists)", async () => {
  // Two clients, one server session: the second client's Parse of the same name meets the first's.
  const named = (preparedStatements: boolean) =>
    createDatabase({
      url: bouncer.urlFor("single_session"),
      poolSize: 1,
      statementTimeoutMs: 30_000,
      logger: createLogger({ level: "silent", service: "test" }),
      applicationName: "control",
      preparedStatements,
    });
  const statement = sql.prepared("pooler_control", z.object({ one: z.number() }))`SELECT ${1}::int AS one`;
  for (const [preparedStatements, outcome] of [
    [true, /already exists/],
    [false, null],
  ] as const) {
    const [first, second] = [await named(preparedStatements), await named(preparedStatements)];
    try {
      expect(await first.oneFirst(statement)).toBe(1);
      const answer = second.oneFirst(statement);
      await (outcome === null ? expect(answer).resolves.toBe(1) : expect(answer).rejects.toThrow(outcome));
    } finally {
      await Promise.all([first.end(), second.end()]);
    }
  }
});

test("payments and cash sales under load: every request answered 201", async () => {
  // The same ten merchants for both scenarios: each one's password hash (scrypt) takes seconds of
  // CPU on a loaded machine, most of this test's time.
  const shops = await Promise.all(Array.from({ length: 10 }, () => newMerchant(db.database)));
  for (const name of ["payments-throughput", "cash-sales-throughput"]) {
    const summary = await runScenario(name, scenario(name), {
      baseUrl,
      keys: shops.map((shop) => shop.testKey),
      durationSeconds: 2,
    });
    expect({ name, statuses: summary.statuses }).toEqual({ name, statuses: { "201": 200 } });
    expect(violations(scenario(name), summary)).toEqual([]);
  }
});

test("idempotency: a replay byte for byte, a mismatch, and concurrent duplicates executed once", async () => {
  const shop = await newMerchant(db.database);
  const key = randomUUID();
  const body = { amount_cents: 1234, narration: "through the pooler" };
  const created = await call("POST", "/v1/payments", shop.testKey, { body, idempotencyKey: key });
  expect(created.status).toBe(201);
  const replayed = await call("POST", "/v1/payments", shop.testKey, { body, idempotencyKey: key });
  expect([replayed.status, replayed.text, replayed.headers.get("idempotent-replayed")]).toEqual([
    201,
    created.text,
    "true",
  ]);
  const mismatch = await call("POST", "/v1/payments", shop.testKey, { body: { amount_cents: 1 }, idempotencyKey: key });
  expect([mismatch.status, mismatch.body.error?.code]).toEqual([409, "idempotency_mismatch"]);

  const concurrentKey = randomUUID();
  const answers = await Promise.all(
    Array.from({ length: 10 }, () =>
      call("POST", "/v1/payments", shop.testKey, { body, idempotencyKey: concurrentKey }),
    ),
  );
  for (const answer of answers) {
    if (answer.status === 409) {
      expect([answer.body.error?.code, answer.headers.get("retry-after")]).toEqual(["idempotency_in_flight", "1"]);
    } else {
      expect(answer.status).toBe(201);
    }
  }
  const payments = await db.database.oneFirst(sql.type(z.object({ n: z.number() }))`
    SELECT count(*)::int AS n FROM payments WHERE merchant_id = ${shop.id}`);
  expect(payments).toBe(2);
});

test("a payout debits once and the balance check refuses the second: the ledger balances", async () => {
  const shop = await newMerchant(db.database, { payout_msisdn: "263771234567", payout_verified: true });
  await fund(db.database, shop, 1_000);
  const first = await call("POST", "/v1/payouts", shop.testKey, { body: { amount_cents: 600 } });
  expect(first.status).toBe(201);
  const second = await call("POST", "/v1/payouts", shop.testKey, { body: { amount_cents: 600 } });
  expect([second.status, second.body.error?.code]).toEqual([402, "insufficient_funds"]);
  const sums = await db.database.one(sql.type(z.object({ total: z.number(), available: z.number() }))`
    SELECT coalesce(sum(amount_cents), 0)::bigint AS total,
      coalesce(sum(amount_cents) FILTER (WHERE account = 'merchant_available'), 0)::bigint AS available
    FROM ledger_postings WHERE merchant_id = ${shop.id}`);
  expect(sums).toEqual({ total: 0, available: 400 });
});

test("the rate limit counts exactly and refuses with Retry-After", async () => {
  const shop = await newMerchant(db.database);
  const statuses: number[] = [];
  for (let index = 0; index < RATE_LIMIT + 5; index += 1) {
    const answer = await call("GET", "/v1/me", shop.testKey);
    statuses.push(answer.status);
    if (answer.status === 429) {
      expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0);
    }
  }
  expect(statuses).toEqual([...Array(RATE_LIMIT).fill(200), ...Array(5).fill(429)]);
});

test("sessions and the till's day: sign-in, pairing, cashier PIN, shift, sales, a return, a close", async () => {
  const shop = await newMerchant(db.database);
  const day = await shopDay(baseUrl, shop.email);
  const shift = await day.owner.call<{ status: string }>("GET", `/v1/shifts/${day.shiftId}`);
  expect([shift.status, shift.body.status]).toEqual([200, "closed"]);
});

test("a till's waiting request (LISTEN on the direct connection) is woken by the payment's settlement", async () => {
  const shop = await newMerchant(db.database);
  const product = await call("POST", "/v1/products", shop.testKey, { body: { name: "Bread", price_cents: 150 } });
  const sale = await call("POST", "/v1/sales", shop.testKey, {
    body: { tender: "wallet", items: [{ product_id: product.body.id, qty: 2 }] },
  });
  expect([sale.status, sale.body.status]).toEqual([201, "pending"]);
  const waiting = call("GET", `/v1/sales/${sale.body.id}?wait_seconds=25`, shop.testKey);
  await waitUntil("the waiting request listens", async () => (await listeningConnections()) > 0);
  const paid = await fetch(`${baseUrl}/checkout/${sale.body.payment_id}/mockpay`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}",
  });
  expect(paid.status).toBe(200);
  const woken = await waiting;
  expect([woken.status, woken.body.status]).toEqual([200, "completed"]);
});

test("every answer came through the pooler, none of them a 5xx", async () => {
  const failures = answered.filter((answer) => answer.status >= 500);
  expect(failures).toEqual([]);
  const stats = await bouncer.admin("SHOW STATS");
  const ours = stats.find((row) => row.database === db.name);
  expect(Number(ours?.total_xact_count ?? 0)).toBeGreaterThan(answered.length);
});

/** The API's connections LISTENing on the direct path (where a waiting request listens). */
function listeningConnections(): Promise<number> {
  return db.database.oneFirst(sql.type(z.object({ n: z.number() }))`
    SELECT count(*)::int AS n FROM pg_stat_activity
    WHERE datname = ${db.name} AND application_name = 'notifications' AND query LIKE 'LISTEN%'`);
}
