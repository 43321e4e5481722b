import { randomInt, randomUUID } from "node:crypto";
import { z } from "zod";
import { countingDatabase } from "../../../tests/support/counting-database.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/database.ts";
import { newMerchant, type TestMerchant } from "../../../tests/support/factories.ts";
import { CodeCollisionError } from "../../gateway/code-collisions.ts";
import { sql } from "../../platform/db/pool.ts";
import { claimRequestOf, type ResponseToStore } from "../../platform/idempotency/service.ts";
import { createPaymentWriter } from "./payment-writer.ts";
import { NOT_CANCELLED, type PaymentRow } from "./schemas.ts";

let db: TestDatabase;
let shop: TestMerchant;
beforeAll(async () => {
  db = await createTestDatabase();
  shop = await newMerchant(db.database);
});
afterAll(() => db.close());

function pendingPayment(code = String(randomInt(100_000_000, 999_999_999))): PaymentRow {
  const createdAt = new Date();
  return {
    merchant_id: shop.id,
    id: `pay_${randomUUID().replaceAll("-", "")}`,
    livemode: false,
    status: "pending",
    amount_cents: 1250,
    currency: "USD",
    fee_cents: 19,
    narration: null,
    merchant_ref: null,
    metadata: { order: "A-1" },
    success_url: null,
    cancel_url: null,
    reference: `PR${randomUUID().slice(0, 12).toUpperCase()}`,
    code,
    gateway_reference: `gw_${randomUUID()}`,
    expires_at: new Date(createdAt.getTime() + 600_000),
    paid_at: null,
    payer_msisdn: null,
    failure_reason: null,
    last_inquiry_at: null,
    inquiry_count: 0,
    created_at: createdAt,
    updated_at: createdAt,
    ...NOT_CANCELLED,
  };
}

/** Claims an Idempotency-Key as an accepted request would, and the response its owner would store. */
async function claimedResponse(payment: PaymentRow): Promise<ResponseToStore> {
  const claim = claimRequestOf({ key: randomUUID(), method: "POST", path: "/v1/payments", body: {} }, 30_000);
  await db.database.query(sql.unsafe`
    INSERT INTO idempotency_keys (merchant_id, livemode, key, request_method, request_path, request_fingerprint, state,
      owner_token, locked_until)
    VALUES (${shop.id}, false, ${claim.key}, 'POST', '/v1/payments', ${sql.binary(claim.fingerprint)}, 'in_flight',
      ${claim.ownerToken}, now() + interval '30 seconds')`);
  return {
    merchantId: shop.id,
    livemode: false,
    key: claim.key,
    ownerToken: claim.ownerToken,
    status: 201,
    body: JSON.stringify({ id: payment.id }),
  };
}

const recordSchema = z.object({ state: z.string(), response_body: z.string().nullable() });
const recordOf = (key: string) =>
  db.database.one(sql.type(recordSchema)`
    SELECT state, response_body FROM idempotency_keys WHERE merchant_id = ${shop.id} AND key = ${key}`);
/** The poll fields of these payments as written, by id. */
const pollFieldsOf = async (payments: PaymentRow[]) =>
  db.database.any(sql.type(
    z.object({
      id: z.string(),
      next_poll_at: z.date().nullable(),
      poll_count: z.number(),
      traceparent: z.string().nullable(),
    }),
  )`
    SELECT id, next_poll_at, poll_count, traceparent FROM payments WHERE id = ANY(${sql.array(
      payments.map((payment) => payment.id),
      "text",
    )}) ORDER BY id`);
/** No job names any of these payments: creation enqueues nothing (the pools find them by index). */
const jobsNaming = async (payments: PaymentRow[]) =>
  db.database.oneFirst(sql.type(z.object({ count: z.number() }))`
    SELECT count(*)::int AS count FROM graphile_worker._private_jobs
    WHERE EXISTS (SELECT 1 FROM unnest(${sql.array(
      payments.map((payment) => payment.id),
      "text",
    )}) AS id WHERE payload::text LIKE '%' || id || '%')`);
const FIRST_POLL_AT = new Date(Date.now() + 2000);
const TRACEPARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

const writtenIds = async (payments: PaymentRow[]) =>
  db.database.anyFirst(sql.type(z.object({ id: z.string() }))`
    SELECT id FROM payments WHERE id = ANY(${sql.array(
      payments.map((payment) => payment.id),
      "text",
    )}) ORDER BY id`);

