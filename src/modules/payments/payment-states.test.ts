import { randomUUID } from "node:crypto";
import request from "supertest";
import { scrapeMetrics } from "../../../tests/support/app.ts";
import { countingDatabase } from "../../../tests/support/counting-database.ts";
import { sampleValue } from "../../../tests/support/metrics.ts";
import { paymentsTestWorld } from "../../../tests/support/payments.ts";
import { createSandboxGateway, SANDBOX_MAGIC_AMOUNTS } from "../../gateway/sandbox.ts";
import type { PaymentGateway } from "../../gateway/wallet-gateway.ts";
import { sql } from "../../platform/db/pool.ts";
import * as payments from "./service.ts";

/** A test-world payment's states (paid, expired, failed) and exactly-once settlement. */

const world = paymentsTestWorld();

describe("payment states (test world)", () => {
  test("mockpay settles: paid_at, net credit, one payment.paid event with the spec's fields", async () => {
    const { app } = world.setup();
    const labels = { livemode: "false", currency: "USD" };
    const createdBefore = await sampleValue("pos_payments_total", { event: "created", ...labels });
    const paidBefore = await sampleValue("pos_payments_total", { event: "paid", ...labels });
    const payment = (await world.create(app, world.shop.testKey, { amount_cents: 1000, merchant_ref: "m-1" })).body;
    const paid = await request(app).post(`/checkout/${payment.id}/mockpay`).send({});
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ status: "paid", success_url: null, cancel_url: null });
    const fetched = await request(app)
      .get(`/v1/payments/${payment.id}`)
      .set("Authorization", `Bearer ${world.shop.testKey}`);
    expect(fetched.body.status).toBe("paid");
    expect(fetched.body.paid_at).not.toBeNull();
    expect(await world.balanceOf(world.shop.id, false)).toEqual({ USD: 985 });
    expect(await world.eventsOf(payment.id)).toEqual([
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
    expect((await scrapeMetrics(app)).text).toMatch(/pos_payments_total\{[^}]*event="paid"/);
    const again = await request(app).post(`/checkout/${payment.id}/mockpay`).send({});
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("payment_not_pending");
    expect(await world.ledgerTransactionsOf(payment.id)).toBe(1);
  });

  test("mockpay with outcome expired: expired, payment.expired, no ledger movement", async () => {
    const { app } = world.setup();
    const payment = (await world.create(app, world.shop.testKey, { amount_cents: 1000 })).body;
    const expired = await request(app).post(`/checkout/${payment.id}/mockpay`).send({ outcome: "expired" });
    expect(expired.body.status).toBe("expired");
    expect((await world.eventsOf(payment.id)).map((event) => event.type)).toEqual(["payment.expired"]);
    expect(await world.ledgerTransactionsOf(payment.id)).toBe(0);
    expect(await world.balanceOf(world.shop.id, false)).toEqual({});
  });

  test("mockpay refuses a body it cannot read, changing nothing; a request without a body still pays", async () => {
    const { app } = world.setup();
    const payment = (await world.create(app, world.shop.testKey, { amount_cents: 1000 })).body;
    const mockpay = () => request(app).post(`/checkout/${payment.id}/mockpay`);
    // Both ask to expire, in a form the JSON parser does not read: taken for no body, they would pay.
    const unreadable = [
      await mockpay().set("Content-Type", "text/plain").send('{"outcome":"expired"}'),
      await mockpay().type("form").send("outcome=expired"),
    ];
    for (const answer of unreadable) {
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatchObject({
        type: "invalid_request",
        code: "parameter_missing",
        message: expect.stringMatching(/JSON/),
      });
    }
    expect((await world.pollFieldsOf(payment.id)).status).toBe("pending");
    expect(await world.eventsOf(payment.id)).toEqual([]);
    expect(await world.ledgerTransactionsOf(payment.id)).toBe(0);

    const bare = await mockpay();
    expect([bare.status, bare.body.status]).toEqual([200, "paid"]);
    expect(await world.ledgerTransactionsOf(payment.id)).toBe(1);
  });

  test("mockpays at once on one payment: one wins with its own outcome, the others 409 as when sent after it", async () => {
    const { app } = world.setup({ RATE_LIMIT_REQUESTS: "10000" });
    const asked = ["paid", "expired", "paid"] as const;
    // Several payments raced at once, so that the race is run whatever the scheduling of one of them.
    const raced = await Promise.all(
      Array.from({ length: 4 }, async () => (await world.create(app, world.shop.testKey, { amount_cents: 1000 })).body),
    );
    const answersOf = await Promise.all(
      raced.map((payment) =>
        Promise.all(
          asked.map((outcome) =>
            request(app)
              .post(`/checkout/${payment.id}/mockpay`)
              .send(outcome === "expired" ? { outcome } : {}),
          ),
        ),
      ),
    );
    for (const [index, payment] of raced.entries()) {
      // Each answer as [status, the payment's status or the error's code].
      const outcomes = (answersOf[index] ?? []).map((answer) => [
        answer.status,
        answer.body.status ?? answer.body.error?.code,
      ]);
      const winner = outcomes.findIndex(([status]) => status === 200);
      const won = asked[winner] ?? "no winner";
      expect(outcomes).toEqual(asked.map((_, at) => (at === winner ? [200, won] : [409, "payment_not_pending"])));
      expect((await world.pollFieldsOf(payment.id)).status).toBe(won);
      expect((await world.eventsOf(payment.id)).map((event) => event.type)).toEqual([`payment.${won}`]);
      expect(await world.ledgerTransactionsOf(payment.id)).toBe(won === "paid" ? 1 : 0);
    }
  });

  test("mockpay is refused for live payments and unknown ids", async () => {
    const { app } = world.setup();
    const unknown = await request(app).post("/checkout/pay_doesnotexist/mockpay").send({});
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("resource_missing");
    // A live payment written as a wallet sale's statement writes it (the API's test keys cannot).
    const live = payments.pendingPaymentOf(
      { merchantId: world.shop.id, livemode: true },
      {
        id: `pay_${randomUUID().replaceAll("-", "").slice(0, 24)}`,
        input: { amount_cents: 100, currency: "USD" },
        issued: { code: "123456789", gatewayReference: "gw_1" },
        feeCents: 2,
        reference: "PRLIVE",
        createdAt: new Date(),
        expiresAt: new Date(Date.now() + 600_000),
        firstPollAt: null,
      },
    );
    await world.db.database.query(
      sql.unsafe`WITH written AS (${payments.pendingPaymentsInsert([live], () => sql.fragment`TRUE`)}) SELECT id FROM written`,
    );
    const refused = await request(app).post(`/checkout/${live.payment.id}/mockpay`).send({});
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("test_mode_only");
  });

  test("auto-settle: a GET after the sandbox delay finds it paid", async () => {
    const { clock, gateways } = world.sandboxOnClock(1000);
    const { app } = world.setup({ PAYMENT_INQUIRY_MIN_INTERVAL_SECONDS: "0.05" }, gateways);
    const payment = (await world.create(app, world.shop.testKey, { amount_cents: 400 })).body;
    clock.set(Date.parse(payment.created_at) + 990);
    const early = await request(app)
      .get(`/v1/payments/${payment.id}`)
      .set("Authorization", `Bearer ${world.shop.testKey}`);
    expect(early.body.status).toBe("pending");
    // A second later for the gateway, and past the inquiry interval for the payment.
    clock.set(Date.parse(payment.created_at) + 1050);
    await world.passInquiryInterval(payment.id);
    const later = await request(app)
      .get(`/v1/payments/${payment.id}`)
      .set("Authorization", `Bearer ${world.shop.testKey}`);
    expect(later.body.status).toBe("paid");
    expect(await world.balanceOf(world.shop.id, false)).toEqual({ USD: 394 });
  });

  test("the poller settles a payment once the gateway reports it paid", async () => {
    const { clock, gateways } = world.sandboxOnClock(200);
    const { app, dependencies } = world.setup({ PAYMENT_INQUIRY_MIN_INTERVAL_SECONDS: "0.05" }, gateways);
    const payment = (await world.create(app, world.shop.testKey, { amount_cents: 400 })).body;
    clock.set(Date.parse(payment.created_at) + 100);
    expect((await payments.pollPayment(dependencies, { paymentId: payment.id }))?.status).toBe("pending");
    clock.set(Date.parse(payment.created_at) + 300);
    await world.passInquiryInterval(payment.id);
    expect((await payments.pollPayment(dependencies, { paymentId: payment.id }))?.status).toBe("paid");
  });

  test("a code the gateway reports unusable fails the payment with payment.failed", async () => {
    const { app } = world.setup();
    const payment = (await world.create(app, world.shop.testKey, { amount_cents: SANDBOX_MAGIC_AMOUNTS.codeUnusable }))
      .body;
    const fetched = await request(app)
      .get(`/v1/payments/${payment.id}`)
      .set("Authorization", `Bearer ${world.shop.testKey}`);
    expect(fetched.body.status).toBe("failed");
    expect(fetched.body.failure_reason).toContain("unusable");
    expect((await world.eventsOf(payment.id)).map((event) => event.type)).toEqual(["payment.failed"]);
    expect(await world.ledgerTransactionsOf(payment.id)).toBe(0);
  });

  test("the window closes unpaid: expired after a last inquiry, no ledger movement", async () => {
    const { app, dependencies } = world.setup({ PAYMENT_CODE_WINDOW_SECONDS: "60" });
    const payment = (await world.create(app, world.shop.testKey, { amount_cents: SANDBOX_MAGIC_AMOUNTS.neverSettles }))
      .body;
    // Before the deadline the expiry changes nothing.
    expect((await payments.expireIfUnpaid(dependencies, { paymentId: payment.id }))?.status).toBe("pending");
    await world.backdate(payment.id, 61);
    expect((await payments.expireIfUnpaid(dependencies, { paymentId: payment.id }))?.status).toBe("expired");
    expect((await world.eventsOf(payment.id)).map((event) => event.type)).toEqual(["payment.expired"]);
    expect(await world.ledgerTransactionsOf(payment.id)).toBe(0);
  });

  test("paid in the last second before expiry is paid, even right after a throttled inquiry said pending", async () => {
    const { clock, gateways } = world.sandboxOnClock(1200);
    const { app, dependencies } = world.setup(
      { PAYMENT_CODE_WINDOW_SECONDS: "1.5", PAYMENT_INQUIRY_MIN_INTERVAL_SECONDS: "60" },
      gateways,
    );
    const payment = (await world.create(app, world.shop.testKey, { amount_cents: 800 })).body;
    clock.set(Date.parse(payment.created_at) + 800);
    const late = await request(app)
      .get(`/v1/payments/${payment.id}`)
      .set("Authorization", `Bearer ${world.shop.testKey}`);
    expect(late.body.status).toBe("pending");
    // The window has closed (paid at 1.2 s of 1.5), the inquiry of 0.8 s still throttles for a minute.
    await world.backdate(payment.id, 1.55, { keepLastInquiry: true });
    clock.set(Date.now());
    expect((await payments.expireIfUnpaid(dependencies, { paymentId: payment.id }))?.status).toBe("paid");
    expect((await world.eventsOf(payment.id)).map((event) => event.type)).toEqual(["payment.paid"]);
  });
});

