import { randomUUID } from "node:crypto";
import jsQRModule from "jsqr";
import { PNG } from "pngjs";
import { Registry } from "prom-client";
import request from "supertest";
import { z } from "zod";
import { testApp, testConfig } from "../../../tests/support/app.ts";
import { collidingCodes } from "../../../tests/support/colliding-codes.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/database.ts";
import { newMerchant, type TestMerchant } from "../../../tests/support/factories.ts";
import { sampleValue } from "../../../tests/support/metrics.ts";
import { manualClock, waitUntil } from "../../../tests/support/time.ts";
import { createSandboxGateway, SANDBOX_MAGIC_AMOUNTS } from "../../gateway/sandbox.ts";
import { type GatewaySimulator, startGatewaySimulator } from "../../gateway/simulator/app.ts";
import type { Gateways, PaymentGateway } from "../../gateway/wallet-gateway.ts";
import { sql } from "../../platform/db/pool.ts";
import { createWorkerPgPool } from "../../platform/queue/pg-pool.ts";
import { startWorkerPool } from "../../platform/queue/worker-pool.ts";
import { createLogger } from "../../platform/telemetry/logger.ts";
import { createGateways } from "../../wiring/gateways.ts";
import * as payments from "./service.ts";
import { expireDuePaymentsTask } from "./tasks/expire-due-payments.ts";
import { pollDuePaymentsTask } from "./tasks/poll-due-payments.ts";

const logger = createLogger({ level: "silent", service: "test" });
// jsqr is CommonJS with `exports.default`: depending on the loader, the import is the function or its module.
const jsQR = ((jsQRModule as { default?: unknown }).default ?? jsQRModule) as typeof jsQRModule.default;
let db: TestDatabase;
let shop: TestMerchant;

beforeAll(async () => {
  db = await createTestDatabase({ poolSize: 20 });
});
beforeEach(async () => {
  shop = await newMerchant(db.database, { fee_bps: 150, fee_fixed_cents: 0 });
});
afterAll(() => db.close());

function setup(environment: Record<string, string> = {}, gateways?: Gateways) {
  const config = testConfig(db.url, { PUBLIC_BASE_URL: "https://pay.example.com", ...environment });
  const resolved = gateways ?? createGateways(config);
  const app = testApp({ database: db.database, config, gateways: resolved });
  return { config, app, dependencies: { config, database: db.database, logger, gateways: resolved } };
}

function create(app: ReturnType<typeof testApp>, key: string, body: unknown, idempotencyKey = randomUUID()) {
  return request(app)
    .post("/v1/payments")
    .set("Authorization", `Bearer ${key}`)
    .set("Idempotency-Key", idempotencyKey)
    .send(body as object);
}

const countSchema = z.object({ count: z.number() });
async function ledgerTransactionsOf(paymentId: string) {
  return db.database.oneFirst(sql.type(countSchema)`
    SELECT count(*)::int AS count FROM ledger_transactions WHERE source_type = 'payment' AND source_id = ${paymentId}`);
}
async function eventsOf(paymentId: string) {
  return db.database.any(sql.type(z.object({ type: z.string(), data: z.record(z.string(), z.unknown()) }))`
    SELECT type, data FROM events WHERE data->>'payment_id' = ${paymentId} ORDER BY seq`);
}
/**
 * Moves a payment's times `seconds` into the past on the database, as if that long had gone by since:
 * its creation and code window, and its last gateway inquiry unless `keepLastInquiry` (which keeps
 * the inquiry throttle closed).
 */
async function backdate(paymentId: string, seconds: number, options: { keepLastInquiry?: boolean } = {}) {
  const shift = sql.fragment`make_interval(secs => ${seconds})`;
  const lastInquiry =
    options.keepLastInquiry === true ? sql.fragment`last_inquiry_at` : sql.fragment`last_inquiry_at - ${shift}`;
  await db.database.query(sql.unsafe`
    UPDATE payments SET created_at = created_at - ${shift}, expires_at = expires_at - ${shift},
      last_inquiry_at = ${lastInquiry}
    WHERE id = ${paymentId}`);
}

const pollFieldsSchema = z.object({ next_poll_at: z.date().nullable(), poll_count: z.number(), status: z.string() });
async function pollFieldsOf(paymentId: string) {
  return db.database.one(sql.type(pollFieldsSchema)`
    SELECT next_poll_at, poll_count, status FROM payments WHERE id = ${paymentId}`);
}
/** As if the payment's next poll were due now. */
async function makePollDue(paymentId: string) {
  await db.database.query(sql.unsafe`UPDATE payments SET next_poll_at = now() WHERE id = ${paymentId}`);
}

/** As if the inquiry interval had passed since the payment's last gateway inquiry. */
async function passInquiryInterval(paymentId: string) {
  await db.database.query(sql.unsafe`
    UPDATE payments SET last_inquiry_at = last_inquiry_at - interval '1 hour' WHERE id = ${paymentId}`);
}

/** A sandbox gateway on a clock the test moves, as the test world's gateways. */
function sandboxOnClock(autoSettleMs: number) {
  const clock = manualClock();
  const sandbox = createSandboxGateway({ autoSettleMs, now: clock.now });
  return { clock, gateways: { test: sandbox, live: sandbox } };
}

async function balanceOf(merchantId: string, livemode: boolean) {
  const rows = await db.database.any(sql.type(z.object({ currency: z.string(), balance_cents: z.number() }))`
    SELECT currency, balance_cents FROM ledger_balances
    WHERE merchant_id = ${merchantId} AND livemode = ${livemode} AND account = 'merchant_available'`);
  return Object.fromEntries(rows.map((row) => [row.currency, row.balance_cents]));
}

