import { randomUUID } from "node:crypto";
import { Registry } from "prom-client";
import { z } from "zod";
import { agentTestWorld } from "../../../tests/support/agent.ts";
import { apiGet, apiPost, type TestApp } from "../../../tests/support/app.ts";
import { fund, newMerchant } from "../../../tests/support/factories.ts";
import {
  accountBalances,
  available,
  eventsAbout,
  eventually,
  jobsWithKey,
  ledgerTransactionsOf,
  postingsOf,
} from "../../../tests/support/money.ts";
import { holderNameOf } from "../../gateway/network-data.ts";
import { createSandboxGateway } from "../../gateway/sandbox.ts";
import { GatewayUnavailableError, type WalletGateway } from "../../gateway/wallet-gateway.ts";
import { sql } from "../../platform/db/pool.ts";
import { createWorkerPgPool } from "../../platform/queue/pg-pool.ts";
import { startWorkerPool } from "../../platform/queue/worker-pool.ts";
import { createLogger } from "../../platform/telemetry/logger.ts";
import * as agent from "./index.ts";
import { reconcileBankChangeTask } from "./tasks/reconcile-bank-change.ts";

/** Change-to-wallet: the instant transfer of small change to a customer's wallet, and its reconciliation. */

const logger = createLogger({ level: "silent", service: "test" });
const world = agentTestWorld();
const countSchema = z.object({ count: z.number() });

