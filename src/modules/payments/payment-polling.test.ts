import request from "supertest";
import { z } from "zod";
import { expectEachEndedOnce, outcomesOf, runPumpsUntilDone } from "../../../tests/support/batch-replicas.ts";
import { paymentsTestWorld } from "../../../tests/support/payments.ts";
import { CLAIM_LIMIT, runClaimed, startPoolPump } from "../../../tests/support/pumps.ts";
import { waitUntil } from "../../../tests/support/time.ts";
import { createSandboxGateway, SANDBOX_MAGIC_AMOUNTS } from "../../gateway/sandbox.ts";
import type { PaymentGateway } from "../../gateway/wallet-gateway.ts";
import { sql } from "../../platform/db/pool.ts";
import { createLogger } from "../../platform/telemetry/logger.ts";
import { expireDuePaymentsPump } from "./pumps/expire-due-payments.ts";
import { pollDuePaymentsPump } from "./pumps/poll-due-payments.ts";
import * as payments from "./service.ts";

/** The gateway-poller and code-expiry pools: batch polling on the spec's schedule, expiry, replicas. */

const logger = createLogger({ level: "silent", service: "test" });
const world = paymentsTestWorld();
const countSchema = z.object({ count: z.number() });

describe("the gateway-poller and code-expiry pools", () => {
  test("without any client polling, the poller's pump settles a payment and the expiry's expires another", async () => {
    const { clock, gateways } = world.sandboxOnClock(400);
    const { app, config, dependencies } = world.setup(
      {
        PAYMENT_POLL_SCHEDULE_SECONDS: "0.2",
        PAYMENT_CODE_WINDOW_SECONDS: "60",
        PAYMENT_INQUIRY_MIN_INTERVAL_SECONDS: "0.05",
        WORKER_POLL_INTERVAL_MS: "50",
      },
      gateways,
    );
    const environment = { config, database: world.db.database, databaseUrl: world.db.url, logger };
    const pumps = [
      startPoolPump("gateway-poller", pollDuePaymentsPump(dependencies), environment),
      startPoolPump("code-expiry", expireDuePaymentsPump(dependencies), environment),
    ];
    try {
      const settling = (await world.create(app, world.shop.testKey, { amount_cents: 500 })).body;
      const unpaid = (await world.create(app, world.shop.testKey, { amount_cents: SANDBOX_MAGIC_AMOUNTS.neverSettles }))
        .body;
      // For the gateway, the first payment has settled by the time of the poller's first inquiry.
      clock.set(Date.parse(settling.created_at) + 400);
      // The second payment's window closes: the code-expiry pool's pump finds it due.
      await world.backdate(unpaid.id, 60);
      const statuses = async () =>
        Promise.all(
          [settling.id, unpaid.id].map(async (id) => (await payments.getPaymentById(world.db.database, id)).status),
        );
      await waitUntil(
        "one payment is paid and the other expired",
        async () => (await statuses()).join() === "paid,expired",
      );
      expect(await statuses()).toEqual(["paid", "expired"]);
      expect((await world.eventsOf(settling.id)).map((event) => event.type)).toEqual(["payment.paid"]);
      expect((await world.eventsOf(unpaid.id)).map((event) => event.type)).toEqual(["payment.expired"]);
    } finally {
      await Promise.all(pumps.map((pump) => pump.stop()));
    }
  });
});