describe("creating a payment", () => {
  test("returns every field: code, real PNG QR, deep link, USSD, checkout URL, 10-minute expiry, fee", async () => {
    const { app } = setup();
    const response = await create(app, shop.testKey, {
      amount_cents: 1000,
      narration: "Order 42",
      merchant_ref: "order-42",
      metadata: { table: 7, vip: true },
      success_url: "https://shop.example.com/thanks",
      cancel_url: "https://shop.example.com/cart",
    });
    expect(response.status).toBe(201);
    const payment = response.body;
    expect(payment).toMatchObject({
      object: "payment",
      livemode: false,
      status: "pending",
      amount_cents: 1000,
      currency: "USD",
      fee_cents: 15,
      narration: "Order 42",
      merchant_ref: "order-42",
      metadata: { table: 7, vip: true },
      success_url: "https://shop.example.com/thanks",
      cancel_url: "https://shop.example.com/cart",
      paid_at: null,
      checkout_url: `https://pay.example.com/checkout/${payment.id}`,
    });
    expect(payment.id).toMatch(/^pay_[0-9A-Za-z]{24}$/);
    expect(payment.code).toMatch(/^[0-9]{9}$/);
    expect(payment.deep_link).toBe(`wallet://pay?code=${payment.code}`);
    expect(payment.ussd).toContain(payment.code);
    expect(payment.reference).toMatch(/^PR/);
    expect(Date.parse(payment.expires_at) - Date.parse(payment.created_at)).toBe(600_000);
    const png = Buffer.from(payment.qr_png_data_url.replace(/^data:image\/png;base64,/, ""), "base64");
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    // A QR reader finds the deep link in it.
    const image = PNG.sync.read(png);
    expect(jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data).toBe(payment.deep_link);
  });

  test("a created payment is due for its first poll after the schedule's first delay, and enqueues no job", async () => {
    const { app } = setup();
    const payment = (await create(app, shop.testKey, { amount_cents: 1000 })).body;
    const row = await pollFieldsOf(payment.id);
    // The first poll comes the schedule's first delay (2 s) after creation; the expiry at expires_at.
    expect(row.next_poll_at?.getTime()).toBe(Date.parse(payment.created_at) + 2000);
    expect(row.poll_count).toBe(0);
    expect(
      await db.database.oneFirst(sql.type(countSchema)`
        SELECT count(*)::int AS count FROM graphile_worker._private_jobs WHERE payload::text LIKE ${`%${payment.id}%`}`),
    ).toBe(0);
  });

  test.each([
    ["zero", { amount_cents: 0 }, "invalid_amount"],
    ["negative", { amount_cents: -5 }, "invalid_amount"],
    ["fractional", { amount_cents: 10.5 }, "invalid_amount"],
    ["a string", { amount_cents: "100" }, "invalid_amount"],
    ["missing", {}, "invalid_amount"],
    ["too large", { amount_cents: 1_000_000_001 }, "invalid_amount"],
    ["an unknown currency", { amount_cents: 100, currency: "EUR" }, "invalid_currency"],
    ["a relative success_url", { amount_cents: 100, success_url: "/thanks" }, "parameter_invalid"],
    ["a javascript: cancel_url", { amount_cents: 100, cancel_url: "javascript:alert(1)" }, "parameter_invalid"],
    ["metadata with an object value", { amount_cents: 100, metadata: { a: { b: 1 } } }, "parameter_invalid"],
    ["an unknown field", { amount_cents: 100, tip: 5 }, "parameter_unknown"],
  ])("refuses %s", async (_, body, code) => {
    const { app } = setup();
    const response = await create(app, shop.testKey, body);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ type: "invalid_request", code });
    expect(
      await db.database.oneFirst(sql.type(countSchema)`
      SELECT count(*)::int AS count FROM payments WHERE merchant_id = ${shop.id}`),
    ).toBe(0);
  });

  test("currency defaults to USD; ZWG is accepted; the fee never exceeds the amount", async () => {
    const { app } = setup();
    const costly = await newMerchant(db.database, { fee_bps: 0, fee_fixed_cents: 500 });
    expect((await create(app, shop.testKey, { amount_cents: 100 })).body.currency).toBe("USD");
    expect((await create(app, shop.testKey, { amount_cents: 100, currency: "ZWG" })).body.currency).toBe("ZWG");
    expect((await create(app, costly.testKey, { amount_cents: 300 })).body.fee_cents).toBe(300);
    expect(payments.feeCents(1_000_000_000, { fee_bps: 10_000, fee_fixed_cents: 0 })).toBe(1_000_000_000);
    expect(payments.feeCents(333, { fee_bps: 150, fee_fixed_cents: 10 })).toBe(15);
  });

  test("requires an Idempotency-Key; 10 concurrent identical requests create one payment", async () => {
    const { app } = setup();
    const missing = await request(app)
      .post("/v1/payments")
      .set("Authorization", `Bearer ${shop.testKey}`)
      .send({ amount_cents: 100 });
    expect(missing.body.error.code).toBe("missing_idempotency_key");
    const key = randomUUID();
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => create(app, shop.testKey, { amount_cents: 700 }, key)),
    );
    const created = responses.filter((response) => response.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((response) => response.body.id)).size).toBe(1);
    for (const response of responses.filter((candidate) => candidate.status !== 201)) {
      expect(response.status).toBe(409);
      expect(response.body.error.code).toBe("idempotency_in_flight");
    }
    const replay = await create(app, shop.testKey, { amount_cents: 700 }, key);
    expect(replay.body.id).toBe(created[0]?.body.id);
    expect(
      await db.database.oneFirst(sql.type(countSchema)`
      SELECT count(*)::int AS count FROM payments WHERE merchant_id = ${shop.id}`),
    ).toBe(1);
  });

  test("sandbox levers: gateway unavailable and code generation failure are 502s, and a retry runs again", async () => {
    const { app } = setup();
    const key = randomUUID();
    const unavailable = await create(
      app,
      shop.testKey,
      { amount_cents: SANDBOX_MAGIC_AMOUNTS.gatewayUnavailable },
      key,
    );
    expect(unavailable.status).toBe(502);
    expect(unavailable.body.error).toMatchObject({ type: "gateway_error", code: "gateway_error" });
    const failed = await create(app, shop.testKey, { amount_cents: SANDBOX_MAGIC_AMOUNTS.codeGenerationFailed });
    expect(failed.status).toBe(502);
    expect(failed.body.error.code).toBe("code_generation_failed");
    // Not stored: the same key runs the request again (and fails again, the lever being the amount).
    expect(
      (await create(app, shop.testKey, { amount_cents: SANDBOX_MAGIC_AMOUNTS.gatewayUnavailable }, key)).status,
    ).toBe(502);
  });

  test("a code still live for another payment is replaced by a fresh one; a gateway issuing only live codes fails", async () => {
    const sandbox = createSandboxGateway({ autoSettleMs: 3_600_000 });
    const codes = collidingCodes(sandbox.issuePaymentCode);
    const { issuedCodes } = codes;
    const colliding: PaymentGateway = { ...sandbox, issuePaymentCode: codes.issue };
    const { app } = setup({}, { test: colliding, live: colliding });
    const first = await create(app, shop.testKey, { amount_cents: 1000 });
    const liveCode: string = first.body.code;

    codes.repeat(liveCode, 2);
    const second = await create(app, shop.testKey, { amount_cents: 2000 });
    expect(second.status).toBe(201);
    expect(issuedCodes.slice(1)).toEqual([liveCode, liveCode, second.body.code]);
    expect(second.body.code).not.toBe(liveCode);
    const pngOf = (dataUrl: string) => PNG.sync.read(Buffer.from(dataUrl.split(",")[1] ?? "", "base64"));
    const qr = pngOf(second.body.qr_png_data_url);
    expect(jsQR(new Uint8ClampedArray(qr.data), qr.width, qr.height)?.data).toBe(second.body.deep_link);
    const amounts = await db.database.anyFirst(sql.type(z.object({ amount_cents: z.number() }))`
      SELECT amount_cents FROM payments WHERE merchant_id = ${shop.id} ORDER BY amount_cents`);
    expect(amounts).toEqual([1000, 2000]);

    codes.repeat(liveCode, 3);
    const key = randomUUID();
    const failed = await create(app, shop.testKey, { amount_cents: 3000 }, key);
    expect(failed.status).toBe(502);
    expect(failed.body.error.code).toBe("code_generation_failed");
    expect(issuedCodes.slice(4)).toEqual([liveCode, liveCode, liveCode]);
    // Nothing written and the key released: the client's retry with the same key runs again.
    const retried = await create(app, shop.testKey, { amount_cents: 3000 }, key);
    expect(retried.status).toBe(201);
    expect(
      await db.database.oneFirst(sql.type(countSchema)`
        SELECT count(*)::int AS count FROM payments WHERE merchant_id = ${shop.id} AND amount_cents = 3000`),
    ).toBe(1);
  });

  test("live payments without a configured gateway fail with 502 gateway_error, creating nothing", async () => {
    const { app } = setup();
    const response = await create(app, shop.liveKey, { amount_cents: 100 });
    expect(response.status).toBe(502);
    expect(response.body.error.code).toBe("gateway_error");
  });
});

