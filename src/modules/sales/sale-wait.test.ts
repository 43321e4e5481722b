import { request as httpRequest } from "node:http";
import request from "supertest";
import { z } from "zod";
import { serve } from "../../../tests/support/app.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/database.ts";
import { newMerchant, type TestMerchant } from "../../../tests/support/factories.ts";
import { type Client, client, createProduct, posSetup } from "../../../tests/support/pos.ts";
import { waitUntil } from "../../../tests/support/time.ts";
import { sql } from "../../platform/db/pool.ts";

/**
 * GET /v1/sales/:id?wait_seconds=N: a till's one waiting request per pending wallet sale, woken by the
 * NOTIFY of the transaction that settles or ends the payment, on one listening connection per process.
 */

let db: TestDatabase;
let shop: TestMerchant;
let setup: ReturnType<typeof posSetup>;
let till: Client;

beforeAll(async () => {
  // A pool of 3: twenty waiting requests must not need twenty connections.
  db = await createTestDatabase({ poolSize: 3 });
  shop = await newMerchant(db.database);
  setup = posSetup(db, { SANDBOX_AUTO_SETTLE_SECONDS: "3600" });
  till = client(setup.app, shop.testKey);
});
afterAll(() => db.close());

async function pendingSale(): Promise<{ id: string; payment_id: string }> {
  const product = await createProduct(till, { name: "Bread", price_cents: 150 });
  const created = await till.post("/v1/sales", { tender: "wallet", items: [{ product_id: product.id, qty: 2 }] });
  expect([created.status, created.body.status]).toEqual([201, "pending"]);
  return created.body;
}

/** The connections of this test's database that the notification hub holds (LISTEN was their last statement). */
async function listeningConnections(): Promise<number> {
  return db.database.oneFirst(sql.type(z.object({ n: z.number() }))`
    SELECT count(*)::int AS n FROM pg_stat_activity
    WHERE datname = ${db.name} AND application_name = 'notifications' AND query LIKE 'LISTEN%'`);
}

test("twenty requests wait on one connection, the pool stays free, and mockpay wakes them all with the completed sale", async () => {
  const sale = await pendingSale();
  const waiting = Array.from({ length: 20 }, () => till.get(`/v1/sales/${sale.id}`, { wait_seconds: 25 }));
  const answers = Promise.all(waiting.map((pending) => pending.then((response) => response)));
  await waitUntil("the waiters listen", async () => (await listeningConnections()) === 1);
  // Other requests are served meanwhile: the waiters hold no pool connection.
  await till.get("/v1/me").expect(200);
  const still = await till.get(`/v1/sales/${sale.id}`).expect(200);
  expect(still.body.status).toBe("pending");

  await request(setup.app).post(`/checkout/${sale.payment_id}/mockpay`).send({}).expect(200);
  const woken = await answers;
  expect(woken.map((response) => [response.status, response.body.status])).toEqual(
    Array.from({ length: 20 }, () => [200, "completed"]),
  );
  expect(woken[0]?.body.payment.status).toBe("paid");
  // The last waiter gone, the listening connection is closed.
  await waitUntil("the listening connection closes", async () => (await listeningConnections()) === 0);
});

test("a cancelled sale wakes its waiter; a completed sale answers at once; wait_seconds is bounded", async () => {
  const sale = await pendingSale();
  const waiter = till.get(`/v1/sales/${sale.id}`, { wait_seconds: 25 }).then((response) => response);
  await waitUntil("the waiter listens", async () => (await listeningConnections()) === 1);
  await request(setup.app).post(`/checkout/${sale.payment_id}/mockpay`).send({ outcome: "expired" }).expect(200);
  const answer = await waiter;
  expect([answer.status, answer.body.status]).toEqual([200, "cancelled"]);

  const again = await till.get(`/v1/sales/${sale.id}`, { wait_seconds: 25 }).expect(200);
  expect(again.body.status).toBe("cancelled");

  for (const bad of ["26", "-1", "1.5", "soon"]) {
    const refused = await till.get(`/v1/sales/${sale.id}`, { wait_seconds: bad });
    expect([refused.status, refused.body.error.type]).toEqual([400, "invalid_request"]);
  }
});

test("the time running out answers the sale still pending; a client that goes away stops its wait", async () => {
  const sale = await pendingSale();
  const timedOut = await till.get(`/v1/sales/${sale.id}`, { wait_seconds: 1 }).expect(200);
  expect(timedOut.body.status).toBe("pending");

  const served = await serve(setup.app);
  try {
    const outgoing = httpRequest(`${served.baseUrl}/v1/sales/${sale.id}?wait_seconds=25`, {
      headers: { authorization: `Bearer ${shop.testKey}` },
    });
    outgoing.on("error", () => {});
    outgoing.end();
    await waitUntil("the waiter listens", async () => (await listeningConnections()) === 1);
    outgoing.destroy();
    // Well before the 25 s the wait was allowed: the abandoned request released the connection.
    await waitUntil("the abandoned waiter stops", async () => (await listeningConnections()) === 0, {
      timeoutMs: 15_000,
    });
  } finally {
    await served.close();
  }
});