test("the creations of one moment are written in one statement, each only while its request owns its key", async () => {
  const counting = countingDatabase(db.database);
  const write = createPaymentWriter(counting.database);
  const payments = Array.from({ length: 4 }, () => pendingPayment());
  const [owned, alsoOwned, takenOver, unkeyed] = payments as [PaymentRow, PaymentRow, PaymentRow, PaymentRow];
  const responses = await Promise.all([owned, alsoOwned, takenOver].map(claimedResponse));
  // A retry took the third key over: its owner token is no longer this request's.
  const lost = { ...(responses[2] as ResponseToStore), ownerToken: randomUUID() };

  const written = await Promise.all([
    write({ payment: owned, response: responses[0] ?? null, firstPollAt: FIRST_POLL_AT, traceparent: TRACEPARENT }),
    write({ payment: alsoOwned, response: responses[1] ?? null, firstPollAt: FIRST_POLL_AT, traceparent: null }),
    write({ payment: takenOver, response: lost, firstPollAt: FIRST_POLL_AT, traceparent: null }),
    write({ payment: unkeyed, response: null, firstPollAt: null, traceparent: null }),
  ]);
  expect(counting.statements()).toBe(1);
  // Each payment written carries its first poll and its request's trace; no job is enqueued.
  expect(await pollFieldsOf(payments)).toEqual(
    [
      { id: owned.id, next_poll_at: FIRST_POLL_AT, poll_count: 0, traceparent: TRACEPARENT },
      { id: alsoOwned.id, next_poll_at: FIRST_POLL_AT, poll_count: 0, traceparent: null },
      { id: unkeyed.id, next_poll_at: null, poll_count: 0, traceparent: null },
    ].sort((left, right) => left.id.localeCompare(right.id)),
  );
  expect(await jobsNaming(payments)).toBe(0);
  expect(written).toEqual([true, true, false, true]);
  expect(await writtenIds(payments)).toEqual([owned.id, alsoOwned.id, unkeyed.id].sort());
  expect(await recordOf(responses[0]?.key ?? "")).toEqual({ state: "completed", response_body: responses[0]?.body });
  expect(await recordOf(responses[1]?.key ?? "")).toEqual({ state: "completed", response_body: responses[1]?.body });
  expect(await recordOf(lost.key)).toEqual({ state: "in_flight", response_body: null });
  const stored = await db.database.one(sql.type(z.object({ metadata: z.unknown(), expires_at: z.date() }))`
    SELECT metadata, expires_at FROM payments WHERE id = ${owned.id}`);
  expect(stored).toEqual({ metadata: { order: "A-1" }, expires_at: owned.expires_at });
});

test("a code collision fails only its own write: the batch is written again one by one", async () => {
  const existing = pendingPayment();
  const write = createPaymentWriter(db.database);
  expect(await write({ payment: existing, response: null, firstPollAt: null, traceparent: null })).toBe(true);

  const counting = countingDatabase(db.database);
  const batchWrite = createPaymentWriter(counting.database);
  const fresh = pendingPayment();
  const colliding = pendingPayment(existing.code);
  const [freshResponse, collidingResponse] = await Promise.all([fresh, colliding].map(claimedResponse));
  const outcomes = await Promise.allSettled([
    batchWrite({ payment: fresh, response: freshResponse ?? null, firstPollAt: FIRST_POLL_AT, traceparent: null }),
    batchWrite({
      payment: colliding,
      response: collidingResponse ?? null,
      firstPollAt: FIRST_POLL_AT,
      traceparent: null,
    }),
  ]);
  // The batch, then each payment on its own.
  expect(counting.statements()).toBe(3);
  expect(outcomes[0]).toEqual({ status: "fulfilled", value: true });
  expect(outcomes[1]?.status).toBe("rejected");
  const reason = outcomes[1]?.status === "rejected" ? outcomes[1].reason : undefined;
  expect(reason).toBeInstanceOf(CodeCollisionError);
  expect(await writtenIds([fresh, colliding])).toEqual([fresh.id]);
  expect((await recordOf(freshResponse?.key ?? "")).state).toBe("completed");
  expect((await recordOf(collidingResponse?.key ?? "")).state).toBe("in_flight");
  // The fresh payment, written by its own statement, still carries its first poll.
  expect((await pollFieldsOf([fresh])).map((row) => row.next_poll_at)).toEqual([FIRST_POLL_AT]);
});
