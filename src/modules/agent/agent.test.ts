import { randomUUID } from "node:crypto";
import jsQRModule from "jsqr";
import { PNG } from "pngjs";
import { Registry } from "prom-client";
import { z } from "zod";
import { apiGet, apiPost, apiSetup, type TestApp } from "../../../tests/support/app.ts";
import { collidingCodes } from "../../../tests/support/colliding-codes.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/database.ts";
import { fund, newMerchant, type TestMerchant } from "../../../tests/support/factories.ts";
import {
  accountBalances,
  available,
  eventsAbout,
  eventually,
  jobsWithKey,
  ledgerTransactionsOf,
  postingsOf,
} from "../../../tests/support/money.ts";
import { holderNameOf, walletAccountNumberOf } from "../../gateway/network-data.ts";
import { createSandboxGateway, SANDBOX_MAGIC_AMOUNTS } from "../../gateway/sandbox.ts";
import { type GatewaySimulator, startGatewaySimulator } from "../../gateway/simulator/app.ts";
import { GatewayUnavailableError, type WalletGateway, type WalletGateways } from "../../gateway/wallet-gateway.ts";
import { sql } from "../../platform/db/pool.ts";
import { createWorkerPgPool } from "../../platform/queue/pg-pool.ts";
import { startWorkerPool } from "../../platform/queue/worker-pool.ts";
import { createLogger } from "../../platform/telemetry/logger.ts";
import * as agent from "./index.ts";
import { expireWithdrawalCodeTask } from "./tasks/expire-withdrawal-code.ts";
import { pollWithdrawalCodeTask } from "./tasks/poll-withdrawal-code.ts";
import { reconcileBankChangeTask } from "./tasks/reconcile-bank-change.ts";

const logger = createLogger({ level: "silent", service: "test" });
// jsqr is CommonJS with `exports.default`: depending on the loader, the import is the function or its module.
const jsQR = ((jsQRModule as { default?: unknown }).default ?? jsQRModule) as typeof jsQRModule.default;
let db: TestDatabase;
let shop: TestMerchant;

beforeAll(async () => {
  db = await createTestDatabase({ poolSize: 20 });
});
beforeEach(async () => {
  shop = await newMerchant(db.database);
});
afterAll(() => db.close());

const BASE = { RATE_LIMIT_REQUESTS: "10000", GATEWAY_TIMEOUT_MS: "100", GATEWAY_RETRIES: "0" };

const setup = (environment: Record<string, string> = {}, gateways?: WalletGateways) =>
  apiSetup(db, { ...BASE, ...environment }, gateways);
const countSchema = z.object({ count: z.number() });

/** The code's window closes now, on the database's clock, which decides expiry. */
async function closeWindow(withdrawalId: string) {
  await db.database.query(sql.unsafe`
    UPDATE withdrawal_codes SET expires_at = now() - interval '1 millisecond' WHERE id = ${withdrawalId}`);
}

