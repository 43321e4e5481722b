import { randomUUID } from "node:crypto";
import request from "supertest";
import { z } from "zod";
import { amountCentsSchema } from "../../src/kernel/money-schemas.ts";
import { sql, type Transaction } from "../../src/platform/db/pool.ts";
import { insufficientFunds } from "../../src/platform/errors.ts";
import { defineRoute } from "../../src/platform/http/route.ts";
import {
  fingerprintRequest,
  type ResponseToStore,
  storeResponsesStatement,
} from "../../src/platform/idempotency/service.ts";
import { purgeIdempotencyKeys } from "../../src/platform/idempotency/tasks/purge-idempotency-keys.ts";
import { createLogger } from "../../src/platform/telemetry/logger.ts";
import type { Tenant } from "../../src/platform/tenant.ts";
import { testApp, testConfig } from "../support/app.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { newMerchant, type TestMerchant } from "../support/factories.ts";

/**
 * Fixture money POSTs: each execution inserts one row into `executions`, in the transaction that
 * also stores the idempotent response, so the row count is the number of times a request ran.
 */
const bodySchema = z.strictObject({ amount_cents: amountCentsSchema, note: z.string().optional() });
let failNextWithServerError = false;

/**
 * An owner "slower than its lock": the next request with that note waits in its handler, after
 * claiming the key, until the test has let its lock lapse and lets it go on. Only the first such
 * request is held; the retry that takes the key over runs straight through.
 */
type HeldOwner = { arrived: Promise<void>; release: () => void; wait: () => Promise<void> };
let heldOwner: HeldOwner | undefined;
function holdNextSlowOwner(): HeldOwner {
  const { promise: arrived, resolve: arrive } = Promise.withResolvers<void>();
  const { promise: released, resolve: release } = Promise.withResolvers<void>();
  heldOwner = {
    arrived,
    release,
    wait: () => {
      arrive();
      return released;
    },
  };
  return heldOwner;
}
async function slowerThanTheLock(note: string | undefined): Promise<void> {
  const held = note === "slower than the lock" ? heldOwner : undefined;
  heldOwner = undefined;
  await held?.wait();
}

async function recordExecution(tx: Transaction, tenant: Tenant, amountCents: number): Promise<string> {
  const id = `ch_${randomUUID()}`;
  await tx.query(sql.unsafe`
    INSERT INTO executions (id, merchant_id, livemode, amount_cents) VALUES (${id}, ${tenant.merchantId}, ${tenant.livemode}, ${amountCents})`);
  return id;
}

/** The single-statement path: the execution row is inserted only if the response was stored. */
async function recordExecutionWithResponse(
  database: TestDatabase["database"],
  tenant: Tenant,
  id: string,
  response: ResponseToStore | null,
): Promise<boolean> {
  const stored =
    response === null
      ? sql.fragment`SELECT 1`
      : storeResponsesStatement(sql.fragment`
          SELECT ${response.merchantId}::text AS merchant_id, ${response.livemode}::boolean AS livemode,
            ${response.key}::text AS key, ${response.ownerToken}::text AS owner_token,
            ${response.status}::integer AS response_status, ${response.body}::text AS response_body`);
  const written = await database.maybeOneFirst(sql.type(z.object({ id: z.string() }))`
    WITH stored AS (${stored})
    INSERT INTO executions (id, merchant_id, livemode, amount_cents)
    SELECT ${id}, ${tenant.merchantId}, ${tenant.livemode}, 1 WHERE EXISTS (SELECT 1 FROM stored)
    RETURNING id`);
  return written !== null;
}

const singleStatementRoute = (idempotent: boolean) =>
  defineRoute({
    method: "post",
    path: idempotent ? "/v1/test_single_statement_charges" : "/v1/test_unkeyed_charges",
    operationId: idempotent ? "testSingleStatementCharge" : "testUnkeyedCharge",
    summary: "fixture",
    tags: ["Test"],
    auth: { keys: "both" },
    idempotent,
    request: { body: bodySchema },
    responses: { 201: { description: "created" } },
    handler: async ({ body, tenant, database, answeredWrite }) => {
      // A slow provider call before the write, as a payment's gateway call.
      await slowerThanTheLock(body.note);
      const id = `ch_${randomUUID()}`;
      const charged = answeredWrite((amountCents: number) => ({
        status: 201,
        body: { id, amount_cents: amountCents },
      }));
      await charged.commit(body.amount_cents, (response) =>
        recordExecutionWithResponse(database, tenant, id, response),
      );
      return charged.reply();
    },
  });

