import { randomUUID } from "node:crypto";
import jsQRModule from "jsqr";
import { PNG } from "pngjs";
import { z } from "zod";
import { agentTestWorld } from "../../../tests/support/agent.ts";
import { apiGet, apiPost } from "../../../tests/support/app.ts";
import { collidingCodes } from "../../../tests/support/colliding-codes.ts";
import { newMerchant } from "../../../tests/support/factories.ts";
import {
  accountBalances,
  available,
  eventsAbout,
  eventually,
  ledgerTransactionsOf,
  postingsOf,
} from "../../../tests/support/money.ts";
import { CLAIM_LIMIT, runClaimed, startPoolPump } from "../../../tests/support/pumps.ts";
import { createSandboxGateway, SANDBOX_MAGIC_AMOUNTS } from "../../gateway/sandbox.ts";
import type { WalletGateway } from "../../gateway/wallet-gateway.ts";
import { sql } from "../../platform/db/pool.ts";
import { createLogger } from "../../platform/telemetry/logger.ts";
import * as agent from "./index.ts";
import { expireDueWithdrawalCodesPump } from "./pumps/expire-due-withdrawal-codes.ts";

/** Withdrawal codes (cash-out at an agent): issue, claim, expiry, and the races between them. */

const logger = createLogger({ level: "silent", service: "test" });
// jsqr is CommonJS with `exports.default`: depending on the loader, the import is the function or its module.
const jsQR = ((jsQRModule as { default?: unknown }).default ?? jsQRModule) as typeof jsQRModule.default;
const world = agentTestWorld();
const countSchema = z.object({ count: z.number() });
/** The graphile-worker jobs, queued or running, whose payload names the code. */
const jobsNaming = (withdrawalId: string) =>
  world.db.database.oneFirst(sql.type(countSchema)`
    SELECT count(*)::int AS count FROM graphile_worker._private_jobs WHERE payload::text LIKE ${`%${withdrawalId}%`}`);

