import { z } from "zod";
import { agentTestWorld } from "../../../tests/support/agent.ts";
import { apiGet, apiPost } from "../../../tests/support/app.ts";
import { expectEachEndedOnce, outcomesOf, runPumpsUntilDone } from "../../../tests/support/batch-replicas.ts";
import { available } from "../../../tests/support/money.ts";
import { CLAIM_LIMIT, runClaimed, startPoolPump } from "../../../tests/support/pumps.ts";
import { waitUntil } from "../../../tests/support/time.ts";
import { createSandboxGateway } from "../../gateway/sandbox.ts";
import {
  GatewayUnavailableError,
  type WalletGateway,
  type WalletGateways,
  type WithdrawalCodeStatus,
} from "../../gateway/wallet-gateway.ts";
import { sql } from "../../platform/db/pool.ts";
import { createLogger } from "../../platform/telemetry/logger.ts";
import * as agent from "./index.ts";
import { expireDueWithdrawalCodesPump } from "./pumps/expire-due-withdrawal-codes.ts";
import { pollDueWithdrawalCodesPump } from "./pumps/poll-due-withdrawal-codes.ts";

/** Withdrawal codes polled and expired in batches by the gateway-poller and code-expiry pools. */

const logger = createLogger({ level: "silent", service: "test" });
const world = agentTestWorld();

/**
 * The sandbox, but the network's answer about each code is the test's (`answerOf`, pending unless
 * told), and every inquiry is counted per withdrawal.
 */
function scriptedGateway(answerOf: (request: { withdrawalId: string; amountCents: number }) => WithdrawalCodeStatus) {
  const inquiriesOf = new Map<string, number>();
  const sandbox = createSandboxGateway({ autoSettleMs: 3_600_000 });
  const gateway: WalletGateway = {
    ...sandbox,
    inquireWithdrawalCode: async (request) => {
      inquiriesOf.set(request.withdrawalId, (inquiriesOf.get(request.withdrawalId) ?? 0) + 1);
      return answerOf(request);
    },
  };
  const gateways: WalletGateways = { test: gateway, live: gateway };
  return { gateways, inquiriesOf };
}

const redeemedNow = (): WithdrawalCodeStatus => ({ state: "redeemed", redeemedAt: new Date(), customerMsisdn: null });
const create = async (app: Parameters<typeof apiPost>[0], amountCents: number) =>
  (await apiPost(app, "/v1/agent/withdrawal_codes", world.shop.testKey, { amount_cents: amountCents })).body;
const statusOf = async (id: string) => (await world.pollFieldsOf(id)).status;

describe("withdrawal codes in the gateway-poller and code-expiry pools", () => {
  test("without any client, the poller's pump redeems a claimed code and the expiry's expires another", async () => {
    const claimed = new Set<string>();
    const { gateways } = scriptedGateway(({ withdrawalId }) =>
      claimed.has(withdrawalId) ? redeemedNow() : { state: "pending" },
    );
    const { app, config } = world.setup(
      {
        PAYMENT_POLL_SCHEDULE_SECONDS: "0.2",
        PAYMENT_INQUIRY_MIN_INTERVAL_SECONDS: "0.05",
        WORKER_POLL_INTERVAL_MS: "50",
      },
      gateways,
    );
    const environment = { config, database: world.db.database, databaseUrl: world.db.url, logger };
    const pumps = [
      startPoolPump("gateway-poller", pollDueWithdrawalCodesPump(gateways), environment),
      startPoolPump("code-expiry", expireDueWithdrawalCodesPump(gateways), environment),
    ];
    try {
      const redeeming = await create(app, 500);
      const unclaimed = await create(app, 600);
      // The customer claims the first code at the network; the second code's window closes.
      claimed.add(redeeming.id);
      await world.closeWindow(unclaimed.id);
      const statuses = async () => [await statusOf(redeeming.id), await statusOf(unclaimed.id)].join();
      await waitUntil(
        "one code is redeemed and the other expired",
        async () => (await statuses()) === "redeemed,expired",
      );
      expect(await available(world.db.database, world.shop.id, false)).toBe(500);
    } finally {
      await Promise.all(pumps.map((pump) => pump.stop()));
    }
  });
});