describe("withdrawal codes (test world)", () => {
  test("a claimable code and QR, pending, with its expiry job at expires_at and its first poll", async () => {
    const { app } = setup();
    const response = await apiPost(app, "/v1/agent/withdrawal_codes", shop.testKey, { amount_cents: 2000 });
    expect(response.status).toBe(201);
    const code = response.body;
    expect(code).toMatchObject({
      object: "withdrawal_code",
      livemode: false,
      status: "pending",
      amount_cents: 2000,
      currency: "USD",
      redeemed_at: null,
      customer_msisdn: null,
    });
    expect(code.id).toMatch(/^wdc_[0-9A-Za-z]{24}$/);
    expect(code.code).toMatch(/^[0-9]{9}$/);
    expect(code.deep_link).toBe(`wallet://withdraw?code=${code.code}`);
    expect(code.reference).toMatch(/^WD/);
    expect(Date.parse(code.expires_at) - Date.parse(code.created_at)).toBe(600_000);
    const image = PNG.sync.read(Buffer.from(code.qr_png_data_url.replace(/^data:image\/png;base64,/, ""), "base64"));
    expect(jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data).toBe(code.deep_link);
    const [expiry] = await jobsWithKey(db.database, `withdrawal_expiry:${code.id}`);
    expect(expiry).toMatchObject({ task_identifier: "expire_withdrawal_code" });
    expect(expiry?.run_at.toISOString()).toBe(code.expires_at);
    expect(await jobsWithKey(db.database, `withdrawal_poll:${code.id}`)).toMatchObject([
      { task_identifier: "poll_withdrawal_code" },
    ]);
    // Nothing moved yet.
    expect(await accountBalances(db.database, shop.id, false)).toEqual({});
    expect((await apiGet(app, `/v1/agent/withdrawal_codes/${code.id}`, shop.testKey)).body).toEqual(code);
  });

  test.each([
    ["zero", { amount_cents: 0 }, "invalid_amount"],
    ["too large", { amount_cents: 100_000_001 }, "invalid_amount"],
    ["an unknown currency", { amount_cents: 100, currency: "GBP" }, "invalid_currency"],
    ["an unknown field", { amount_cents: 100, msisdn: "263771234567" }, "parameter_unknown"],
  ])("refuses %s with 400", async (_, body, code) => {
    const { app } = setup();
    const response = await apiPost(app, "/v1/agent/withdrawal_codes", shop.testKey, body);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ type: "invalid_request", code });
  });

  test("sandbox levers: 502 gateway_error and code_generation_failed create nothing", async () => {
    const { app } = setup();
    const unavailable = await apiPost(app, "/v1/agent/withdrawal_codes", shop.testKey, {
      amount_cents: SANDBOX_MAGIC_AMOUNTS.gatewayUnavailable,
    });
    expect(unavailable.status).toBe(502);
    expect(unavailable.body.error).toMatchObject({ type: "gateway_error", code: "gateway_error" });
    const failed = await apiPost(app, "/v1/agent/withdrawal_codes", shop.testKey, {
      amount_cents: SANDBOX_MAGIC_AMOUNTS.codeGenerationFailed,
    });
    expect(failed.body.error.code).toBe("code_generation_failed");
    expect(
      await db.database.oneFirst(sql.type(countSchema)`
        SELECT count(*)::int AS count FROM withdrawal_codes WHERE merchant_id = ${shop.id}`),
    ).toBe(0);
  });

  test("a code still pending for another withdrawal is replaced by a fresh one; a gateway issuing only those fails", async () => {
    const sandbox = createSandboxGateway({ autoSettleMs: 3_600_000 });
    const codes = collidingCodes(sandbox.issueWithdrawalCode);
    const { issuedCodes } = codes;
    const colliding: WalletGateway = { ...sandbox, issueWithdrawalCode: codes.issue };
    const { app } = setup({}, { test: colliding, live: colliding });
    const path = "/v1/agent/withdrawal_codes";
    const first = await apiPost(app, path, shop.testKey, { amount_cents: 1000 });
    expect(first.status).toBe(201);
    const pendingCode: string = first.body.code;

    codes.repeat(pendingCode, 2);
    const second = await apiPost(app, path, shop.testKey, { amount_cents: 2000 });
    expect(second.status).toBe(201);
    expect(issuedCodes.slice(1)).toEqual([pendingCode, pendingCode, second.body.code]);
    expect(second.body.code).not.toBe(pendingCode);
    const qr = PNG.sync.read(Buffer.from(second.body.qr_png_data_url.split(",")[1] ?? "", "base64"));
    expect(jsQR(new Uint8ClampedArray(qr.data), qr.width, qr.height)?.data).toBe(second.body.deep_link);
    // One row per withdrawal, and the jobs of the one written (an aborted attempt leaves none).
    const amounts = await db.database.anyFirst(sql.type(z.object({ amount_cents: z.number() }))`
      SELECT amount_cents FROM withdrawal_codes WHERE merchant_id = ${shop.id} ORDER BY amount_cents`);
    expect(amounts).toEqual([1000, 2000]);
    expect(await jobsWithKey(db.database, `withdrawal_expiry:${second.body.id}`)).toHaveLength(1);

    codes.repeat(pendingCode, 3);
    const key = randomUUID();
    const failed = await apiPost(app, path, shop.testKey, { amount_cents: 3000 }, key);
    expect(failed.status).toBe(502);
    expect(failed.body.error.code).toBe("code_generation_failed");
    expect(issuedCodes.slice(4)).toEqual([pendingCode, pendingCode, pendingCode]);
    // Nothing written and the key released: the client's retry with the same key runs again.
    const retried = await apiPost(app, path, shop.testKey, { amount_cents: 3000 }, key);
    expect(retried.status).toBe(201);
    expect(
      await db.database.oneFirst(sql.type(countSchema)`
        SELECT count(*)::int AS count FROM withdrawal_codes WHERE merchant_id = ${shop.id} AND amount_cents = 3000`),
    ).toBe(1);
  });

  test("claimed through the test hook: redeemed, balance credited from gateway clearing, withdrawal.redeemed", async () => {
    const { app, dependencies } = setup();
    const code = (await apiPost(app, "/v1/agent/withdrawal_codes", shop.testKey, { amount_cents: 1500 })).body;
    // The sandbox never reports a claim by itself: polling leaves it pending.
    expect(
      (await agent.pollWithdrawal(dependencies, { merchantId: shop.id, withdrawalId: code.id, attempt: 0 }))?.status,
    ).toBe("pending");
    const claimKey = randomUUID();
    const claimed = await apiPost(
      app,
      `/v1/agent/withdrawal_codes/${code.id}/claim`,
      shop.testKey,
      {
        customer_msisdn: "263772345678",
      },
      claimKey,
    );
    expect(claimed.status).toBe(200);
    expect(claimed.body).toMatchObject({ status: "redeemed", customer_msisdn: "263772345678" });
    expect(claimed.body.redeemed_at).not.toBeNull();
    expect(await accountBalances(db.database, shop.id, false)).toEqual({
      merchant_available: { USD: 1500 },
      gateway_clearing: { USD: -1500 },
    });
    expect(await postingsOf(db.database, code.id)).toEqual([
      { account: "merchant_available", entry_type: "withdrawal", currency: "USD", amount_cents: 1500 },
      { account: "gateway_clearing", entry_type: "withdrawal", currency: "USD", amount_cents: -1500 },
    ]);
    expect(await eventsAbout(db.database, "withdrawal_id", code.id)).toEqual([
      {
        type: "withdrawal.redeemed",
        livemode: false,
        data: {
          withdrawal_id: code.id,
          amount_cents: 1500,
          currency: "USD",
          reference: code.reference,
          customer_msisdn: "263772345678",
        },
      },
    ]);
    // The same request again is replayed; a new claim is refused; nothing moves twice.
    const replay = await apiPost(
      app,
      `/v1/agent/withdrawal_codes/${code.id}/claim`,
      shop.testKey,
      {
        customer_msisdn: "263772345678",
      },
      claimKey,
    );
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    const again = await apiPost(app, `/v1/agent/withdrawal_codes/${code.id}/claim`, shop.testKey, {});
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("withdrawal_code_not_pending");
    expect(await available(db.database, shop.id, false)).toBe(1500);
    expect((await apiGet(app, `/v1/agent/withdrawal_codes/${code.id}`, shop.testKey)).body.status).toBe("redeemed");
    expect((await apiPost(app, "/v1/agent/withdrawal_codes/wdc_missing/claim", shop.testKey, {})).status).toBe(404);
    expect(
      (await apiPost(app, `/v1/agent/withdrawal_codes/${code.id}/claim`, shop.testKey, { customer_msisdn: "0771" }))
        .body.error.code,
    ).toBe("invalid_msisdn");
  });

  test("unclaimed, it expires with nothing moved; a claim after expiry is refused", async () => {
    const { app, dependencies } = setup();
    const code = (await apiPost(app, "/v1/agent/withdrawal_codes", shop.testKey, { amount_cents: 700 })).body;
    // Not before its time.
    expect(
      (await agent.expireWithdrawalIfUnclaimed(dependencies, { merchantId: shop.id, withdrawalId: code.id }))?.status,
    ).toBe("pending");
    await closeWindow(code.id);
    expect(
      (await agent.expireWithdrawalIfUnclaimed(dependencies, { merchantId: shop.id, withdrawalId: code.id }))?.status,
    ).toBe("expired");
    const late = await apiPost(app, `/v1/agent/withdrawal_codes/${code.id}/claim`, shop.testKey, {});
    expect(late.status).toBe(409);
    expect(await accountBalances(db.database, shop.id, false)).toEqual({});
    expect(await eventsAbout(db.database, "withdrawal_id", code.id)).toEqual([]);

    // Past its expiry but before its job ran, a claim is refused and the code expires then.
    const overdue = (await apiPost(app, "/v1/agent/withdrawal_codes", shop.testKey, { amount_cents: 700 })).body;
    await closeWindow(overdue.id);
    expect((await apiPost(app, `/v1/agent/withdrawal_codes/${overdue.id}/claim`, shop.testKey, {})).status).toBe(409);
    expect((await apiGet(app, `/v1/agent/withdrawal_codes/${overdue.id}`, shop.testKey)).body.status).toBe("expired");
    expect(await accountBalances(db.database, shop.id, false)).toEqual({});
  });

  test("redemption and expiry racing: exactly one outcome for every code", async () => {
    const { app, dependencies } = setup();
    const codes = [];
    for (let index = 0; index < 12; index += 1) {
      codes.push((await apiPost(app, "/v1/agent/withdrawal_codes", shop.testKey, { amount_cents: 100 })).body);
      await closeWindow(codes.at(-1).id);
    }
    // A claim the gateway reports (honoured whenever learnt), the test hook, and the expiry job, all at once.
    await Promise.all(
      codes.flatMap((code) => [
        agent.getWithdrawal(db.database, { merchantId: shop.id, livemode: false }, code.id).then((row) =>
          agent.redeemWithdrawal(db.database, row, {
            redeemedAt: new Date(),
            customerMsisdn: null,
            onlyBeforeExpiry: false,
          }),
        ),
        agent.expireWithdrawalIfUnclaimed(dependencies, { merchantId: shop.id, withdrawalId: code.id }),
        apiPost(app, `/v1/agent/withdrawal_codes/${code.id}/claim`, shop.testKey, {}),
      ]),
    );
    let redeemed = 0;
    for (const code of codes) {
      const row = await agent.getWithdrawal(db.database, { merchantId: shop.id, livemode: false }, code.id);
      const movements = (await ledgerTransactionsOf(db.database, code.id)).length;
      const redemptions = (await eventsAbout(db.database, "withdrawal_id", code.id)).length;
      expect(["redeemed", "expired"]).toContain(row.status);
      expect([movements, redemptions]).toEqual(row.status === "redeemed" ? [1, 1] : [0, 0]);
      redeemed += row.status === "redeemed" ? 1 : 0;
    }
    expect(await available(db.database, shop.id, false)).toBe(redeemed * 100);
  });

  test("one merchant cannot see or claim another's code; test and live never mix", async () => {
    const { app } = setup();
    const code = (await apiPost(app, "/v1/agent/withdrawal_codes", shop.testKey, { amount_cents: 100 })).body;
    const other = await newMerchant(db.database);
    expect((await apiGet(app, `/v1/agent/withdrawal_codes/${code.id}`, other.testKey)).status).toBe(404);
    expect((await apiPost(app, `/v1/agent/withdrawal_codes/${code.id}/claim`, other.testKey, {})).status).toBe(404);
    expect((await apiGet(app, `/v1/agent/withdrawal_codes/${code.id}`, shop.liveKey)).status).toBe(404);
    expect((await apiGet(app, `/v1/agent/withdrawal_codes/${code.id}`, shop.testKey)).body.status).toBe("pending");
  });

  test("the code-expiry pool expires an unclaimed code without any client", async () => {
    const { app, config, dependencies } = setup({
      WITHDRAWAL_CODE_WINDOW_SECONDS: "0.5",
      WORKER_POLL_INTERVAL_MS: "50",
    });
    const pgPool = createWorkerPgPool({ url: db.url, size: 4, applicationName: "test", logger });
    const runner = await startWorkerPool({
      pool: "code-expiry",
      tasks: [expireWithdrawalCodeTask(dependencies.gateways)],
      dependencies: { config, database: db.database, logger },
      pgPool,
      registry: new Registry(),
    });
    try {
      const code = (await apiPost(app, "/v1/agent/withdrawal_codes", shop.testKey, { amount_cents: 100 })).body;
      await eventually(
        async () =>
          (await agent.getWithdrawal(db.database, { merchantId: shop.id, livemode: false }, code.id)).status ===
          "expired",
      );
      expect(await accountBalances(db.database, shop.id, false)).toEqual({});
    } finally {
      await runner.stop();
      await pgPool.end();
    }
  });
});