const fixtureRoutes = [
  singleStatementRoute(true),
  singleStatementRoute(false),
  defineRoute({
    method: "post",
    path: "/v1/test_charges",
    operationId: "testCharge",
    summary: "fixture",
    tags: ["Test"],
    auth: { keys: "both" },
    idempotent: true,
    request: { body: bodySchema },
    responses: { 201: { description: "created" } },
    handler: async ({ body, tenant, transaction }) =>
      transaction(async (tx) => {
        const id = await recordExecution(tx, tenant, body.amount_cents);
        if (failNextWithServerError) {
          failNextWithServerError = false;
          throw new Error("crash after the insert");
        }
        return { status: 201, body: { id, amount_cents: body.amount_cents, created: new Date().toISOString() } };
      }),
  }),
  defineRoute({
    method: "post",
    path: "/v1/test_slow_charges",
    operationId: "testSlowCharge",
    summary: "fixture",
    tags: ["Test"],
    auth: { keys: "both" },
    idempotent: true,
    request: { body: bodySchema },
    responses: { 201: { description: "created" } },
    handler: async ({ body, tenant, transaction }) =>
      transaction(async (tx) => {
        await slowerThanTheLock(body.note);
        await tx.query(sql.unsafe`SELECT pg_sleep(0.8)`);
        const id = await recordExecution(tx, tenant, body.amount_cents);
        return { status: 201, body: { id } };
      }),
  }),
  defineRoute({
    method: "post",
    path: "/v1/test_debits",
    operationId: "testDebit",
    summary: "fixture",
    tags: ["Test"],
    auth: { keys: "both" },
    idempotent: true,
    request: { body: bodySchema },
    responses: { 201: { description: "never" } },
    handler: async ({ tenant, transaction }) =>
      transaction(async (tx) => {
        await recordExecution(tx, tenant, 0);
        throw insufficientFunds();
      }),
  }),
];

let db: TestDatabase;
let app: ReturnType<typeof testApp>;
let shop: TestMerchant;
// A lock lapses only when a test says so (lapseLock), never because the machine was slow.
const config = (url: string) =>
  testConfig(url, { IDEMPOTENCY_LOCK_TIMEOUT_SECONDS: "600", RATE_LIMIT_REQUESTS: "10000" });

beforeAll(async () => {
  db = await createTestDatabase({ poolSize: 25 });
  app = testApp({ database: db.database, config: config(db.url), extraRoutes: fixtureRoutes });
  await db.database.query(sql.unsafe`
    CREATE TABLE executions (id text PRIMARY KEY, merchant_id text NOT NULL, livemode boolean NOT NULL, amount_cents bigint NOT NULL)`);
  shop = await newMerchant(db.database);
});
afterAll(() => db.close());

const executions = (merchantId: string) =>
  db.database.oneFirst(sql.type(z.object({ count: z.number() }))`
    SELECT count(*)::int AS count FROM executions WHERE merchant_id = ${merchantId}`);

/** As if the key's lock had timed out: its lock expiry moved into the past on the database. */
const lapseLock = (merchantId: string, key: string) =>
  db.database.query(sql.unsafe`
    UPDATE idempotency_keys SET locked_until = now() - interval '1 millisecond'
    WHERE merchant_id = ${merchantId} AND key = ${key}`);

const post = (path: string, key: string, idempotencyKey: string | undefined, body: unknown) => {
  const builder = request(app).post(path).set("Authorization", `Bearer ${key}`);
  return (idempotencyKey === undefined ? builder : builder.set("Idempotency-Key", idempotencyKey)).send(body as object);
};