describe("payment states (test world)", () => {
  test("mockpay settles: paid_at, net credit, one payment.paid event with the spec's fields", async () => {
    const { app } = setup();
    const labels = { livemode: "false", currency: "USD" };
    const createdBefore = await sampleValue("pos_payments_total", { event: "created", ...labels });
    const paidBefore = await sampleValue("pos_payments_total", { event: "paid", ...labels });
    const payment = (await create(app, shop.testKey, { amount_cents: 1000, merchant_ref: "m-1" })).body;
    const paid = await request(app).post(`/checkout/${payment.id}/mockpay`).send({});
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ status: "paid", success_url: null, cancel_url: null });
    const fetched = await request(app).get(`/v1/payments/${payment.id}`).set("Authorization", `Bearer ${shop.testKey}`);
    expect(fetched.body.status).toBe("paid");
    expect(fetched.body.paid_at).not.toBeNull();
    expect(await balanceOf(shop.id, false)).toEqual({ USD: 985 });
    expect(await eventsOf(payment.id)).toEqual([
      {
        type: "payment.paid",
        data: {
          payment_id: payment.id,
          amount_cents: 1000,
          currency: "USD",
          fee_cents: 15,
          merchant_ref: "m-1",
          reference: payment.reference,
        },
      },
    ]);
    // The funnel metrics count each step once, and /metrics serves them.
    expect(await sampleValue("pos_payments_total", { event: "created", ...labels })).toBe(createdBefore + 1);
    expect(await sampleValue("pos_payments_total", { event: "paid", ...labels })).toBe(paidBefore + 1);
    expect((await request(app).get("/metrics")).text).toMatch(/pos_payments_total\{[^}]*event="paid"/);
    const again = await request(app).post(`/checkout/${payment.id}/mockpay`).send({});
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("payment_not_pending");
    expect(await ledgerTransactionsOf(payment.id)).toBe(1);
  });

  test("mockpay with outcome expired: expired, payment.expired, no ledger movement", async () => {
    const { app } = setup();
    const payment = (await create(app, shop.testKey, { amount_cents: 1000 })).body;
    const expired = await request(app).post(`/checkout/${payment.id}/mockpay`).send({ outcome: "expired" });
    expect(expired.body.status).toBe("expired");
    expect((await eventsOf(payment.id)).map((event) => event.type)).toEqual(["payment.expired"]);
    expect(await ledgerTransactionsOf(payment.id)).toBe(0);
    expect(await balanceOf(shop.id, false)).toEqual({});
  });

  test("mockpay is refused for live payments and unknown ids", async () => {
    const { app } = setup();
    const unknown = await request(app).post("/checkout/pay_doesnotexist/mockpay").send({});
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("resource_missing");
    const live = await db.database.transaction((transaction) =>
      payments.recordPayment(
        transaction,
        { merchantId: shop.id, livemode: true },
        {
          id: `pay_${randomUUID().replaceAll("-", "").slice(0, 24)}`,
          input: { amount_cents: 100, currency: "USD" },
          issued: { code: "123456789", gatewayReference: "gw_1" },
          qrPngDataUrl: "data:image/png;base64,AA==",
          feeCents: 2,
          reference: "PRLIVE",
          createdAt: new Date(),
          expiresAt: new Date(Date.now() + 600_000),
          firstPollAt: null,
        },
      ),
    );
    const refused = await request(app).post(`/checkout/${live.id}/mockpay`).send({});
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("test_mode_only");
  });

  test("auto-settle: a GET after the sandbox delay finds it paid", async () => {
    const { clock, gateways } = sandboxOnClock(1000);
    const { app } = setup({ PAYMENT_INQUIRY_MIN_INTERVAL_SECONDS: "0.05" }, gateways);
    const payment = (await create(app, shop.testKey, { amount_cents: 400 })).body;
    clock.set(Date.parse(payment.created_at) + 990);
    const early = await request(app).get(`/v1/payments/${payment.id}`).set("Authorization", `Bearer ${shop.testKey}`);
    expect(early.body.status).toBe("pending");
    // A second later for the gateway, and past the inquiry interval for the payment.
    clock.set(Date.parse(payment.created_at) + 1050);
    await passInquiryInterval(payment.id);
    const later = await request(app).get(`/v1/payments/${payment.id}`).set("Authorization", `Bearer ${shop.testKey}`);
    expect(later.body.status).toBe("paid");
    expect(await balanceOf(shop.id, false)).toEqual({ USD: 394 });
  });

  test("the poller settles a payment once the gateway reports it paid", async () => {
    const { clock, gateways } = sandboxOnClock(200);
    const { app, dependencies } = setup({ PAYMENT_INQUIRY_MIN_INTERVAL_SECONDS: "0.05" }, gateways);
    const payment = (await create(app, shop.testKey, { amount_cents: 400 })).body;
    clock.set(Date.parse(payment.created_at) + 100);
    expect((await payments.pollPayment(dependencies, { paymentId: payment.id }))?.status).toBe("pending");
    clock.set(Date.parse(payment.created_at) + 300);
    await passInquiryInterval(payment.id);
    expect((await payments.pollPayment(dependencies, { paymentId: payment.id }))?.status).toBe("paid");
  });

  test("a code the gateway reports unusable fails the payment with payment.failed", async () => {
    const { app } = setup();
    const payment = (await create(app, shop.testKey, { amount_cents: SANDBOX_MAGIC_AMOUNTS.codeUnusable })).body;
    const fetched = await request(app).get(`/v1/payments/${payment.id}`).set("Authorization", `Bearer ${shop.testKey}`);
    expect(fetched.body.status).toBe("failed");
    expect(fetched.body.failure_reason).toContain("unusable");
    expect((await eventsOf(payment.id)).map((event) => event.type)).toEqual(["payment.failed"]);
    expect(await ledgerTransactionsOf(payment.id)).toBe(0);
  });

  test("the window closes unpaid: expired after a last inquiry, no ledger movement", async () => {
    const { app, dependencies } = setup({ PAYMENT_CODE_WINDOW_SECONDS: "60" });
    const payment = (await create(app, shop.testKey, { amount_cents: SANDBOX_MAGIC_AMOUNTS.neverSettles })).body;
    // Before the deadline the expiry changes nothing.
    expect((await payments.expireIfUnpaid(dependencies, { paymentId: payment.id }))?.status).toBe("pending");
    await backdate(payment.id, 61);
    expect((await payments.expireIfUnpaid(dependencies, { paymentId: payment.id }))?.status).toBe("expired");
    expect((await eventsOf(payment.id)).map((event) => event.type)).toEqual(["payment.expired"]);
    expect(await ledgerTransactionsOf(payment.id)).toBe(0);
  });

  test("paid in the last second before expiry is paid, even right after a throttled inquiry said pending", async () => {
    const { clock, gateways } = sandboxOnClock(1200);
    const { app, dependencies } = setup(
      { PAYMENT_CODE_WINDOW_SECONDS: "1.5", PAYMENT_INQUIRY_MIN_INTERVAL_SECONDS: "60" },
      gateways,
    );
    const payment = (await create(app, shop.testKey, { amount_cents: 800 })).body;
    clock.set(Date.parse(payment.created_at) + 800);
    const late = await request(app).get(`/v1/payments/${payment.id}`).set("Authorization", `Bearer ${shop.testKey}`);
    expect(late.body.status).toBe("pending");
    // The window has closed (paid at 1.2 s of 1.5), the inquiry of 0.8 s still throttles for a minute.
    await backdate(payment.id, 1.55, { keepLastInquiry: true });
    clock.set(Date.now());
    expect((await payments.expireIfUnpaid(dependencies, { paymentId: payment.id }))?.status).toBe("paid");
    expect((await eventsOf(payment.id)).map((event) => event.type)).toEqual(["payment.paid"]);
  });
});