describe("change-to-wallet", () => {
  const change = (app: TestApp, body: unknown, idempotencyKey?: string, key = shop.testKey) =>
    apiPost(app, "/v1/agent/bank_changes", key, body, idempotencyKey);

  test("instant: completed, the balance debited, who received it recorded, bank_change.completed", async () => {
    const { app } = setup();
    await fund(db.database, shop, 2000);
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
    expect(await accountBalances(db.database, shop.id, false)).toEqual({
      merchant_available: { USD: 1650 },
      gateway_clearing: { USD: -2000 + 350 },
    });
    expect(await postingsOf(db.database, body.id)).toEqual([
      { account: "gateway_clearing", entry_type: "bank_change", currency: "USD", amount_cents: 350 },
      { account: "merchant_available", entry_type: "bank_change", currency: "USD", amount_cents: -350 },
    ]);
    expect(await eventsAbout(db.database, "bank_change_id", body.id)).toEqual([
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
    expect(await jobsWithKey(db.database, `bank_change_reconcile:${body.id}`)).toEqual([]);
    expect((await apiGet(app, `/v1/agent/bank_changes/${body.id}`, shop.testKey)).body).toEqual(body);
  });

  test("the limit: 500 cents in USD is accepted, 501 refused with bank_change_limit; ZWG's limit is a setting", async () => {
    const { app } = setup({ BANK_CHANGE_LIMIT_ZWG_CENTS: "2000" });
    await fund(db.database, shop, 5000);
    await fund(db.database, shop, 5000, false, "ZWG");
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
    expect(await accountBalances(db.database, shop.id, false)).toMatchObject({
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
    const { app } = setup();
    await fund(db.database, shop, 1000);
    const response = await change(app, body);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ type: "invalid_request", code });
    expect(await available(db.database, shop.id, false)).toBe(1000);
  });

  test("402 when the balance is short: nothing debited, nothing recorded; a retry replays it", async () => {
    const { app } = setup();
    await fund(db.database, shop, 100);
    const key = randomUUID();
    const short = await change(app, { amount_cents: 101, destination_msisdn: "263771112233" }, key);
    expect(short.status).toBe(402);
    expect(short.body.error.code).toBe("insufficient_funds");
    expect((await change(app, { amount_cents: 101, destination_msisdn: "263771112233" }, key)).status).toBe(402);
    expect(await available(db.database, shop.id, false)).toBe(100);
    expect(
      await db.database.oneFirst(
        sql.type(countSchema)`SELECT count(*)::int AS count FROM bank_changes WHERE merchant_id = ${shop.id}`,
      ),
    ).toBe(0);
  });

  test("a retry with the same key moves nothing twice", async () => {
    const { app } = setup();
    await fund(db.database, shop, 1000);
    const key = randomUUID();
    const first = await change(app, { amount_cents: 200, destination_msisdn: "263771112233" }, key);
    const again = await change(app, { amount_cents: 200, destination_msisdn: "263771112233" }, key);
    expect(again.body).toEqual(first.body);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(await available(db.database, shop.id, false)).toBe(800);
  });

  test("a refused destination (ending 0000): 400 bank_change_failed, the debit reversed, bank_change.failed", async () => {
    const { app } = setup();
    await fund(db.database, shop, 1000);
    const refused = await change(app, { amount_cents: 300, destination_msisdn: "263771110000" });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe("bank_change_failed");
    const id = refused.body.error.message.match(/bch_[0-9A-Za-z]+/)?.[0] as string;
    expect((await apiGet(app, `/v1/agent/bank_changes/${id}`, shop.testKey)).body).toMatchObject({
      status: "failed",
      failure_reason: "sandbox: no wallet is registered for this number",
    });
    expect(await available(db.database, shop.id, false)).toBe(1000);
    expect((await eventsAbout(db.database, "bank_change_id", id)).map((event) => event.type)).toEqual([
      "bank_change.failed",
    ]);
    expect((await ledgerTransactionsOf(db.database, id)).map((transaction) => transaction.posting_key)).toEqual([
      `bank_change:${id}:debit`,
      expect.stringMatching(/^reversal:ltx_/),
    ]);
  });

  test("a transient fault (ending 0096): 502, the money reserved; the retry with the same key resumes it once", async () => {
    const { app } = setup();
    await fund(db.database, shop, 1000);
    const key = randomUUID();
    const body = { amount_cents: 250, destination_msisdn: "263771110096" };
    const first = await change(app, body, key);
    expect(first.status).toBe(502);
    expect(first.body.error.code).toBe("gateway_error");
    expect(await available(db.database, shop.id, false)).toBe(750);
    const retried = await change(app, body, key);
    expect(retried.status).toBe(201);
    expect(retried.body.status).toBe("completed");
    expect(await available(db.database, shop.id, false)).toBe(750);
    expect(await ledgerTransactionsOf(db.database, retried.body.id)).toHaveLength(1);
    expect((await eventsAbout(db.database, "bank_change_id", retried.body.id)).map((event) => event.type)).toEqual([
      "bank_change.completed",
    ]);
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
    const { app, dependencies } = setup({ MONEY_OUT_LEASE_SECONDS: "0.5" }, { test: lossy, live: lossy });
    await fund(db.database, shop, 1000);
    const lost = await change(app, { amount_cents: 100, destination_msisdn: "263771112233" });
    expect(lost.status).toBe(502);
    const neverReceived = await change(app, { amount_cents: 200, destination_msisdn: "263771110096" });
    expect(neverReceived.status).toBe(502);
    expect(await available(db.database, shop.id, false)).toBe(700);
    const rows = await db.database.any(sql.type(z.object({ id: z.string(), amount_cents: z.number() }))`
      SELECT id, amount_cents FROM bank_changes WHERE merchant_id = ${shop.id} ORDER BY amount_cents`);
    const [lostId, neverId] = rows.map((row) => row.id) as [string, string];
    const reconciled = await Promise.all(
      [lostId, neverId].map((id) => agent.reconcileBankChange(dependencies, { merchantId: shop.id, bankChangeId: id })),
    );
    expect(reconciled.map((row) => row?.status)).toEqual(["completed", "failed"]);
    expect(await available(db.database, shop.id, false)).toBe(900);
    expect((await eventsAbout(db.database, "bank_change_id", neverId)).map((event) => event.type)).toEqual([
      "bank_change.failed",
    ]);
    // Running it again changes nothing.
    await agent.reconcileBankChange(dependencies, { merchantId: shop.id, bankChangeId: lostId });
    expect(await ledgerTransactionsOf(db.database, lostId)).toHaveLength(1);
    expect((await eventsAbout(db.database, "bank_change_id", lostId)).map((event) => event.type)).toEqual([
      "bank_change.completed",
    ]);
  });

  test("the gateway-poller pool runs the reconciliation without any client", async () => {
    const { app, config, dependencies } = setup({ MONEY_OUT_RECONCILE_SECONDS: "0.3", WORKER_POLL_INTERVAL_MS: "50" });
    await fund(db.database, shop, 1000);
    expect((await change(app, { amount_cents: 200, destination_msisdn: "263771110096" })).status).toBe(502);
    const pgPool = createWorkerPgPool({ url: db.url, size: 4, applicationName: "test", logger });
    const runner = await startWorkerPool({
      pool: "gateway-poller",
      tasks: [reconcileBankChangeTask(dependencies.gateways)],
      dependencies: { config, database: db.database, logger },
      pgPool,
      registry: new Registry(),
    });
    try {
      await eventually(async () => (await available(db.database, shop.id, false)) === 1000);
    } finally {
      await runner.stop();
      await pgPool.end();
    }
  });

  test("test and live balances never mix; another merchant's change is not found", async () => {
    const { app } = setup();
    await fund(db.database, shop, 1000);
    const live = await change(app, { amount_cents: 100, destination_msisdn: "263771112233" }, undefined, shop.liveKey);
    expect(live.status).toBe(402);
    const done = (await change(app, { amount_cents: 100, destination_msisdn: "263771112233" })).body;
    const other = await newMerchant(db.database);
    expect((await apiGet(app, `/v1/agent/bank_changes/${done.id}`, other.testKey)).status).toBe(404);
    expect((await apiGet(app, `/v1/agent/bank_changes/${done.id}`, shop.liveKey)).status).toBe(404);
    expect(await available(db.database, shop.id, true)).toBe(0);
  });
});

describe("account lookup", () => {
  const lookup = (app: TestApp, query: string, key = shop.testKey) => apiGet(app, `/v1/account/lookup${query}`, key);

  test("the wallet holder's name and account numbers (sandbox)", async () => {
    const { app } = setup();
    const response = await lookup(app, "?msisdn=263771234567&currency=ZWG");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      object: "account_lookup",
      livemode: false,
      msisdn: "263771234567",
      currency: "ZWG",
      name: holderNameOf("263771234567"),
      accounts: [{ account_number: walletAccountNumberOf("263771234567", "ZWG"), currency: "ZWG", type: "wallet" }],
    });
    expect((await lookup(app, "?msisdn=263771234567")).body.currency).toBe("USD");
  });

  test.each([
    ["no msisdn", 400, "invalid_msisdn", ""],
    ["a number not starting 263", 400, "invalid_msisdn", "?msisdn=0771234567"],
    ["a bad currency", 400, "invalid_currency", "?msisdn=263771234567&currency=EUR"],
    ["an unknown parameter", 400, "parameter_unknown", "?msisdn=263771234567&name=x"],
    ["no such wallet (ending 0000)", 404, "account_not_found", "?msisdn=263771230000"],
  ])("%s → %i %s", async (_, status, code, query) => {
    const { app } = setup();
    const response = await lookup(app, query);
    expect(response.status).toBe(status);
    expect(response.body.error.code).toBe(code);
  });

  test("live without a configured gateway: 502 gateway_error", async () => {
    const { app } = setup();
    const response = await lookup(app, "?msisdn=263771234567", shop.liveKey);
    expect(response.status).toBe(502);
    expect(response.body.error.code).toBe("gateway_error");
  });
});

