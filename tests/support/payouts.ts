import request from "supertest";
import { z } from "zod";
import { createSandboxGateway } from "../../src/gateway/sandbox.ts";
import type { WalletGateway, WalletGateways } from "../../src/gateway/wallet-gateway.ts";
import type { PayoutDependencies } from "../../src/modules/payouts/dependencies.ts";
import { claimDuePayoutPasses, processPayout } from "../../src/modules/payouts/processing.ts";
import { getPayoutById } from "../../src/modules/payouts/reading.ts";
import { sql } from "../../src/platform/db/pool.ts";
import { createLogger } from "../../src/platform/telemetry/logger.ts";
import { apiPost, apiSetup, TEST_ADMIN_TOKEN, type TestApp, testApp, testConfig } from "./app.ts";
import { createTestDatabase, type TestDatabase } from "./database.ts";
import { newMerchant, type TestMerchant } from "./factories.ts";
import { sleep } from "./money.ts";
import { CLAIM_LIMIT, runClaimed } from "./pumps.ts";

/**
 * What every payouts test file shares: a test database for the file, and for each test a fresh shop
 * with a verified wallet (`WALLET`), the API over them with the sandbox's timing shortened (`setup`),
 * and the processor's passes run as its pump would.
 */

export const logger = createLogger({ level: "silent", service: "test" });
export const admin = `Bearer ${TEST_ADMIN_TOKEN}`;
export const WALLET = "263771234567";

/** Shortened sandbox time: settles 0.3 s after submission, the processor comes back every 0.4 s. */
export const FAST = {
  PAYOUT_SETTLE_SECONDS: "0.3",
  PAYOUT_PROCESSOR_INTERVAL_SECONDS: "0.4",
  PAYOUT_RETRY_SECONDS: "0.2",
  RATE_LIMIT_REQUESTS: "10000",
  // The sandbox answers in-process; short gateway deadlines allow short leases in the crash tests.
  GATEWAY_TIMEOUT_MS: "100",
  GATEWAY_RETRIES: "0",
};

export const createPayout = (app: TestApp, key: string, body: unknown, idempotencyKey?: string) =>
  apiPost(app, "/v1/payouts", key, body, idempotencyKey);

/** One step of the processor's pump: the due payouts (at most `limit`) claimed and passed once. */
export const runDue = async (dependencies: PayoutDependencies, limit = CLAIM_LIMIT) =>
  runClaimed(await claimDuePayoutPasses(dependencies, limit));

/**
 * A gateway that counts submissions per payout id at the sandbox's door. Its payouts settle 0.3 s
 * after submission on `clock`, which the test moves (the real clock unless given).
 */
export function countingSandbox(clock: { now: () => number } = { now: Date.now }) {
  const sandbox = createSandboxGateway({ autoSettleMs: 18_000, payoutSettleMs: 300, now: clock.now });
  const submissions = new Map<string, number>();
  const gateway: WalletGateway = {
    ...sandbox,
    submitPayout: (submission) => {
      submissions.set(submission.payoutId, (submissions.get(submission.payoutId) ?? 0) + 1);
      return sandbox.submitPayout(submission);
    },
  };
  return { gateways: { test: gateway, live: gateway }, submissions };
}

/** A gateway whose submissions reach `gateway` and whose caller never hears back: a worker dying mid-pass. */
export function dyingAfterSubmission(gateway: WalletGateway): WalletGateway {
  return {
    ...gateway,
    submitPayout: async (submission) => {
      await gateway.submitPayout(submission);
      return new Promise<never>(() => {});
    },
  };
}

export function payoutsTestWorld() {
  const world = {
    db: undefined as unknown as TestDatabase,
    shop: undefined as unknown as TestMerchant,
    setup: (environment: Record<string, string> = {}, gateways?: WalletGateways) =>
      apiSetup(world.db, { ...FAST, ...environment }, gateways),
    setDestination: (merchant: TestMerchant, msisdn: string, verified = true) =>
      request(testApp({ database: world.db.database, config: testConfig(world.db.url) }))
        .post(`/admin/v1/merchants/${merchant.id}/payout_destination`)
        .set("Authorization", admin)
        .send({ msisdn, verified })
        .expect(200),
    payoutRow: (id: string) =>
      world.db.database.one(
        sql.type(
          z.object({ status: z.string(), submit_attempts: z.number(), next_attempt_at: z.date() }),
        )`SELECT status, submit_attempts, next_attempt_at FROM payouts WHERE id = ${id}`,
      ),
    /** Runs the processor's passes as its jobs would, each at its scheduled time, until the payout is final. */
    processUntilFinal: async (dependencies: PayoutDependencies, payout: { id: string }, passes = 10) => {
      const { merchant_id: merchantId } = await getPayoutById(world.db.database, payout.id);
      for (let pass = 0; pass < passes; pass += 1) {
        const row = await processPayout(dependencies, { merchantId, payoutId: payout.id });
        if (row === null || !["requested", "submitted"].includes(row.status)) {
          return row;
        }
        await sleep(Math.max(0, row.next_attempt_at.getTime() - Date.now()) + 20);
      }
      return getPayoutById(world.db.database, payout.id);
    },
    /**
     * As if the dying worker's lease had lapsed some time ago: moved into the past on the database clock,
     * which decides it.
     */
    lapseLease: async (payoutId: string) => {
      await world.db.database.query(sql.unsafe`
        UPDATE payouts SET lease_until = now() - interval '1 millisecond', next_attempt_at = now() - interval '1 hour'
        WHERE id = ${payoutId}`);
    },
  };
  beforeAll(async () => {
    world.db = await createTestDatabase({ poolSize: 20 });
  });
  beforeEach(async () => {
    world.shop = await newMerchant(world.db.database, { payout_msisdn: WALLET, payout_verified: true });
  });
  afterAll(() => world.db.close());
  return world;
}