describe("exactly once", () => {
  test("poller, GET refresh, mockpay and expiry at once: one final state, at most one credit, each event once", async () => {
    for (let round = 0; round < 5; round += 1) {
      const { app, dependencies } = world.setup({
        PAYMENT_CODE_WINDOW_SECONDS: "0.3",
        SANDBOX_AUTO_SETTLE_SECONDS: "0.25",
        PAYMENT_INQUIRY_MIN_INTERVAL_SECONDS: "0.01",
        RATE_LIMIT_REQUESTS: "10000",
      });
      const payment = (await world.create(app, world.shop.testKey, { amount_cents: 1000 })).body;
      // Past the code window and the sandbox's settle time alike.
      await world.backdate(payment.id, 0.32);
      await Promise.allSettled([
        payments.pollPayment(dependencies, { paymentId: payment.id }),
        request(app).get(`/v1/payments/${payment.id}`).set("Authorization", `Bearer ${world.shop.testKey}`),
        request(app)
          .post(`/checkout/${payment.id}/mockpay`)
          .send(round % 2 === 0 ? {} : { outcome: "expired" }),
        payments.expireIfUnpaid(dependencies, { paymentId: payment.id }),
        request(app).get(`/checkout/${payment.id}/status`),
      ]);
      const final = await payments.getPaymentById(world.db.database, payment.id);
      expect(["paid", "expired"]).toContain(final.status);
      // An observer that saw the code paid after the expiry won records a late payment: the money the
      // gateway reports is never dropped, and is credited once either way.
      const late = final.late_paid_at !== null;
      expect((await world.eventsOf(payment.id)).map((event) => event.type)).toEqual([
        `payment.${final.status}`,
        ...(late ? ["payment.late_paid"] : []),
      ]);
      expect(late && final.status !== "expired").toBe(false);
      expect(await world.ledgerTransactionsOf(payment.id)).toBe(final.status === "paid" || late ? 1 : 0);
    }
  });

  test("hundreds of GETs from two API instances cause a bounded number of gateway inquiries", async () => {
    let inquiries = 0;
    const sandbox = createSandboxGateway({ autoSettleMs: 3_600_000 });
    const counting: PaymentGateway = {
      issuePaymentCode: (request) => sandbox.issuePaymentCode(request),
      voidPaymentCode: (request) => sandbox.voidPaymentCode(request),
      inquirePaymentCode: (request) => {
        inquiries += 1;
        return sandbox.inquirePaymentCode(request);
      },
    };
    const gateways = { test: counting, live: counting };
    const environment = { PAYMENT_INQUIRY_MIN_INTERVAL_SECONDS: "0.5", RATE_LIMIT_REQUESTS: "10000" };
    const first = world.setup(environment, gateways);
    const second = world.setup(environment, gateways);
    const payment = (await world.create(first.app, world.shop.testKey, { amount_cents: 100 })).body;
    const started = Date.now();
    const polls = [];
    for (let index = 0; index < 300; index += 1) {
      const app = index % 2 === 0 ? first.app : second.app;
      polls.push(request(app).get(`/v1/payments/${payment.id}`).set("Authorization", `Bearer ${world.shop.testKey}`));
    }
    const responses = await Promise.all(polls);
    const elapsedSeconds = (Date.now() - started) / 1000;
    expect(responses.every((response) => response.status === 200 && response.body.status === "pending")).toBe(true);
    // At most one inquiry per half second, plus the one at the start.
    expect(inquiries).toBeLessThanOrEqual(Math.ceil(elapsedSeconds / 0.5) + 1);
    expect(inquiries).toBeGreaterThanOrEqual(1);
  });
});