describe("polling and expiry in batches", () => {
  test("the poller's batch follows the poll schedule per payment, and stops before the window closes", async () => {
    const { app, dependencies } = world.setup({
      PAYMENT_POLL_SCHEDULE_SECONDS: "2,3,5",
      PAYMENT_CODE_WINDOW_SECONDS: "12",
    });
    const payment = (await world.create(app, world.shop.testKey, { amount_cents: SANDBOX_MAGIC_AMOUNTS.neverSettles }))
      .body;
    const delaysMs: (number | null)[] = [];
    for (let poll = 0; poll < 4; poll += 1) {
      await world.makePollDue(payment.id);
      const started = Date.now();
      await runClaimed(await payments.claimDuePaymentPolls(dependencies, CLAIM_LIMIT));
      const row = await world.pollFieldsOf(payment.id);
      expect(row.poll_count).toBe(poll + 1);
      // Rounded to the second: the claim's now() lies between `started` and the row's read.
      delaysMs.push(
        row.next_poll_at === null ? null : Math.round((row.next_poll_at.getTime() - started) / 1000) * 1000,
      );
    }
    // 3 s, then 5 s (the last delay repeats), then none: now + 5 s would pass the 12 s window.
    expect(delaysMs.slice(0, 3)).toEqual([3000, 5000, 5000]);
    await world.db.database.query(sql.unsafe`
      UPDATE payments SET expires_at = now() + interval '4 seconds', next_poll_at = now() WHERE id = ${payment.id}`);
    await runClaimed(await payments.claimDuePaymentPolls(dependencies, CLAIM_LIMIT));
    expect((await world.pollFieldsOf(payment.id)).next_poll_at).toBeNull();
    // A poll not yet due is not claimed.
    await world.db.database.query(
      sql.unsafe`UPDATE payments SET next_poll_at = now() + interval '1 hour' WHERE id = ${payment.id}`,
    );
    const countBefore = (await world.pollFieldsOf(payment.id)).poll_count;
    await runClaimed(await payments.claimDuePaymentPolls(dependencies, CLAIM_LIMIT));
    expect((await world.pollFieldsOf(payment.id)).poll_count).toBe(countBefore);
  });

  test("a payment settled by callback costs no polling: the batch never claims it", async () => {
    // The batch claims every due payment of the database (earlier tests' too): only this one's count.
    const inquired: string[] = [];
    const counting = inquiryRecordingGateway(inquired);
    const { app, dependencies } = world.setup({}, { test: counting, live: counting });
    const payment = (await world.create(app, world.shop.testKey, { amount_cents: 700 })).body;
    expect((await request(app).post(`/checkout/${payment.id}/mockpay`).send({})).status).toBe(200);
    await world.makePollDue(payment.id);
    await runClaimed(await payments.claimDuePaymentPolls(dependencies, CLAIM_LIMIT));
    expect(await world.pollFieldsOf(payment.id)).toMatchObject({ status: "paid", poll_count: 0 });
    expect(inquired.filter((id) => id === payment.id)).toEqual([]);
  });

  test("a poll right after a client's GET keeps to the inquiry throttle; once it has passed, the poll asks", async () => {
    const inquired: string[] = [];
    const counting = inquiryRecordingGateway(inquired);
    const { app, dependencies } = world.setup(
      { PAYMENT_INQUIRY_MIN_INTERVAL_SECONDS: "60" },
      { test: counting, live: counting },
    );
    const payment = (await world.create(app, world.shop.testKey, { amount_cents: 700 })).body;
    const inquiriesOfPayment = () => inquired.filter((id) => id === payment.id).length;
    await request(app).get(`/v1/payments/${payment.id}`).set("Authorization", `Bearer ${world.shop.testKey}`);
    expect(inquiriesOfPayment()).toBe(1);
    await world.makePollDue(payment.id);
    await runClaimed(await payments.claimDuePaymentPolls(dependencies, CLAIM_LIMIT));
    expect(inquiriesOfPayment()).toBe(1);
    expect((await world.pollFieldsOf(payment.id)).poll_count).toBe(1);
    await world.passInquiryInterval(payment.id);
    await world.makePollDue(payment.id);
    await runClaimed(await payments.claimDuePaymentPolls(dependencies, CLAIM_LIMIT));
    expect(inquiriesOfPayment()).toBe(2);
    expect((await world.pollFieldsOf(payment.id)).poll_count).toBe(2);
  });

  test("two replicas of each pool's pump over 1,000 pending payments: each settled or expired exactly once", async () => {
    const inquiriesOf = new Map<string, number>();
    const sandbox = createSandboxGateway({ autoSettleMs: 1000 });
    const counting: PaymentGateway = {
      issuePaymentCode: (request) => sandbox.issuePaymentCode(request),
      voidPaymentCode: (request) => sandbox.voidPaymentCode(request),
      inquirePaymentCode: (request) => {
        inquiriesOf.set(request.paymentId, (inquiriesOf.get(request.paymentId) ?? 0) + 1);
        return sandbox.inquirePaymentCode(request);
      },
    };
    const gateways = { test: counting, live: counting };
    // A claim moves the payment's next poll the schedule's next delay ahead: long here, so that however
    // slowly a loaded machine works through a batch, a second inquiry can only come from overlapping claims.
    const environment = { PAYMENT_POLL_SCHEDULE_SECONDS: "2,600" };
    const replicas = [world.setup(environment, gateways), world.setup(environment, gateways)].map(
      ({ config, dependencies }) => ({ config, dependencies, database: world.db.database, logger }),
    );
    // 500 paid at the gateway and due for a poll; 500 never paid, their window closed.
    const count = 1000;
    await world.db.database.query(sql.unsafe`
      INSERT INTO payments (merchant_id, id, livemode, status, amount_cents, currency, fee_cents, reference, code,
        gateway_reference, qr_png_data_url, expires_at, next_poll_at, created_at, updated_at)
      SELECT ${world.shop.id}, 'pay_replica_' || g || '_' || ${world.shop.id}, false, 'pending',
        CASE WHEN g % 2 = 0 THEN 1000 ELSE ${SANDBOX_MAGIC_AMOUNTS.neverSettles} END, 'USD', 0,
        'PRREPLICA' || g || ${world.shop.id}, lpad((800000000 + g)::text, 9, '0'), 'gw_' || g, 'data:image/png;base64,AA==',
        CASE WHEN g % 2 = 0 THEN now() + interval '8 minutes' ELSE now() - interval '1 second' END,
        CASE WHEN g % 2 = 0 THEN now() - interval '1 second' END,
        now() - interval '2 minutes', now() - interval '2 minutes'
      FROM generate_series(1, ${count}) AS g`);
    const pendingOfShop = () =>
      world.db.database.oneFirst(sql.type(countSchema)`
        SELECT count(*)::int AS count FROM payments WHERE merchant_id = ${world.shop.id} AND status = 'pending'`);
    // Two replicas of both pools at once, as pumps, until every payment has ended.
    await runPumpsUntilDone(
      replicas.flatMap((replica) => {
        const pumpEnvironment = { ...replica, databaseUrl: world.db.url };
        return [
          startPoolPump("gateway-poller", pollDuePaymentsPump(replica.dependencies), pumpEnvironment),
          startPoolPump("code-expiry", expireDuePaymentsPump(replica.dependencies), pumpEnvironment),
        ];
      }),
      pendingOfShop,
    );
    const outcomes = await outcomesOf(
      world.db.database,
      { table: "payments", eventIdField: "payment_id", sourceType: "payment" },
      world.shop.id,
      "pay_replica_",
    );
    // Each paid (one event, one ledger transaction) or expired (one event) once; claims never
    // overlap: one inquiry per payment, across both replicas.
    expectEachEndedOnce(
      outcomes,
      { paid: { count: count / 2, events: 1, postings: 1 }, expired: { count: count / 2, events: 1, postings: 0 } },
      inquiriesOf,
    );
    expect(await world.balanceOf(world.shop.id, false)).toEqual({ USD: 1000 * (count / 2) });
  });
});

/** The sandbox (never settling on its own), recording in `inquired` the payments it is asked about. */
function inquiryRecordingGateway(inquired: string[]): PaymentGateway {
  const sandbox = createSandboxGateway({ autoSettleMs: 3_600_000 });
  return {
    issuePaymentCode: (request) => sandbox.issuePaymentCode(request),
    voidPaymentCode: (request) => sandbox.voidPaymentCode(request),
    inquirePaymentCode: (request) => {
      inquired.push(request.paymentId);
      return sandbox.inquirePaymentCode(request);
    },
  };
}
