import { randomUUID } from "node:crypto";
import { request as httpRequest } from "node:http";
import { serve } from "../../../tests/support/app.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/database.ts";
import { newMerchant, type TestMerchant } from "../../../tests/support/factories.ts";
import { type Client, client, createProduct, movesOf, onHandOf, posSetup } from "../../../tests/support/pos.ts";
import { waitUntil } from "../../../tests/support/time.ts";

/**
 * POST /v1/stock/receive|adjust|count honour an Idempotency-Key as the money POSTs do: a retry with
 * the same key replays the first answer and journals nothing twice; without a key they stay plain.
 */

let db: TestDatabase;
let shop: TestMerchant;
let live: Client;
let served: Awaited<ReturnType<typeof serve>>;

beforeAll(async () => {
  db = await createTestDatabase();
  shop = await newMerchant(db.database);
  const { app } = posSetup(db);
  live = client(app, shop.liveKey);
  served = await serve(app);
});
afterAll(async () => {
  await served?.close();
  await db?.close();
});

/** Sends a POST over a real socket and cuts the connection once the request is written, never reading the answer. */
function postAndCut(path: string, body: unknown, idempotencyKey: string): Promise<void> {
  return new Promise((resolve) => {
    const payload = JSON.stringify(body);
    const outgoing = httpRequest(`${served.baseUrl}${path}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${shop.liveKey}`,
        "content-type": "application/json",
        "content-length": Buffer.byteLength(payload),
        "idempotency-key": idempotencyKey,
      },
    });
    outgoing.on("error", () => resolve());
    outgoing.end(payload, () => {
      outgoing.destroy();
      resolve();
    });
  });
}

test.each([
  ["receive", { qty: 5 }, 5],
  ["adjust", { qty: -2 }, -2],
  ["count", { qty: 7 }, 7],
] as const)("a %s retried after a cut connection leaves exactly one move", async (kind, change, delta) => {
  const product = await createProduct(live, { name: `Tea ${kind}`, price_cents: 200 });
  const key = randomUUID();
  const body = { product_id: product.id, ...change, note: "Delivery #9" };
  await postAndCut(`/v1/stock/${kind}`, body, key);
  // The server finishes what it received; the till, having no answer, retries with the same key.
  await waitUntil(`the ${kind} move of the cut request is journaled`, async () =>
    (await movesOf(db, product.id)).some((move) => move.kind === kind),
  );
  const retried = await live.post(`/v1/stock/${kind}`, body, key);
  expect(retried.status).toBe(201);
  expect(retried.headers["idempotent-replayed"]).toBe("true");
  expect(retried.body.move).toMatchObject({ kind, qty_delta: delta, stock_qty_after: delta });
  const moves = (await movesOf(db, product.id)).filter((move) => move.kind === kind);
  expect(moves.map((move) => move.id)).toEqual([retried.body.move.id]);
  expect(await onHandOf(db, product.id)).toBe(delta);
});

test("the same key with another body is 409 idempotency_mismatch; without a key each request is its own", async () => {
  const product = await createProduct(live, { name: "Soap", price_cents: 90 });
  const key = randomUUID();
  await live.post("/v1/stock/receive", { product_id: product.id, qty: 3 }, key).expect(201);
  const mismatch = await live.post("/v1/stock/receive", { product_id: product.id, qty: 4 }, key);
  expect([mismatch.status, mismatch.body.error.code]).toEqual([409, "idempotency_mismatch"]);
  // A refused request (unknown product) is replayed too: the client fixes it under a new key.
  const missingKey = randomUUID();
  const missing = await live.post("/v1/stock/receive", { product_id: "prod_nope", qty: 1 }, missingKey);
  const replayedMissing = await live.post("/v1/stock/receive", { product_id: "prod_nope", qty: 1 }, missingKey);
  expect([missing.status, replayedMissing.status, replayedMissing.headers["idempotent-replayed"]]).toEqual([
    404,
    404,
    "true",
  ]);

  const plain = () =>
    fetch(`${served.baseUrl}/v1/stock/receive`, {
      method: "POST",
      headers: { authorization: `Bearer ${shop.liveKey}`, "content-type": "application/json" },
      body: JSON.stringify({ product_id: product.id, qty: 1 }),
    });
  expect([(await plain()).status, (await plain()).status]).toEqual([201, 201]);
  expect(await onHandOf(db, product.id)).toBe(5);
});