describe("idempotent money POSTs", () => {
  test("a retry replays the stored status and exact bytes and moves nothing twice", async () => {
    const merchant = await newMerchant(db.database);
    const first = await post("/v1/test_charges", merchant.testKey, "key-1", { amount_cents: 500 });
    expect(first.status).toBe(201);
    expect(first.headers["idempotent-replayed"]).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Same body with keys in another order: the canonical body is the same.
    const again = await request(app)
      .post("/v1/test_charges")
      .set("Authorization", `Bearer ${merchant.testKey}`)
      .set("Idempotency-Key", "key-1")
      .set("Content-Type", "application/json")
      .send('{ "amount_cents" : 500 }');
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(await executions(merchant.id)).toBe(1);
  });

  test("the same key with a different body or path is 409 idempotency_mismatch", async () => {
    const merchant = await newMerchant(db.database);
    await post("/v1/test_charges", merchant.testKey, "key-2", { amount_cents: 500 }).expect(201);
    const otherBody = await post("/v1/test_charges", merchant.testKey, "key-2", { amount_cents: 501 });
    expect(otherBody.status).toBe(409);
    expect(otherBody.body.error).toEqual({
      type: "invalid_request",
      code: "idempotency_mismatch",
      message: expect.any(String),
    });
    const otherPath = await post("/v1/test_slow_charges", merchant.testKey, "key-2", { amount_cents: 500 });
    expect(otherPath.status).toBe(409);
    expect(otherPath.body.error.code).toBe("idempotency_mismatch");
    expect(await executions(merchant.id)).toBe(1);
  });

  test("keys are scoped by merchant and world", async () => {
    const other = await newMerchant(db.database);
    const merchant = await newMerchant(db.database);
    for (const key of [merchant.testKey, merchant.liveKey, other.testKey]) {
      const response = await post("/v1/test_charges", key, "shared-key", { amount_cents: 700 });
      expect(response.status).toBe(201);
      expect(response.headers["idempotent-replayed"]).toBeUndefined();
    }
    expect(await executions(merchant.id)).toBe(2);
    expect(await executions(other.id)).toBe(1);
  });

  test("20 concurrent identical requests execute exactly once; the others are in flight or replays", async () => {
    const merchant = await newMerchant(db.database);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        post("/v1/test_slow_charges", merchant.testKey, "concurrent", { amount_cents: 900 }),
      ),
    );
    expect(await executions(merchant.id)).toBe(1);
    const created = responses.filter((response) => response.status === 201);
    const inFlight = responses.filter((response) => response.status === 409);
    expect(created.length + inFlight.length).toBe(20);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((response) => response.text)).size).toBe(1);
    for (const response of inFlight) {
      expect(response.body.error.code).toBe("idempotency_in_flight");
    }
    const later = await post("/v1/test_slow_charges", merchant.testKey, "concurrent", { amount_cents: 900 });
    expect(later.text).toBe(created[0]?.text);
  });

  test("a request abandoned in flight by a crashed process is retried once its lock times out", async () => {
    const merchant = await newMerchant(db.database);
    const body = { amount_cents: 300 };
    // What a process that claimed the key and then died leaves behind.
    await db.database.query(sql.unsafe`
      INSERT INTO idempotency_keys (merchant_id, livemode, key, request_method, request_path, request_fingerprint, state, owner_token, locked_until)
      VALUES (${merchant.id}, false, 'crashed', 'POST', '/v1/test_charges',
        ${sql.binary(fingerprintRequest({ method: "POST", path: "/v1/test_charges", body }))}, 'in_flight', 'dead-owner', now() + interval '1 hour')`);
    const whileLocked = await post("/v1/test_charges", merchant.testKey, "crashed", body);
    expect(whileLocked.status).toBe(409);
    expect(whileLocked.body.error.code).toBe("idempotency_in_flight");
    expect(whileLocked.headers["retry-after"]).toBe("1");
    await lapseLock(merchant.id, "crashed");
    const retried = await post("/v1/test_charges", merchant.testKey, "crashed", body);
    expect(retried.status).toBe(201);
    expect(await executions(merchant.id)).toBe(1);
    const replayed = await post("/v1/test_charges", merchant.testKey, "crashed", body);
    expect(replayed.text).toBe(retried.text);
    expect(await executions(merchant.id)).toBe(1);
  });

  test("a claim made under another server (a crash restart, a promoted standby) is taken over at once", async () => {
    const merchant = await newMerchant(db.database);
    const body = { amount_cents: 350 };
    // What a request cut off by a failover leaves: its claim, replicated before the primary died, with
    // an hour of lock left, made under the old primary's postmaster.
    await db.database.query(sql.unsafe`
      INSERT INTO idempotency_keys (merchant_id, livemode, key, request_method, request_path, request_fingerprint,
        state, owner_token, locked_until, claimed_under)
      VALUES (${merchant.id}, false, 'failed-over', 'POST', '/v1/test_charges',
        ${sql.binary(fingerprintRequest({ method: "POST", path: "/v1/test_charges", body }))}, 'in_flight',
        'cut-off-owner', now() + interval '1 hour', pg_postmaster_start_time() - interval '1 minute')`);
    const retried = await post("/v1/test_charges", merchant.testKey, "failed-over", body);
    expect(retried.status).toBe(201);
    expect(await executions(merchant.id)).toBe(1);
    const replayed = await post("/v1/test_charges", merchant.testKey, "failed-over", body);
    expect(replayed.text).toBe(retried.text);
    expect(await executions(merchant.id)).toBe(1);
  });

  test("an owner slower than its lock loses it: the retry's execution stands and the late commit is undone", async () => {
    const merchant = await newMerchant(db.database);
    const body = { amount_cents: 400, note: "slower than the lock" };
    const held = holdNextSlowOwner();
    const slow = post("/v1/test_slow_charges", merchant.testKey, "overtaken", body).then((response) => response);
    await held.arrived;
    await lapseLock(merchant.id, "overtaken");
    const retry = await post("/v1/test_slow_charges", merchant.testKey, "overtaken", body);
    held.release();
    const original = await slow;
    expect(retry.status).toBe(201);
    expect(original.status).toBe(409);
    expect(original.body.error.code).toBe("idempotency_in_flight");
    expect(original.headers["retry-after"]).toBe("1");
    expect(await executions(merchant.id)).toBe(1);
    const replay = await post("/v1/test_slow_charges", merchant.testKey, "overtaken", body);
    expect(replay.text).toBe(retry.text);
  });

  test("effects and response in one statement: replayed byte for byte, executed once", async () => {
    const merchant = await newMerchant(db.database);
    const responses = await Promise.all(
      Array.from({ length: 5 }, () =>
        post("/v1/test_single_statement_charges", merchant.testKey, "single-1", { amount_cents: 250 }),
      ),
    );
    const created = responses.filter((response) => response.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((response) => response.text)).size).toBe(1);
    expect(responses.every((response) => response.status === 201 || response.status === 409)).toBe(true);
    const replay = await post("/v1/test_single_statement_charges", merchant.testKey, "single-1", { amount_cents: 250 });
    expect(replay.text).toBe(created[0]?.text);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(await executions(merchant.id)).toBe(1);
  });

  test("one statement, owner slower than its lock: the late statement writes nothing and answers 409", async () => {
    const merchant = await newMerchant(db.database);
    const body = { amount_cents: 400, note: "slower than the lock" };
    // supertest sends when `then` is called.
    const held = holdNextSlowOwner();
    const slow = post("/v1/test_single_statement_charges", merchant.testKey, "single-late", body).then(
      (response) => response,
    );
    await held.arrived;
    await lapseLock(merchant.id, "single-late");
    const retry = await post("/v1/test_single_statement_charges", merchant.testKey, "single-late", body);
    held.release();
    const original = await slow;
    expect(retry.status).toBe(201);
    expect(original.status).toBe(409);
    expect(original.body.error.code).toBe("idempotency_in_flight");
    expect(await executions(merchant.id)).toBe(1);
    const replay = await post("/v1/test_single_statement_charges", merchant.testKey, "single-late", body);
    expect(replay.text).toBe(retry.text);
  });

  test("on a route without idempotency the single statement writes and nothing is stored", async () => {
    const merchant = await newMerchant(db.database);
    const first = await post("/v1/test_unkeyed_charges", merchant.testKey, undefined, { amount_cents: 100 });
    const second = await post("/v1/test_unkeyed_charges", merchant.testKey, undefined, { amount_cents: 100 });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(first.body.id).not.toBe(second.body.id);
    expect(await executions(merchant.id)).toBe(2);
  });

  test("the key is claimed with authentication, and only for an accepted request", async () => {
    const merchant = await newMerchant(db.database);
    const records = () =>
      db.database.oneFirst(sql.type(z.object({ count: z.number() }))`
        SELECT count(*)::int AS count FROM idempotency_keys WHERE merchant_id = ${merchant.id}`);
    // A live key presented as a test key is not a key; a suspended merchant is refused: nothing claimed.
    const wrongWorld = merchant.liveKey.replace("sk_live_", "sk_test_");
    expect((await post("/v1/test_charges", wrongWorld, "auth-1", { amount_cents: 100 })).status).toBe(401);
    await db.database.query(sql.unsafe`UPDATE merchants SET status = 'suspended' WHERE id = ${merchant.id}`);
    expect((await post("/v1/test_charges", merchant.testKey, "auth-1", { amount_cents: 100 })).status).toBe(403);
    expect(await records()).toBe(0);
    await db.database.query(sql.unsafe`UPDATE merchants SET status = 'active' WHERE id = ${merchant.id}`);
    const accepted = await post("/v1/test_charges", merchant.testKey, "auth-1", { amount_cents: 100 });
    expect(accepted.status).toBe(201);
    const record = await db.database.one(
      sql.type(
        z.object({ livemode: z.boolean(), state: z.string(), request_path: z.string() }),
      )`SELECT livemode, state, request_path FROM idempotency_keys WHERE merchant_id = ${merchant.id}`,
    );
    expect(record).toEqual({ livemode: false, state: "completed", request_path: "/v1/test_charges" });
    expect(await executions(merchant.id)).toBe(1);
  });

  test("a 4xx answer is stored and replayed; nothing of the failed attempt is kept", async () => {
    const merchant = await newMerchant(db.database);
    const first = await post("/v1/test_debits", merchant.testKey, "debit-1", { amount_cents: 100 });
    expect(first.status).toBe(402);
    expect(first.body.error).toEqual({
      type: "insufficient_funds",
      code: "insufficient_funds",
      message: expect.any(String),
    });
    const again = await post("/v1/test_debits", merchant.testKey, "debit-1", { amount_cents: 100 });
    expect(again.status).toBe(402);
    expect(again.text).toBe(first.text);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(await executions(merchant.id)).toBe(0);
  });

  test("a validation failure is answered and stored under the key", async () => {
    const merchant = await newMerchant(db.database);
    const first = await post("/v1/test_charges", merchant.testKey, "invalid-1", { amount_cents: -1 });
    expect(first.status).toBe(400);
    expect(first.body.error.code).toBe("invalid_amount");
    const again = await post("/v1/test_charges", merchant.testKey, "invalid-1", { amount_cents: -1 });
    expect(again.text).toBe(first.text);
    expect(again.headers["idempotent-replayed"]).toBe("true");
  });

  test("a 500 releases the key, so the retry with the same key executes", async () => {
    const merchant = await newMerchant(db.database);
    failNextWithServerError = true;
    const first = await post("/v1/test_charges", merchant.testKey, "flaky", { amount_cents: 100 });
    expect(first.status).toBe(500);
    expect(first.body.error.type).toBe("api_error");
    expect(await executions(merchant.id)).toBe(0);
    const retried = await post("/v1/test_charges", merchant.testKey, "flaky", { amount_cents: 100 });
    expect(retried.status).toBe(201);
    expect(await executions(merchant.id)).toBe(1);
  });

  test("the Idempotency-Key header is required and bounded", async () => {
    const missing = await post("/v1/test_charges", shop.testKey, undefined, { amount_cents: 100 });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toEqual({
      type: "invalid_request",
      code: "missing_idempotency_key",
      message: expect.any(String),
    });
    const tooLong = await post("/v1/test_charges", shop.testKey, "k".repeat(256), { amount_cents: 100 });
    expect(tooLong.status).toBe(400);
    expect(await executions(shop.id)).toBe(0);
  });
});

describe("the purge task", () => {
  test("deletes records past the retention and keeps the others", async () => {
    const merchant = await newMerchant(db.database);
    await post("/v1/test_charges", merchant.testKey, "old", { amount_cents: 1 }).expect(201);
    await post("/v1/test_charges", merchant.testKey, "recent", { amount_cents: 2 }).expect(201);
    await db.database.query(sql.unsafe`
      UPDATE idempotency_keys SET created_at = now() - interval '49 hours' WHERE merchant_id = ${merchant.id} AND key = 'old'`);
    const task = purgeIdempotencyKeys.build({
      config: config(db.url),
      database: db.database,
      logger: createLogger({ level: "silent", service: "test" }),
    });
    await task({}, {} as never);
    const keys = await db.database.anyFirst(sql.type(z.object({ key: z.string() }))`
      SELECT key FROM idempotency_keys WHERE merchant_id = ${merchant.id} ORDER BY key`);
    expect(keys).toEqual(["recent"]);
    // The purged key is free again: a new request executes.
    await post("/v1/test_charges", merchant.testKey, "old", { amount_cents: 3 }).expect(201);
    expect(await executions(merchant.id)).toBe(3);
  });
});