/** A pending test payment created through the API, and a payment ending (no hooks) whose pool calls are counted. */
async function pendingPaymentEndedThroughCounter(amountCents: number) {
  const { app } = world.setup();
  const created = (await world.create(app, world.shop.testKey, { amount_cents: amountCents })).body;
  const payment = await payments.getPayment(
    world.db.database,
    { merchantId: world.shop.id, livemode: false },
    created.id,
  );
  const counting = countingDatabase(world.db.database);
  return { payment, counting, ending: { database: counting.database, paymentHooks: [] } };
}

test("a settlement is one statement and no transaction block: the state, payment.paid and the ledger movement together", async () => {
  const { payment, counting, ending } = await pendingPaymentEndedThroughCounter(1000);
  const paidAt = new Date();
  const settled = await payments.settlePayment(ending, payment, { paidAt, payerMsisdn: "263771234567" });
  expect(counting.statements()).toBe(1);
  expect(counting.callsOf("transaction")).toBe(0);
  expect(settled).toMatchObject({ status: "paid", payer_msisdn: "263771234567", paid_at: paidAt });
  expect((await world.eventsOf(payment.id)).map((event) => event.type)).toEqual(["payment.paid"]);
  expect(await world.ledgerTransactionsOf(payment.id)).toBe(1);
  expect(await world.balanceOf(world.shop.id, false)).toEqual({ USD: 1000 - payment.fee_cents });
  // Observed paid again (another poller, a GET): nothing more is written, and the payment is answered as it stands.
  const again = await payments.settlePayment(ending, payment, { paidAt: new Date(), payerMsisdn: null });
  expect(again).toMatchObject({ status: "paid", payer_msisdn: "263771234567" });
  expect((await world.eventsOf(payment.id)).map((event) => event.type)).toEqual(["payment.paid"]);
  expect(await world.ledgerTransactionsOf(payment.id)).toBe(1);
});

test("an expiry is one statement: not before expires_at on the database clock unless asked, then expired with payment.expired", async () => {
  const { payment, counting, ending } = await pendingPaymentEndedThroughCounter(700);
  // Not yet due: the guarded update finds nothing and nothing is written.
  const early = await payments.expirePayment(ending, payment, { onlyWhenDue: true });
  expect(early.status).toBe("pending");
  expect(await world.eventsOf(payment.id)).toEqual([]);
  const before = counting.statements();
  const expired = await payments.expirePayment(ending, payment, { onlyWhenDue: false });
  expect(counting.statements() - before).toBe(1);
  expect(counting.callsOf("transaction")).toBe(0);
  expect(expired).toMatchObject({ status: "expired", paid_at: null, failure_reason: null });
  expect((await world.eventsOf(payment.id)).map((event) => event.type)).toEqual(["payment.expired"]);
  expect(await world.ledgerTransactionsOf(payment.id)).toBe(0);
});