describe("live agent operations, through the gateway simulator", () => {
  let simulator: GatewaySimulator;
  beforeAll(async () => {
    simulator = await startGatewaySimulator({ port: 0, apiKey: "gwsim_agent", logger });
  });
  afterAll(() => simulator.stop());

  const live = (environment: Record<string, string> = {}) =>
    setup({
      GATEWAY_URL: simulator.url,
      GATEWAY_API_KEY: "gwsim_agent",
      GATEWAY_TIMEOUT_MS: "5000",
      GATEWAY_RETRIES: "2",
      PAYMENT_INQUIRY_MIN_INTERVAL_SECONDS: "0.01",
      ...environment,
    });
  const simulate = (path: string, body: unknown = {}) =>
    fetch(`${simulator.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  test("a customer claims the code in their wallet: learnt by inquiry, redeemed, live balance credited", async () => {
    const { app, dependencies } = live();
    const code = (await apiPost(app, "/v1/agent/withdrawal_codes", shop.liveKey, { amount_cents: 3000 })).body;
    expect(code).toMatchObject({ livemode: true, status: "pending" });
    expect(simulator.state.readWithdrawal(code.code)?.withdrawal_id).toBe(code.id);
    expect((await apiPost(app, `/v1/agent/withdrawal_codes/${code.id}/claim`, shop.liveKey, {})).status).toBe(403);
    await simulate("/sim/wallets", { msisdn: "263773000001", currency: "USD", amount_cents: 5000 });
    expect(
      (await simulate(`/sim/withdrawal-codes/${code.code}/claim`, { customer_msisdn: "263773000001" })).status,
    ).toBe(200);
    // The poller learns it (a GET would too).
    const polled = await agent.pollWithdrawal(dependencies, { merchantId: shop.id, withdrawalId: code.id, attempt: 0 });
    expect(polled).toMatchObject({ status: "redeemed", customer_msisdn: "263773000001" });
    expect((await apiGet(app, `/v1/agent/withdrawal_codes/${code.id}`, shop.liveKey)).body.status).toBe("redeemed");
    expect(await available(db.database, shop.id, true)).toBe(3000);
    expect(await available(db.database, shop.id, false)).toBe(0);
    expect(simulator.state.wallets.get("263773000001")?.get("USD")).toBe(2000);
  });

  test("lapsed at the network: expired; claimed in its last second: redeemed by the expiry's last inquiry", async () => {
    // No poll before the window closes (the first would come after it): the expiry's inquiry is the only one.
    const { app, config, dependencies } = live({
      WITHDRAWAL_CODE_WINDOW_SECONDS: "60",
      PAYMENT_POLL_SCHEDULE_SECONDS: "3600",
      WORKER_POLL_INTERVAL_MS: "50",
    });
    const lapsed = (await apiPost(app, "/v1/agent/withdrawal_codes", shop.liveKey, { amount_cents: 100 })).body;
    await simulate(`/sim/withdrawal-codes/${lapsed.code}/lapse`);
    expect((await apiGet(app, `/v1/agent/withdrawal_codes/${lapsed.id}`, shop.liveKey)).body.status).toBe("expired");

    const pgPool = createWorkerPgPool({ url: db.url, size: 4, applicationName: "test", logger });
    const runners = await Promise.all([
      startWorkerPool({
        pool: "code-expiry",
        tasks: [expireWithdrawalCodeTask(dependencies.gateways)],
        dependencies: { config, database: db.database, logger },
        pgPool,
        registry: new Registry(),
      }),
      startWorkerPool({
        pool: "gateway-poller",
        tasks: [pollWithdrawalCodeTask(dependencies.gateways)],
        dependencies: { config, database: db.database, logger },
        pgPool,
        registry: new Registry(),
      }),
    ]);
    try {
      const lastSecond = (await apiPost(app, "/v1/agent/withdrawal_codes", shop.liveKey, { amount_cents: 400 })).body;
      await simulate("/sim/wallets", { msisdn: "263773000002", currency: "USD", amount_cents: 400 });
      // Claimed while the network's window is open; then ours closes and its expiry job is due.
      expect(
        (await simulate(`/sim/withdrawal-codes/${lastSecond.code}/claim`, { customer_msisdn: "263773000002" })).status,
      ).toBe(200);
      expect(
        (await agent.getWithdrawal(db.database, { merchantId: shop.id, livemode: true }, lastSecond.id)).status,
      ).toBe("pending");
      await closeWindow(lastSecond.id);
      await db.database.query(sql.unsafe`
        SELECT FROM graphile_worker.reschedule_jobs(
          ARRAY(SELECT id FROM graphile_worker.jobs WHERE key = ${`withdrawal_expiry:${lastSecond.id}`}), run_at := now())`);
      await eventually(
        async () =>
          (await agent.getWithdrawal(db.database, { merchantId: shop.id, livemode: true }, lastSecond.id)).status ===
          "redeemed",
      );
      expect(await available(db.database, shop.id, true)).toBe(400);
    } finally {
      await Promise.all(runners.map((runner) => runner.stop()));
      await pgPool.end();
    }
  });

  test("change-to-wallet credits the customer's wallet once; an unregistered number is refused", async () => {
    const { app } = live();
    await fund(db.database, shop, 1000, true);
    await simulate("/sim/wallets", { msisdn: "263773000003", currency: "USD", amount_cents: 0, name: "Rudo Moyo" });
    const key = randomUUID();
    const sent = await change(app, { amount_cents: 450, destination_msisdn: "263773000003" }, key);
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ livemode: true, status: "completed", recipient_name: "Rudo Moyo" });
    expect((await change(app, { amount_cents: 450, destination_msisdn: "263773000003" }, key)).body.id).toBe(
      sent.body.id,
    );
    expect(simulator.state.wallets.get("263773000003")?.get("USD")).toBe(450);
    expect(await available(db.database, shop.id, true)).toBe(550);
    const refused = await change(app, { amount_cents: 100, destination_msisdn: "263773999999" });
    expect(refused.body.error.code).toBe("bank_change_failed");
    expect(await available(db.database, shop.id, true)).toBe(550);

    function change(app: TestApp, body: unknown, idempotencyKey?: string) {
      return apiPost(app, "/v1/agent/bank_changes", shop.liveKey, body, idempotencyKey);
    }
  });

  test("account lookup answers from the network's wallets", async () => {
    const { app } = live();
    await simulate("/sim/wallets", { msisdn: "263773000004", currency: "USD", amount_cents: 0, name: "Chipo Ncube" });
    const found = await apiGet(app, "/v1/account/lookup?msisdn=263773000004", shop.liveKey);
    expect(found.body).toMatchObject({ livemode: true, name: "Chipo Ncube", accounts: [{ currency: "USD" }] });
    expect((await apiGet(app, "/v1/account/lookup?msisdn=263773999998", shop.liveKey)).body.error.code).toBe(
      "account_not_found",
    );
  });
});