describe("exactly once", () => {
  test("poller, GET refresh, mockpay and expiry at once: one final state, one set of postings, one event", async () => {
    for (let round = 0; round < 5; round += 1) {
      const { app, dependencies } = setup({
        PAYMENT_CODE_WINDOW_SECONDS: "0.3",
        SANDBOX_AUTO_SETTLE_SECONDS: "0.25",
        PAYMENT_INQUIRY_MIN_INTERVAL_SECONDS: "0.01",
        RATE_LIMIT_REQUESTS: "10000",
      });
      const payment = (await create(app, shop.testKey, { amount_cents: 1000 })).body;
      // Past the code window and the sandbox's settle time alike.
      await backdate(payment.id, 0.32);
      await Promise.allSettled([
        payments.pollPayment(dependencies, { paymentId: payment.id }),
        request(app).get(`/v1/payments/${payment.id}`).set("Authorization", `Bearer ${shop.testKey}`),
        request(app)
          .post(`/checkout/${payment.id}/mockpay`)
          .send(round % 2 === 0 ? {} : { outcome: "expired" }),
        payments.expireIfUnpaid(dependencies, { paymentId: payment.id }),
        request(app).get(`/checkout/${payment.id}/status`),
      ]);
      const final = await payments.getPaymentById(db.database, payment.id);
      expect(["paid", "expired"]).toContain(final.status);
      const finalEvents = await eventsOf(payment.id);
      expect(finalEvents).toHaveLength(1);
      expect(finalEvents[0]?.type).toBe(`payment.${final.status}`);
      expect(await ledgerTransactionsOf(payment.id)).toBe(final.status === "paid" ? 1 : 0);
    }
  });

  test("hundreds of GETs from two API instances cause a bounded number of gateway inquiries", async () => {
    let inquiries = 0;
    const sandbox = createSandboxGateway({ autoSettleMs: 3_600_000 });
    const counting: PaymentGateway = {
      issuePaymentCode: (request) => sandbox.issuePaymentCode(request),
      inquirePaymentCode: (request) => {
        inquiries += 1;
        return sandbox.inquirePaymentCode(request);
      },
    };
    const gateways = { test: counting, live: counting };
    const environment = { PAYMENT_INQUIRY_MIN_INTERVAL_SECONDS: "0.5", RATE_LIMIT_REQUESTS: "10000" };
    const first = setup(environment, gateways);
    const second = setup(environment, gateways);
    const payment = (await create(first.app, shop.testKey, { amount_cents: 100 })).body;
    const started = Date.now();
    const polls = [];
    for (let index = 0; index < 300; index += 1) {
      const app = index % 2 === 0 ? first.app : second.app;
      polls.push(request(app).get(`/v1/payments/${payment.id}`).set("Authorization", `Bearer ${shop.testKey}`));
    }
    const responses = await Promise.all(polls);
    const elapsedSeconds = (Date.now() - started) / 1000;
    expect(responses.every((response) => response.status === 200 && response.body.status === "pending")).toBe(true);
    // At most one inquiry per half second, plus the one at the start.
    expect(inquiries).toBeLessThanOrEqual(Math.ceil(elapsedSeconds / 0.5) + 1);
    expect(inquiries).toBeGreaterThanOrEqual(1);
  });
});