describe("withdrawal codes polled and expired in batches", () => {
  test("the poller's batch follows the poll schedule per code, and stops before the code's expiry", async () => {
    const { app, dependencies } = world.setup({
      PAYMENT_POLL_SCHEDULE_SECONDS: "2,3,5",
      WITHDRAWAL_CODE_WINDOW_SECONDS: "12",
    });
    const code = await create(app, 100);
    const delaysMs: (number | null)[] = [];
    for (let poll = 0; poll < 3; poll += 1) {
      await world.makePollDue(code.id);
      const started = Date.now();
      await runClaimed(await agent.claimDueWithdrawalPolls(dependencies, CLAIM_LIMIT));
      const row = await world.pollFieldsOf(code.id);
      expect(row).toMatchObject({ status: "pending", poll_count: poll + 1 });
      // Rounded to the second: the claim's now() lies between `started` and the row's read.
      delaysMs.push(
        row.next_poll_at === null ? null : Math.round((row.next_poll_at.getTime() - started) / 1000) * 1000,
      );
    }
    // 3 s, then 5 s (the last delay repeats).
    expect(delaysMs).toEqual([3000, 5000, 5000]);
    // None once now + 5 s would pass the code's expiry: its expiry's last inquiry is the next.
    await world.db.database.query(sql.unsafe`
      UPDATE withdrawal_codes SET expires_at = now() + interval '4 seconds', next_poll_at = now() WHERE id = ${code.id}`);
    await runClaimed(await agent.claimDueWithdrawalPolls(dependencies, CLAIM_LIMIT));
    expect((await world.pollFieldsOf(code.id)).next_poll_at).toBeNull();
    // A poll not yet due is not claimed.
    await world.db.database.query(
      sql.unsafe`UPDATE withdrawal_codes SET next_poll_at = now() + interval '1 hour' WHERE id = ${code.id}`,
    );
    const before = await world.pollFieldsOf(code.id);
    await runClaimed(await agent.claimDueWithdrawalPolls(dependencies, CLAIM_LIMIT));
    expect(await world.pollFieldsOf(code.id)).toEqual(before);
    // A code whose window is shorter than the first delay gets no poll at all.
    const short = world.setup({ PAYMENT_POLL_SCHEDULE_SECONDS: "2,3,5", WITHDRAWAL_CODE_WINDOW_SECONDS: "1" });
    expect((await world.pollFieldsOf((await create(short.app, 100)).id)).next_poll_at).toBeNull();
  });

  test("a poll right after a client's GET keeps to the inquiry throttle", async () => {
    const { gateways, inquiriesOf } = scriptedGateway(() => ({ state: "pending" }));
    const { app, dependencies } = world.setup({ PAYMENT_INQUIRY_MIN_INTERVAL_SECONDS: "60" }, gateways);
    const code = await create(app, 100);
    expect((await apiGet(app, `/v1/agent/withdrawal_codes/${code.id}`, world.shop.testKey)).body.status).toBe(
      "pending",
    );
    expect(inquiriesOf.get(code.id)).toBe(1);
    await world.makePollDue(code.id);
    await runClaimed(await agent.claimDueWithdrawalPolls(dependencies, CLAIM_LIMIT));
    // Claimed (its next poll moved on), but not asked about again within the interval.
    expect(await world.pollFieldsOf(code.id)).toMatchObject({ poll_count: 1, inquiry_count: 1 });
    expect(inquiriesOf.get(code.id)).toBe(1);
  });

  test("an expiry whose last inquiry cannot decide leaves the code pending, tried again after a growing backoff", async () => {
    let gatewayDown = true;
    const redeemedAtNetwork = new Set<string>();
    const { gateways } = scriptedGateway(({ withdrawalId }) => {
      if (gatewayDown) {
        throw new GatewayUnavailableError("the network does not answer");
      }
      return redeemedAtNetwork.has(withdrawalId) ? redeemedNow() : { state: "pending" };
    });
    const { app, dependencies } = world.setup({}, gateways);
    const lastSecond = await create(app, 300);
    const unclaimed = await create(app, 400);
    redeemedAtNetwork.add(lastSecond.id);
    for (const code of [lastSecond, unclaimed]) {
      await world.closeWindow(code.id);
    }
    const backoffs: number[] = [];
    for (let attempt = 1; attempt <= 2; attempt += 1) {
      const started = Date.now();
      const run = await runClaimed(await agent.claimDueWithdrawalExpiries(dependencies, CLAIM_LIMIT));
      expect(run.failed).toBeGreaterThanOrEqual(2);
      for (const code of [lastSecond, unclaimed]) {
        const row = await world.pollFieldsOf(code.id);
        // Never an expiry by guesswork.
        expect(row).toMatchObject({ status: "pending", expiry_attempts: attempt });
        backoffs.push(Math.round(((row.expiry_retry_at?.getTime() ?? 0) - started) / 1000));
      }
      // Not claimed again before its backoff has passed.
      await runClaimed(await agent.claimDueWithdrawalExpiries(dependencies, CLAIM_LIMIT));
      expect((await world.pollFieldsOf(lastSecond.id)).expiry_attempts).toBe(attempt);
      for (const code of [lastSecond, unclaimed]) {
        await world.passExpiryBackoff(code.id);
      }
    }
    // 30 s, then doubled.
    expect(backoffs).toEqual([30, 30, 60, 60]);
    // The network answers again: the code claimed in its last second is redeemed, the other expires.
    gatewayDown = false;
    await runClaimed(await agent.claimDueWithdrawalExpiries(dependencies, CLAIM_LIMIT));
    expect([await statusOf(lastSecond.id), await statusOf(unclaimed.id)]).toEqual(["redeemed", "expired"]);
    expect(await available(world.db.database, world.shop.id, false)).toBe(300);
  });

  test("two replicas of each pool's pump over 400 pending codes: each redeemed or expired exactly once", async () => {
    // The network reports the codes of 1000 cents claimed, the others never.
    const { gateways, inquiriesOf } = scriptedGateway(({ amountCents }) =>
      amountCents === 1000 ? redeemedNow() : { state: "pending" },
    );
    // A claim moves the code's next poll the schedule's next delay ahead: long here, so that however
    // slowly a loaded machine works through a batch, a second inquiry can only come from overlapping claims.
    const environment = { PAYMENT_POLL_SCHEDULE_SECONDS: "2,600" };
    const replicas = [world.setup(environment, gateways), world.setup(environment, gateways)].map(({ config }) => ({
      config,
      database: world.db.database,
      logger,
    }));
    // 200 claimed at the network and due for a poll; 200 never claimed, their window closed.
    const count = 400;
    await world.db.database.query(sql.unsafe`
      INSERT INTO withdrawal_codes (merchant_id, id, livemode, status, amount_cents, currency, code, reference,
        gateway_reference, qr_png_data_url, expires_at, next_poll_at, created_at, updated_at)
      SELECT ${world.shop.id}, 'wdc_replica_' || g || '_' || ${world.shop.id}, false, 'pending',
        CASE WHEN g % 2 = 0 THEN 1000 ELSE 700 END, 'USD', lpad((700000000 + g)::text, 9, '0'),
        'WDREPLICA' || g || ${world.shop.id}, 'gw_' || g, '',
        CASE WHEN g % 2 = 0 THEN now() + interval '8 minutes' ELSE now() - interval '1 second' END,
        CASE WHEN g % 2 = 0 THEN now() - interval '1 second' END,
        now() - interval '2 minutes', now() - interval '2 minutes'
      FROM generate_series(1, ${count}) AS g`);
    const pendingOfShop = () =>
      world.db.database.oneFirst(sql.type(z.object({ count: z.number() }))`
        SELECT count(*)::int AS count FROM withdrawal_codes WHERE merchant_id = ${world.shop.id} AND status = 'pending'`);
    // Two replicas of both pools at once, as pumps, until every code has ended.
    await runPumpsUntilDone(
      replicas.flatMap((replica) => {
        const pumpEnvironment = { ...replica, databaseUrl: world.db.url };
        return [
          startPoolPump("gateway-poller", pollDueWithdrawalCodesPump(gateways), pumpEnvironment),
          startPoolPump("code-expiry", expireDueWithdrawalCodesPump(gateways), pumpEnvironment),
        ];
      }),
      pendingOfShop,
    );
    const outcomes = await outcomesOf(
      world.db.database,
      { table: "withdrawal_codes", eventIdField: "withdrawal_id", sourceType: "withdrawal_code" },
      world.shop.id,
      "wdc_replica_",
    );
    // Each redeemed (one withdrawal.redeemed, one ledger transaction) or expired (nothing) once;
    // claims never overlap: one inquiry per code, across both replicas.
    expectEachEndedOnce(
      outcomes,
      {
        redeemed: { count: count / 2, events: 1, postings: 1 },
        expired: { count: count / 2, events: 0, postings: 0 },
      },
      inquiriesOf,
    );
    expect(await available(world.db.database, world.shop.id, false)).toBe(1000 * (count / 2));
  });
});