describe("withdrawal codes (test world)", () => {
  test("a claimable code and QR, pending, with its first poll time and no job of its own", async () => {
    const { app } = world.setup();
    const response = await apiPost(app, "/v1/agent/withdrawal_codes", world.shop.testKey, { amount_cents: 2000 });
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
    // The batch jobs find it by its first poll (the schedule's first delay, 2 s, after its creation)
    // and by its expiry: its creation enqueued nothing.
    const fields = await world.pollFieldsOf(code.id);
    expect(fields).toMatchObject({ status: "pending", poll_count: 0, expiry_retry_at: null, expiry_attempts: 0 });
    expect((fields.next_poll_at?.getTime() ?? 0) - Date.parse(code.created_at)).toBe(2000);
    expect(await jobsNaming(code.id)).toBe(0);
    // Nothing moved yet.
    expect(await accountBalances(world.db.database, world.shop.id, false)).toEqual({});
    expect((await apiGet(app, `/v1/agent/withdrawal_codes/${code.id}`, world.shop.testKey)).body).toEqual(code);
  });

  test("a replay is the first answer byte for byte, QR included; neither the code's row nor its record stores the image", async () => {
    const { app } = world.setup();
    const key = randomUUID();
    const first = await apiPost(app, "/v1/agent/withdrawal_codes", world.shop.testKey, { amount_cents: 700 }, key);
    expect(first.body.qr_png_data_url).toMatch(/^data:image\/png;base64,/);
    const replay = await apiPost(app, "/v1/agent/withdrawal_codes", world.shop.testKey, { amount_cents: 700 }, key);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(replay.text).toBe(first.text);
    const stored = await world.db.database.one(sql.type(z.object({ record: z.string(), row: z.string() }))`
      SELECT k.response_body AS record, w.qr_png_data_url AS row
      FROM idempotency_keys k, withdrawal_codes w
      WHERE k.merchant_id = ${world.shop.id} AND k.key = ${key} AND w.id = ${first.body.id}`);
    expect(stored).toEqual({ record: JSON.stringify({ ...first.body, qr_png_data_url: "" }), row: "" });
  });

  test.each([
    ["zero", { amount_cents: 0 }, "invalid_amount"],
    ["too large", { amount_cents: 100_000_001 }, "invalid_amount"],
    ["an unknown currency", { amount_cents: 100, currency: "GBP" }, "invalid_currency"],
    ["an unknown field", { amount_cents: 100, msisdn: "263771234567" }, "parameter_unknown"],
  ])("refuses %s with 400", async (_, body, code) => {
    const { app } = world.setup();
    const response = await apiPost(app, "/v1/agent/withdrawal_codes", world.shop.testKey, body);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ type: "invalid_request", code });
  });

  test("sandbox levers: 502 gateway_error and code_generation_failed create nothing", async () => {
    const { app } = world.setup();
    const unavailable = await apiPost(app, "/v1/agent/withdrawal_codes", world.shop.testKey, {
      amount_cents: SANDBOX_MAGIC_AMOUNTS.gatewayUnavailable,
    });
    expect(unavailable.status).toBe(502);
    expect(unavailable.body.error).toMatchObject({ type: "gateway_error", code: "gateway_error" });
    const failed = await apiPost(app, "/v1/agent/withdrawal_codes", world.shop.testKey, {
      amount_cents: SANDBOX_MAGIC_AMOUNTS.codeGenerationFailed,
    });
    expect(failed.body.error.code).toBe("code_generation_failed");
    expect(
      await world.db.database.oneFirst(sql.type(countSchema)`
        SELECT count(*)::int AS count FROM withdrawal_codes WHERE merchant_id = ${world.shop.id}`),
    ).toBe(0);
  });

  test("a code still pending for another withdrawal is replaced by a fresh one; a gateway issuing only those fails", async () => {
    const sandbox = createSandboxGateway({ autoSettleMs: 3_600_000 });
    const codes = collidingCodes(sandbox.issueWithdrawalCode);
    const { issuedCodes } = codes;
    const colliding: WalletGateway = { ...sandbox, issueWithdrawalCode: codes.issue };
    const { app } = world.setup({}, { test: colliding, live: colliding });
    const path = "/v1/agent/withdrawal_codes";
    const first = await apiPost(app, path, world.shop.testKey, { amount_cents: 1000 });
    expect(first.status).toBe(201);
    const pendingCode: string = first.body.code;

    codes.repeat(pendingCode, 2);
    const second = await apiPost(app, path, world.shop.testKey, { amount_cents: 2000 });
    expect(second.status).toBe(201);
    expect(issuedCodes.slice(1)).toEqual([pendingCode, pendingCode, second.body.code]);
    expect(second.body.code).not.toBe(pendingCode);
    const qr = PNG.sync.read(Buffer.from(second.body.qr_png_data_url.split(",")[1] ?? "", "base64"));
    expect(jsQR(new Uint8ClampedArray(qr.data), qr.width, qr.height)?.data).toBe(second.body.deep_link);
    // One row per withdrawal, the one written with its poll time (an aborted attempt leaves nothing).
    const amounts = await world.db.database.anyFirst(sql.type(z.object({ amount_cents: z.number() }))`
      SELECT amount_cents FROM withdrawal_codes WHERE merchant_id = ${world.shop.id} ORDER BY amount_cents`);
    expect(amounts).toEqual([1000, 2000]);
    expect((await world.pollFieldsOf(second.body.id)).next_poll_at).not.toBeNull();

    codes.repeat(pendingCode, 3);
    const key = randomUUID();
    const failed = await apiPost(app, path, world.shop.testKey, { amount_cents: 3000 }, key);
    expect(failed.status).toBe(502);
    expect(failed.body.error.code).toBe("code_generation_failed");
    expect(issuedCodes.slice(4)).toEqual([pendingCode, pendingCode, pendingCode]);
    // Nothing written and the key released: the client's retry with the same key runs again.
    const retried = await apiPost(app, path, world.shop.testKey, { amount_cents: 3000 }, key);
    expect(retried.status).toBe(201);
    expect(
      await world.db.database.oneFirst(sql.type(countSchema)`
        SELECT count(*)::int AS count FROM withdrawal_codes WHERE merchant_id = ${world.shop.id} AND amount_cents = 3000`),
    ).toBe(1);
  });

  test("claimed through the test hook: redeemed, balance credited from gateway clearing, withdrawal.redeemed", async () => {
    const { app, dependencies } = world.setup();
    const code = (await apiPost(app, "/v1/agent/withdrawal_codes", world.shop.testKey, { amount_cents: 1500 })).body;
    // The sandbox never reports a claim by itself: polling leaves it pending.
    await world.makePollDue(code.id);
    await runClaimed(await agent.claimDueWithdrawalPolls(dependencies, CLAIM_LIMIT));
    expect(await world.pollFieldsOf(code.id)).toMatchObject({ status: "pending", poll_count: 1, inquiry_count: 1 });
    const claimKey = randomUUID();
    const claimed = await apiPost(
      app,
      `/v1/agent/withdrawal_codes/${code.id}/claim`,
      world.shop.testKey,
      {
        customer_msisdn: "263772345678",
      },
      claimKey,
    );
    expect(claimed.status).toBe(200);
    expect(claimed.body).toMatchObject({ status: "redeemed", customer_msisdn: "263772345678" });
    expect(claimed.body.redeemed_at).not.toBeNull();
    expect(await accountBalances(world.db.database, world.shop.id, false)).toEqual({
      merchant_available: { USD: 1500 },
      gateway_clearing: { USD: -1500 },
    });
    expect(await postingsOf(world.db.database, code.id)).toEqual([
      { account: "merchant_available", entry_type: "withdrawal", currency: "USD", amount_cents: 1500 },
      { account: "gateway_clearing", entry_type: "withdrawal", currency: "USD", amount_cents: -1500 },
    ]);
    expect(await eventsAbout(world.db.database, "withdrawal_id", code.id)).toEqual([
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
      world.shop.testKey,
      {
        customer_msisdn: "263772345678",
      },
      claimKey,
    );
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    const again = await apiPost(app, `/v1/agent/withdrawal_codes/${code.id}/claim`, world.shop.testKey, {});
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("withdrawal_code_not_pending");
    expect(await available(world.db.database, world.shop.id, false)).toBe(1500);
    expect((await apiGet(app, `/v1/agent/withdrawal_codes/${code.id}`, world.shop.testKey)).body.status).toBe(
      "redeemed",
    );
    expect((await apiPost(app, "/v1/agent/withdrawal_codes/wdc_missing/claim", world.shop.testKey, {})).status).toBe(
      404,
    );
    expect(
      (
        await apiPost(app, `/v1/agent/withdrawal_codes/${code.id}/claim`, world.shop.testKey, {
          customer_msisdn: "0771",
        })
      ).body.error.code,
    ).toBe("invalid_msisdn");
  });

  test("unclaimed, it expires with nothing moved; a claim after expiry is refused", async () => {
    const { app, dependencies } = world.setup();
    const code = (await apiPost(app, "/v1/agent/withdrawal_codes", world.shop.testKey, { amount_cents: 700 })).body;
    // Not before its time: the code-expiry's batch does not claim it.
    await runClaimed(await agent.claimDueWithdrawalExpiries(dependencies, CLAIM_LIMIT));
    expect(await world.pollFieldsOf(code.id)).toMatchObject({ status: "pending", expiry_attempts: 0 });
    await world.closeWindow(code.id);
    await runClaimed(await agent.claimDueWithdrawalExpiries(dependencies, CLAIM_LIMIT));
    // After one last inquiry.
    expect(await world.pollFieldsOf(code.id)).toMatchObject({
      status: "expired",
      expiry_attempts: 1,
      inquiry_count: 1,
    });
    const late = await apiPost(app, `/v1/agent/withdrawal_codes/${code.id}/claim`, world.shop.testKey, {});
    expect(late.status).toBe(409);
    expect(await accountBalances(world.db.database, world.shop.id, false)).toEqual({});
    expect(await eventsAbout(world.db.database, "withdrawal_id", code.id)).toEqual([]);

    // Past its expiry but before the expiry's batch claimed it, a claim is refused and the code expires then.
    const overdue = (await apiPost(app, "/v1/agent/withdrawal_codes", world.shop.testKey, { amount_cents: 700 })).body;
    await world.closeWindow(overdue.id);
    expect((await apiPost(app, `/v1/agent/withdrawal_codes/${overdue.id}/claim`, world.shop.testKey, {})).status).toBe(
      409,
    );
    expect((await apiGet(app, `/v1/agent/withdrawal_codes/${overdue.id}`, world.shop.testKey)).body.status).toBe(
      "expired",
    );
    expect(await accountBalances(world.db.database, world.shop.id, false)).toEqual({});
  });

  test("redemption and expiry racing: exactly one outcome for every code", async () => {
    const { app, dependencies } = world.setup();
    const replica = world.setup().dependencies;
    const codes = [];
    for (let index = 0; index < 12; index += 1) {
      codes.push((await apiPost(app, "/v1/agent/withdrawal_codes", world.shop.testKey, { amount_cents: 100 })).body);
      await world.closeWindow(codes.at(-1).id);
    }
    // A claim the gateway reports (honoured whenever learnt), the test hook, and two replicas of the
    // code-expiry's batch, all at once.
    await Promise.all([
      ...codes.flatMap((code) => [
        agent.getWithdrawal(world.db.database, { merchantId: world.shop.id, livemode: false }, code.id).then((row) =>
          agent.redeemWithdrawal(world.db.database, row, {
            redeemedAt: new Date(),
            customerMsisdn: null,
            onlyBeforeExpiry: false,
          }),
        ),
        apiPost(app, `/v1/agent/withdrawal_codes/${code.id}/claim`, world.shop.testKey, {}),
      ]),
      agent.claimDueWithdrawalExpiries(dependencies, CLAIM_LIMIT).then(runClaimed),
      agent.claimDueWithdrawalExpiries(replica, CLAIM_LIMIT).then(runClaimed),
    ]);
    let redeemed = 0;
    for (const code of codes) {
      const row = await agent.getWithdrawal(world.db.database, { merchantId: world.shop.id, livemode: false }, code.id);
      const movements = (await ledgerTransactionsOf(world.db.database, code.id)).length;
      const redemptions = (await eventsAbout(world.db.database, "withdrawal_id", code.id)).length;
      expect(["redeemed", "expired"]).toContain(row.status);
      expect([movements, redemptions]).toEqual(row.status === "redeemed" ? [1, 1] : [0, 0]);
      redeemed += row.status === "redeemed" ? 1 : 0;
    }
    expect(await available(world.db.database, world.shop.id, false)).toBe(redeemed * 100);
  });

  test("one merchant cannot see or claim another's code; test and live never mix", async () => {
    const { app } = world.setup();
    const code = (await apiPost(app, "/v1/agent/withdrawal_codes", world.shop.testKey, { amount_cents: 100 })).body;
    const other = await newMerchant(world.db.database);
    expect((await apiGet(app, `/v1/agent/withdrawal_codes/${code.id}`, other.testKey)).status).toBe(404);
    expect((await apiPost(app, `/v1/agent/withdrawal_codes/${code.id}/claim`, other.testKey, {})).status).toBe(404);
    expect((await apiGet(app, `/v1/agent/withdrawal_codes/${code.id}`, world.shop.liveKey)).status).toBe(404);
    expect((await apiGet(app, `/v1/agent/withdrawal_codes/${code.id}`, world.shop.testKey)).body.status).toBe(
      "pending",
    );
  });

  test("the code-expiry pool expires an unclaimed code without any client", async () => {
    const { app, config, dependencies } = world.setup({
      WITHDRAWAL_CODE_WINDOW_SECONDS: "0.5",
      WORKER_POLL_INTERVAL_MS: "50",
    });
    const pump = startPoolPump("code-expiry", expireDueWithdrawalCodesPump(dependencies.gateways), {
      config,
      database: world.db.database,
      databaseUrl: world.db.url,
      logger,
    });
    try {
      const code = (await apiPost(app, "/v1/agent/withdrawal_codes", world.shop.testKey, { amount_cents: 100 })).body;
      await eventually(
        async () =>
          (await agent.getWithdrawal(world.db.database, { merchantId: world.shop.id, livemode: false }, code.id))
            .status === "expired",
      );
      expect(await accountBalances(world.db.database, world.shop.id, false)).toEqual({});
    } finally {
      await pump.stop();
    }
  });
});