describe("listing", () => {
  test("filters by status and merchant_ref, pages newest first, never shows another merchant or world", async () => {
    const { app } = setup();
    const ids: string[] = [];
    for (let index = 0; index < 5; index += 1) {
      ids.push(
        (await create(app, shop.testKey, { amount_cents: 100 + index, merchant_ref: index % 2 === 0 ? "even" : "odd" }))
          .body.id,
      );
    }
    await request(app).post(`/checkout/${ids[0]}/mockpay`).send({});
    const other = await newMerchant(db.database);
    await create(app, other.testKey, { amount_cents: 100 });
    const list = (query: Record<string, string | number>, key = shop.testKey) =>
      request(app).get("/v1/payments").query(query).set("Authorization", `Bearer ${key}`);

    const firstPage = await list({ limit: 3 });
    expect(firstPage.body.data.map((payment: { id: string }) => payment.id)).toEqual(ids.slice(2).reverse());
    const secondPage = await list({ limit: 3, cursor: firstPage.body.next_cursor });
    expect(secondPage.body.data.map((payment: { id: string }) => payment.id)).toEqual(ids.slice(0, 2).reverse());
    expect(secondPage.body.has_more).toBe(false);
    expect((await list({ status: "paid" })).body.data.map((payment: { id: string }) => payment.id)).toEqual([ids[0]]);
    expect((await list({ merchant_ref: "odd" })).body.data).toHaveLength(2);
    expect((await list({}, shop.liveKey)).body.data).toEqual([]);
    const foreign = await request(app).get(`/v1/payments/${ids[1]}`).set("Authorization", `Bearer ${other.testKey}`);
    expect(foreign.status).toBe(404);
    expect((await list({ status: "settled" })).status).toBe(400);
  });
});