describe("change-to-wallet", () => {
  const change = (app: TestApp, body: unknown, idempotencyKey?: string, key = world.shop.testKey) =>
    apiPost(app, "/v1/agent/bank_changes", key, body, idempotencyKey);

  test("instant: completed, the balance debited, who received it recorded, bank_change.completed", async () => {
    const { app } = world.setup();
    await fund(world.db.database, world.shop, 2000);
    const response = await change(app, { amount_cents: 350, destination_msisdn: "263771112233", narration: "Change" });
    expect(response.status).toBe(201);
    const body = response.body;
    expect(body).toMatchObject({
      object: "bank_change",
      livemode: false,
      status: "completed",
      amount_cents: 350,
      currency: "USD",
      destination_msisdn: "263771112233",
      recipient_name: holderNameOf("263771112233"),
      narration: "Change",
      failure_reason: null,
    });
    expect(body.id).toMatch(/^bch_/);
    expect(body.gateway_reference).toMatch(/^CTW[0-9]{10}$/);
    expect(await accountBalances(world.db.database, world.shop.id, false)).toEqual({
      merchant_available: { USD: 1650 },
      gateway_clearing: { USD: -2000 + 350 },
    });
    expect(await postingsOf(world.db.database, body.id)).toEqual([
      { account: "gateway_clearing", entry_type: "bank_change", currency: "USD", amount_cents: 350 },
      { account: "merchant_available", entry_type: "bank_change", currency: "USD", amount_cents: -350 },
    ]);
    expect(await eventsAbout(world.db.database, "bank_change_id", body.id)).toEqual([
      {
        type: "bank_change.completed",
        livemode: false,
        data: {
          bank_change_id: body.id,
          amount_cents: 350,
          currency: "USD",
          destination_msisdn: "263771112233",
          recipient_name: body.recipient_name,
          reference: body.reference,
        },
      },
    ]);
    // Its reconcile job is no longer needed.
    expect(await jobsWithKey(world.db.database, `bank_change_reconcile:${body.id}`)).toEqual([]);
    expect((await apiGet(app, `/v1/agent/bank_changes/${body.id}`, world.shop.testKey)).body).toEqual(body);
  });

  test("the limit: 500 cents in USD is accepted, 501 refused with bank_change_limit; ZWG's limit is a setting", async () => {
    const { app } = world.setup({ BANK_CHANGE_LIMIT_ZWG_CENTS: "2000" });
    await fund(world.db.database, world.shop, 5000);
    await fund(world.db.database, world.shop, 5000, false, "ZWG");
    expect((await change(app, { amount_cents: 500, destination_msisdn: "263771112233" })).status).toBe(201);
    const above = await change(app, { amount_cents: 501, destination_msisdn: "263771112233" });
    expect(above.status).toBe(400);
    expect(above.body.error).toMatchObject({ type: "invalid_request", code: "bank_change_limit" });
    expect(
      (await change(app, { amount_cents: 2000, currency: "ZWG", destination_msisdn: "263771112233" })).status,
    ).toBe(201);
    expect(
      (await change(app, { amount_cents: 2001, currency: "ZWG", destination_msisdn: "263771112233" })).body.error.code,
    ).toBe("bank_change_limit");
    expect(await accountBalances(world.db.database, world.shop.id, false)).toMatchObject({
      merchant_available: { USD: 4500, ZWG: 3000 },
    });
  });

  test.each([
    ["a number not starting 263", { amount_cents: 100, destination_msisdn: "0771112233" }, "invalid_msisdn"],
    ["letters", { amount_cents: 100, destination_msisdn: "26377abc" }, "invalid_msisdn"],
    ["no destination", { amount_cents: 100 }, "invalid_msisdn"],
    ["a zero amount", { amount_cents: 0, destination_msisdn: "263771112233" }, "invalid_amount"],
    ["a bad currency", { amount_cents: 10, currency: "usd", destination_msisdn: "263771112233" }, "invalid_currency"],
    [
      "a long narration",
      { amount_cents: 10, destination_msisdn: "263771112233", narration: "x".repeat(201) },
      "parameter_invalid",
    ],
  ])("refuses %s with 400, moving nothing", async (_, body, code) => {
    const { app } = world.setup();
    await fund(world.db.database, world.shop, 1000);
    const response = await change(app, body);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ type: "invalid_request", code });
    expect(await available(world.db.database, world.shop.id, false)).toBe(1000);
  });

  test("402 when the balance is short: nothing debited, nothing recorded; a retry replays it", async () => {
    const { app } = world.setup();
    await fund(world.db.database, world.shop, 100);
    const key = randomUUID();
    const short = await change(app, { amount_cents: 101, destination_msisdn: "263771112233" }, key);
    expect(short.status).toBe(402);
    expect(short.body.error.code).toBe("insufficient_funds");
    expect((await change(app, { amount_cents: 101, destination_msisdn: "263771112233" }, key)).status).toBe(402);
    expect(await available(world.db.database, world.shop.id, false)).toBe(100);
    expect(
      await world.db.database.oneFirst(
        sql.type(countSchema)`SELECT count(*)::int AS count FROM bank_changes WHERE merchant_id = ${world.shop.id}`,
      ),
    ).toBe(0);
  });

  test("a retry with the same key moves nothing twice", async () => {
    const { app } = world.setup();
    await fund(world.db.database, world.shop, 1000);
    const key = randomUUID();
    const first = await change(app, { amount_cents: 200, destination_msisdn: "263771112233" }, key);
    const again = await change(app, { amount_cents: 200, destination_msisdn: "263771112233" }, key);
    expect(again.body).toEqual(first.body);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(await available(world.db.database, world.shop.id, false)).toBe(800);
  });

  test("a refused destination (ending 0000): 400 bank_change_failed, the debit reversed, bank_change.failed", async () => {
    const { app } = world.setup();
    await fund(world.db.database, world.shop, 1000);
    const refused = await change(app, { amount_cents: 300, destination_msisdn: "263771110000" });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe("bank_change_failed");
    const id = refused.body.error.message.match(/bch_[0-9A-Za-z]+/)?.[0] as string;
    expect((await apiGet(app, `/v1/agent/bank_changes/${id}`, world.shop.testKey)).body).toMatchObject({
      status: "failed",
      failure_reason: "sandbox: no wallet is registered for this number",
    });
    expect(await available(world.db.database, world.shop.id, false)).toBe(1000);
    expect((await eventsAbout(world.db.database, "bank_change_id", id)).map((event) => event.type)).toEqual([
      "bank_change.failed",
    ]);
    expect((await ledgerTransactionsOf(world.db.database, id)).map((transaction) => transaction.posting_key)).toEqual([
      `bank_change:${id}:debit`,
      expect.stringMatching(/^reversal:ltx_/),
    ]);
  });

  test("a transient fault (ending 0096): 502, the money reserved; the retry with the same key resumes it once", async () => {
    const { app } = world.setup();
    await fund(world.db.database, world.shop, 1000);
    const key = randomUUID();
    const body = { amount_cents: 250, destination_msisdn: "263771110096" };
    const first = await change(app, body, key);
    expect(first.status).toBe(502);
    expect(first.body.error.code).toBe("gateway_error");
    expect(await available(world.db.database, world.shop.id, false)).toBe(750);
    const retried = await change(app, body, key);
    expect(retried.status).toBe(201);
    expect(retried.body.status).toBe("completed");
    expect(await available(world.db.database, world.shop.id, false)).toBe(750);
    expect(await ledgerTransactionsOf(world.db.database, retried.body.id)).toHaveLength(1);
    expect(
      (await eventsAbout(world.db.database, "bank_change_id", retried.body.id)).map((event) => event.type),
    ).toEqual(["bank_change.completed"]);
  });

  test("left unclear without a retry, the reconcile job settles it by inquiry: refunded if never received, completed if it was", async () => {
    const sandbox = createSandboxGateway({ autoSettleMs: 18_000 });
    // This gateway receives the transfer, and its answer is lost on the way back.
    const lossy: WalletGateway = {
      ...sandbox,
      sendChangeToWallet: async (transfer) => {
        await sandbox.sendChangeToWallet(transfer);
        throw new GatewayUnavailableError("connection reset after the request was sent");
      },
    };
    const { app, dependencies } = world.setup({ MONEY_OUT_LEASE_SECONDS: "0.5" }, { test: lossy, live: lossy });
    await fund(world.db.database, world.shop, 1000);
    const lost = await change(app, { amount_cents: 100, destination_msisdn: "263771112233" });
    expect(lost.status).toBe(502);
    const neverReceived = await change(app, { amount_cents: 200, destination_msisdn: "263771110096" });
    expect(neverReceived.status).toBe(502);
    expect(await available(world.db.database, world.shop.id, false)).toBe(700);
    const rows = await world.db.database.any(sql.type(z.object({ id: z.string(), amount_cents: z.number() }))`
      SELECT id, amount_cents FROM bank_changes WHERE merchant_id = ${world.shop.id} ORDER BY amount_cents`);
    const [lostId, neverId] = rows.map((row) => row.id) as [string, string];
    const reconciled = await Promise.all(
      [lostId, neverId].map((id) =>
        agent.reconcileBankChange(dependencies, { merchantId: world.shop.id, bankChangeId: id }),
      ),
    );
    expect(reconciled.map((row) => row?.status)).toEqual(["completed", "failed"]);
    expect(await available(world.db.database, world.shop.id, false)).toBe(900);
    expect((await eventsAbout(world.db.database, "bank_change_id", neverId)).map((event) => event.type)).toEqual([
      "bank_change.failed",
    ]);
    // Running it again changes nothing.
    await agent.reconcileBankChange(dependencies, { merchantId: world.shop.id, bankChangeId: lostId });
    expect(await ledgerTransactionsOf(world.db.database, lostId)).toHaveLength(1);
    expect((await eventsAbout(world.db.database, "bank_change_id", lostId)).map((event) => event.type)).toEqual([
      "bank_change.completed",
    ]);
  });

  test("the gateway-poller pool runs the reconciliation without any client", async () => {
    const { app, config, dependencies } = world.setup({
      MONEY_OUT_RECONCILE_SECONDS: "0.3",
      WORKER_POLL_INTERVAL_MS: "50",
    });
    await fund(world.db.database, world.shop, 1000);
    expect((await change(app, { amount_cents: 200, destination_msisdn: "263771110096" })).status).toBe(502);
    const pgPool = createWorkerPgPool({ url: world.db.url, size: 4, applicationName: "test", logger });
    const runner = await startWorkerPool({
      pool: "gateway-poller",
      tasks: [reconcileBankChangeTask(dependencies.gateways)],
      dependencies: { config, database: world.db.database, logger },
      pgPool,
      registry: new Registry(),
    });
    try {
      await eventually(async () => (await available(world.db.database, world.shop.id, false)) === 1000);
    } finally {
      await runner.stop();
      await pgPool.end();
    }
  });

  test("test and live balances never mix; another merchant's change is not found", async () => {
    const { app } = world.setup();
    await fund(world.db.database, world.shop, 1000);
    const live = await change(
      app,
      { amount_cents: 100, destination_msisdn: "263771112233" },
      undefined,
      world.shop.liveKey,
    );
    expect(live.status).toBe(402);
    const done = (await change(app, { amount_cents: 100, destination_msisdn: "263771112233" })).body;
    const other = await newMerchant(world.db.database);
    expect((await apiGet(app, `/v1/agent/bank_changes/${done.id}`, other.testKey)).status).toBe(404);
    expect((await apiGet(app, `/v1/agent/bank_changes/${done.id}`, world.shop.liveKey)).status).toBe(404);
    expect(await available(world.db.database, world.shop.id, true)).toBe(0);
  });
});