describe("payment states (live world, through the gateway simulator)", () => {
  let simulator: GatewaySimulator;
  beforeAll(async () => {
    simulator = await startGatewaySimulator({ port: 0, apiKey: "gwsim_live_test", logger });
  });
  afterAll(() => simulator.stop());

  const live = (environment: Record<string, string> = {}) =>
    setup({
      GATEWAY_URL: simulator.url,
      GATEWAY_API_KEY: "gwsim_live_test",
      // Generous: the simulator shares this process, and a loaded CI machine must not time it out.
      GATEWAY_TIMEOUT_MS: "10000",
      PAYMENT_INQUIRY_MIN_INTERVAL_SECONDS: "0.01",
      ...environment,
    });
  const simulate = (path: string, body: unknown = {}) =>
    fetch(`${simulator.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const get = (app: ReturnType<typeof testApp>, id: string) =>
    request(app).get(`/v1/payments/${id}`).set("Authorization", `Bearer ${shop.liveKey}`);

  test("the payer pays the code: paid, live balance credited net, payment.paid", async () => {
    const { app } = live();
    const payment = (await create(app, shop.liveKey, { amount_cents: 2000 })).body;
    expect(payment).toMatchObject({ livemode: true, status: "pending" });
    expect(simulator.state.read(payment.code)?.payment_id).toBe(payment.id);
    expect((await get(app, payment.id)).body.status).toBe("pending");
    await simulate("/sim/wallets", { msisdn: "263772000002", currency: "USD", amount_cents: 5000 });
    expect((await simulate(`/sim/payment-codes/${payment.code}/pay`, { payer_msisdn: "263772000002" })).status).toBe(
      200,
    );
    const paid = await get(app, payment.id);
    expect(paid.body.status).toBe("paid");
    expect(await balanceOf(shop.id, true)).toEqual({ USD: 1970 });
    expect(await balanceOf(shop.id, false)).toEqual({});
    expect((await eventsOf(payment.id)).map((event) => event.type)).toEqual(["payment.paid"]);
  });

  test("the network refuses the code: failed with payment.failed; a lapsed code: expired", async () => {
    const { app } = live();
    const refused = (await create(app, shop.liveKey, { amount_cents: 300 })).body;
    await simulate(`/sim/payment-codes/${refused.code}/refuse`, { reason: "blocked by the network" });
    expect((await get(app, refused.id)).body).toMatchObject({
      status: "failed",
      failure_reason: "blocked by the network",
    });
    const lapsed = (await create(app, shop.liveKey, { amount_cents: 300 })).body;
    await simulate(`/sim/payment-codes/${lapsed.code}/lapse`);
    expect((await get(app, lapsed.id)).body.status).toBe("expired");
    expect((await eventsOf(lapsed.id)).map((event) => event.type)).toEqual(["payment.expired"]);
  });

  test("the window closes unpaid: the expiry job expires it; paid at the last moment: paid", async () => {
    const { app, dependencies } = live({ PAYMENT_CODE_WINDOW_SECONDS: "60" });
    const unpaid = (await create(app, shop.liveKey, { amount_cents: 300 })).body;
    const lastSecond = (await create(app, shop.liveKey, { amount_cents: 300 })).body;
    await simulate("/sim/wallets", { msisdn: "263772000003", currency: "USD", amount_cents: 300 });
    // Paid while the gateway's window is open, and no inquiry happens until the expiry job's.
    const paying = await simulate(`/sim/payment-codes/${lastSecond.code}/pay`, { payer_msisdn: "263772000003" });
    expect(paying.status).toBe(200);
    // Then our window closes for both (the gateway's closes later): the expiry job's last inquiry decides.
    await backdate(unpaid.id, 60.1);
    await backdate(lastSecond.id, 60.1);
    expect((await payments.expireIfUnpaid(dependencies, { paymentId: unpaid.id }))?.status).toBe("expired");
    expect((await payments.expireIfUnpaid(dependencies, { paymentId: lastSecond.id }))?.status).toBe("paid");
  });

  test("gateway faults on creation: 502 gateway_error or code_generation_failed, nothing created", async () => {
    const { app } = live({ GATEWAY_RETRIES: "0" });
    await simulate("/sim/faults", { operation: "issue_payment_code", mode: "unavailable", count: 1 });
    const unavailable = await create(app, shop.liveKey, { amount_cents: 300 });
    expect(unavailable.status).toBe(502);
    expect(unavailable.body.error.code).toBe("gateway_error");
    await simulate("/sim/faults", { operation: "issue_payment_code", mode: "code_generation_failed", count: 1 });
    const failed = await create(app, shop.liveKey, { amount_cents: 300 });
    expect(failed.body.error.code).toBe("code_generation_failed");
    expect(
      await db.database.oneFirst(sql.type(countSchema)`
      SELECT count(*)::int AS count FROM payments WHERE merchant_id = ${shop.id}`),
    ).toBe(0);
  });

  test("an unreachable gateway during a GET leaves the payment pending, without an error", async () => {
    const { app } = live();
    const payment = (await create(app, shop.liveKey, { amount_cents: 300 })).body;
    await simulate("/sim/faults", { operation: "inquire_payment_code", mode: "unavailable", count: 3 });
    const fetched = await get(app, payment.id);
    expect(fetched.status).toBe(200);
    expect(fetched.body.status).toBe("pending");
  });
});

describe("the gateway-poller and code-expiry pools", () => {
  test("without any client polling, the poller's batch job settles a payment and the expiry's expires another", async () => {
    const { clock, gateways } = sandboxOnClock(400);
    const { app, config, dependencies } = setup(
      {
        PAYMENT_POLL_SCHEDULE_SECONDS: "0.2",
        PAYMENT_CODE_WINDOW_SECONDS: "60",
        PAYMENT_INQUIRY_MIN_INTERVAL_SECONDS: "0.05",
        WORKER_POLL_INTERVAL_MS: "50",
      },
      gateways,
    );
    // The jobs earlier tests left (their payments' polls and expiries) are not this test's to run: with
    // this test's poll schedule they would keep the pools busy.
    await db.database.query(sql.unsafe`
      SELECT FROM graphile_worker.permanently_fail_jobs(ARRAY(SELECT id FROM graphile_worker.jobs), 'left by an earlier test')`);
    const pgPool = createWorkerPgPool({ url: db.url, size: 6, applicationName: "test", logger });
    const taskDependencies = { config, database: db.database, logger };
    const runners = await Promise.all([
      startWorkerPool({
        pool: "gateway-poller",
        tasks: [pollDuePaymentsTask(dependencies.gateways)],
        dependencies: taskDependencies,
        pgPool,
        registry: new Registry(),
      }),
      startWorkerPool({
        pool: "code-expiry",
        tasks: [expireDuePaymentsTask(dependencies.gateways)],
        dependencies: taskDependencies,
        pgPool,
        registry: new Registry(),
      }),
    ]);
    try {
      const settling = (await create(app, shop.testKey, { amount_cents: 500 })).body;
      const unpaid = (await create(app, shop.testKey, { amount_cents: SANDBOX_MAGIC_AMOUNTS.neverSettles })).body;
      // For the gateway, the first payment has settled by the time of the poller's first inquiry.
      clock.set(Date.parse(settling.created_at) + 400);
      // The second payment's window closes: the code-expiry pool's recurring job finds it due.
      await backdate(unpaid.id, 60);
      const statuses = async () =>
        Promise.all(
          [settling.id, unpaid.id].map(async (id) => (await payments.getPaymentById(db.database, id)).status),
        );
      await waitUntil(
        "one payment is paid and the other expired",
        async () => (await statuses()).join() === "paid,expired",
      );
      expect(await statuses()).toEqual(["paid", "expired"]);
      expect((await eventsOf(settling.id)).map((event) => event.type)).toEqual(["payment.paid"]);
      expect((await eventsOf(unpaid.id)).map((event) => event.type)).toEqual(["payment.expired"]);
    } finally {
      await Promise.all(runners.map((runner) => runner.stop()));
      await pgPool.end();
    }
  });
});

describe("polling and expiry in batches", () => {
  test("the poller's batch follows the poll schedule per payment, and stops before the window closes", async () => {
    const { app, dependencies } = setup({
      PAYMENT_POLL_SCHEDULE_SECONDS: "2,3,5",
      PAYMENT_CODE_WINDOW_SECONDS: "12",
    });
    const payment = (await create(app, shop.testKey, { amount_cents: SANDBOX_MAGIC_AMOUNTS.neverSettles })).body;
    const delaysMs: (number | null)[] = [];
    for (let poll = 0; poll < 4; poll += 1) {
      await makePollDue(payment.id);
      const started = Date.now();
      await payments.pollDuePayments(dependencies, { batchesMax: 1 });
      const row = await pollFieldsOf(payment.id);
      expect(row.poll_count).toBe(poll + 1);
      // Rounded to the second: the claim's now() lies between `started` and the row's read.
      delaysMs.push(
        row.next_poll_at === null ? null : Math.round((row.next_poll_at.getTime() - started) / 1000) * 1000,
      );
    }
    // 3 s, then 5 s (the last delay repeats), then none: now + 5 s would pass the 12 s window.
    expect(delaysMs.slice(0, 3)).toEqual([3000, 5000, 5000]);
    await db.database.query(sql.unsafe`
      UPDATE payments SET expires_at = now() + interval '4 seconds', next_poll_at = now() WHERE id = ${payment.id}`);
    await payments.pollDuePayments(dependencies, { batchesMax: 1 });
    expect((await pollFieldsOf(payment.id)).next_poll_at).toBeNull();
    // A poll not yet due is not claimed.
    await db.database.query(
      sql.unsafe`UPDATE payments SET next_poll_at = now() + interval '1 hour' WHERE id = ${payment.id}`,
    );
    const countBefore = (await pollFieldsOf(payment.id)).poll_count;
    await payments.pollDuePayments(dependencies, { batchesMax: 1 });
    expect((await pollFieldsOf(payment.id)).poll_count).toBe(countBefore);
  });

  test("a payment settled by callback costs no polling: the batch never claims it", async () => {
    // The batch claims every due payment of the database (earlier tests' too): only this one's count.
    const inquired: string[] = [];
    const sandbox = createSandboxGateway({ autoSettleMs: 3_600_000 });
    const counting: PaymentGateway = {
      issuePaymentCode: (request) => sandbox.issuePaymentCode(request),
      inquirePaymentCode: (request) => {
        inquired.push(request.paymentId);
        return sandbox.inquirePaymentCode(request);
      },
    };
    const { app, dependencies } = setup({}, { test: counting, live: counting });
    const payment = (await create(app, shop.testKey, { amount_cents: 700 })).body;
    expect((await request(app).post(`/checkout/${payment.id}/mockpay`).send({})).status).toBe(200);
    await makePollDue(payment.id);
    await payments.pollDuePayments(dependencies, { batchesMax: 1 });
    expect(await pollFieldsOf(payment.id)).toMatchObject({ status: "paid", poll_count: 0 });
    expect(inquired.filter((id) => id === payment.id)).toEqual([]);
  });

  test("a poll right after a client's GET keeps to the inquiry throttle; once it has passed, the poll asks", async () => {
    const inquired: string[] = [];
    const sandbox = createSandboxGateway({ autoSettleMs: 3_600_000 });
    const counting: PaymentGateway = {
      issuePaymentCode: (request) => sandbox.issuePaymentCode(request),
      inquirePaymentCode: (request) => {
        inquired.push(request.paymentId);
        return sandbox.inquirePaymentCode(request);
      },
    };
    const { app, dependencies } = setup(
      { PAYMENT_INQUIRY_MIN_INTERVAL_SECONDS: "60" },
      { test: counting, live: counting },
    );
    const payment = (await create(app, shop.testKey, { amount_cents: 700 })).body;
    const inquiriesOfPayment = () => inquired.filter((id) => id === payment.id).length;
    await request(app).get(`/v1/payments/${payment.id}`).set("Authorization", `Bearer ${shop.testKey}`);
    expect(inquiriesOfPayment()).toBe(1);
    await makePollDue(payment.id);
    await payments.pollDuePayments(dependencies, { batchesMax: 1 });
    expect(inquiriesOfPayment()).toBe(1);
    expect((await pollFieldsOf(payment.id)).poll_count).toBe(1);
    await passInquiryInterval(payment.id);
    await makePollDue(payment.id);
    await payments.pollDuePayments(dependencies, { batchesMax: 1 });
    expect(inquiriesOfPayment()).toBe(2);
    expect((await pollFieldsOf(payment.id)).poll_count).toBe(2);
  });

  test("two replicas of each batch job over 1,000 pending payments: each settled or expired exactly once", async () => {
    const inquiriesOf = new Map<string, number>();
    const sandbox = createSandboxGateway({ autoSettleMs: 1000 });
    const counting: PaymentGateway = {
      issuePaymentCode: (request) => sandbox.issuePaymentCode(request),
      inquirePaymentCode: (request) => {
        inquiriesOf.set(request.paymentId, (inquiriesOf.get(request.paymentId) ?? 0) + 1);
        return sandbox.inquirePaymentCode(request);
      },
    };
    const gateways = { test: counting, live: counting };
    // A claim moves the payment's next poll the schedule's next delay ahead: long here, so that however
    // slowly a loaded machine works through a batch, a second inquiry can only come from overlapping claims.
    const environment = { PAYMENT_POLL_SCHEDULE_SECONDS: "2,600" };
    const replicas = [setup(environment, gateways), setup(environment, gateways)].map(
      (replica) => replica.dependencies,
    );
    // 500 paid at the gateway and due for a poll; 500 never paid, their window closed.
    const count = 1000;
    await db.database.query(sql.unsafe`
      INSERT INTO payments (merchant_id, id, livemode, status, amount_cents, currency, fee_cents, reference, code,
        gateway_reference, qr_png_data_url, expires_at, next_poll_at, created_at, updated_at)
      SELECT ${shop.id}, 'pay_replica_' || g || '_' || ${shop.id}, false, 'pending',
        CASE WHEN g % 2 = 0 THEN 1000 ELSE ${SANDBOX_MAGIC_AMOUNTS.neverSettles} END, 'USD', 0,
        'PRREPLICA' || g || ${shop.id}, lpad((800000000 + g)::text, 9, '0'), 'gw_' || g, 'data:image/png;base64,AA==',
        CASE WHEN g % 2 = 0 THEN now() + interval '8 minutes' ELSE now() - interval '1 second' END,
        CASE WHEN g % 2 = 0 THEN now() - interval '1 second' END,
        now() - interval '2 minutes', now() - interval '2 minutes'
      FROM generate_series(1, ${count}) AS g`);
    const pendingOfShop = () =>
      db.database.oneFirst(sql.type(countSchema)`
        SELECT count(*)::int AS count FROM payments WHERE merchant_id = ${shop.id} AND status = 'pending'`);
    // Both replicas of both pools at once, run after run, as their recurring jobs would.
    for (let run = 0; run < 20 && (await pendingOfShop()) > 0; run += 1) {
      await Promise.all(
        replicas.flatMap((dependencies) => [
          payments.pollDuePayments(dependencies, { batchesMax: 2 }),
          payments.expireDuePayments(dependencies, { batchesMax: 2 }),
        ]),
      );
    }
    const outcomes = await db.database.any(sql.type(
      z.object({ id: z.string(), status: z.string(), events: z.number(), postings: z.number() }),
    )`
      SELECT p.id, p.status,
        (SELECT count(*)::int FROM events e WHERE e.merchant_id = p.merchant_id AND e.data->>'payment_id' = p.id) AS events,
        (SELECT count(*)::int FROM ledger_transactions l WHERE l.source_type = 'payment' AND l.source_id = p.id) AS postings
      FROM payments p WHERE p.merchant_id = ${shop.id} AND p.id LIKE 'pay_replica_%'`);
    expect(outcomes).toHaveLength(count);
    const paid = outcomes.filter((outcome) => outcome.status === "paid");
    const expired = outcomes.filter((outcome) => outcome.status === "expired");
    expect(paid).toHaveLength(count / 2);
    expect(expired).toHaveLength(count / 2);
    expect(paid.every((outcome) => outcome.events === 1 && outcome.postings === 1)).toBe(true);
    expect(expired.every((outcome) => outcome.events === 1 && outcome.postings === 0)).toBe(true);
    // Claims never overlap: one inquiry per payment, across both replicas.
    expect(outcomes.filter((outcome) => inquiriesOf.get(outcome.id) !== 1)).toEqual([]);
    expect(await balanceOf(shop.id, false)).toEqual({ USD: 1000 * (count / 2) });
  });
});
