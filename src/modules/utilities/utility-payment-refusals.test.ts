import { randomUUID } from "node:crypto";
import request from "supertest";
import { z } from "zod";
import { fund, newMerchant } from "../../../tests/support/factories.ts";
import { simulatedGateway } from "../../../tests/support/gateway-simulator.ts";
import { accountBalances, available, eventsAbout } from "../../../tests/support/money.ts";
import { utilitiesTestWorld } from "../../../tests/support/utilities.ts";
import { createSandboxGateway } from "../../gateway/sandbox.ts";
import { GatewayUnavailableError, type WalletGateway } from "../../gateway/wallet-gateway.ts";
import { sql } from "../../platform/db/pool.ts";
import * as utilities from "./service.ts";

/** Utility payments refused, retried, left unclear, isolated by world; and live through the simulator. */

const world = utilitiesTestWorld();
const { setup, pay } = world;

describe("paying a utility (test world)", () => {
  const zesa = {
    provider: "zesa",
    provider_product: "ZESA_PREPAID",
    amount_cents: 1000,
    destination_account: "37132640914",
  };
  const dstv = {
    provider: "dstv",
    provider_product: "DSTV_PADI",
    amount_cents: 1300,
    destination_account: "4123456789",
    additional_data: { customer_name: "Farai Dube", months: 1 },
  };
  test.each([
    ["an unknown provider", { ...zesa, provider: "zetdc" }, "unknown_provider"],
    ["an unknown product", { ...zesa, provider_product: "ZESA_POSTPAID" }, "unknown_provider_product"],
    ["a meter number of 10 digits", { ...zesa, destination_account: "3713264091" }, "invalid_destination_account"],
    [
      "a NetOne number for Econet",
      {
        ...zesa,
        provider: "econet",
        provider_product: "AIRTIME",
        amount_cents: 100,
        destination_account: "263712345678",
      },
      "invalid_destination_account",
    ],
    ["electricity below its minimum", { ...zesa, amount_cents: 99 }, "amount_out_of_range"],
    ["electricity above its maximum", { ...zesa, amount_cents: 50_001 }, "amount_out_of_range"],
    ["ZWG below its minimum", { ...zesa, currency: "ZWG", amount_cents: 2_699 }, "amount_out_of_range"],
    ["DStv in ZWG", { ...dstv, currency: "ZWG" }, "currency_not_supported"],
    [
      "an Econet bundle in ZWG",
      {
        provider: "econet",
        provider_product: "DATA_1GB",
        amount_cents: 500,
        currency: "ZWG",
        destination_account: "263771234567",
      },
      "currency_not_supported",
    ],
    [
      "a bundle at the wrong price",
      { provider: "econet", provider_product: "DATA_1GB", amount_cents: 400, destination_account: "263771234567" },
      "amount_mismatch",
    ],
    [
      "DStv for 2 months at the price of one",
      { ...dstv, additional_data: { customer_name: "Farai Dube", months: 2 } },
      "amount_mismatch",
    ],
    ["DStv without additional_data", { ...dstv, additional_data: undefined }, "invalid_additional_data"],
    [
      "DStv for 13 months",
      { ...dstv, amount_cents: 16_900, additional_data: { customer_name: "Farai Dube", months: 13 } },
      "invalid_additional_data",
    ],
    [
      "an unknown additional_data field",
      { ...zesa, additional_data: { customer_email: "a@b.c" } },
      "invalid_additional_data",
    ],
    [
      "a bad SMS number for the token",
      { ...zesa, additional_data: { customer_msisdn: "0771234567" } },
      "invalid_additional_data",
    ],
    [
      "airtime with additional_data",
      {
        provider: "telecel",
        provider_product: "AIRTIME",
        amount_cents: 100,
        destination_account: "263732345678",
        additional_data: { pin: 1 },
      },
      "invalid_additional_data",
    ],
    [
      "water without the account holder",
      {
        provider: "harare_water",
        provider_product: "WATER_RATES",
        amount_cents: 1000,
        destination_account: "0120034567",
        additional_data: {},
      },
      "invalid_additional_data",
    ],
    ["no destination account", { ...zesa, destination_account: undefined }, "parameter_missing"],
    ["a zero amount", { ...zesa, amount_cents: 0 }, "invalid_amount"],
    ["an unknown currency", { ...zesa, currency: "ZAR" }, "invalid_currency"],
    ["an unknown field", { ...zesa, tip: 1 }, "parameter_unknown"],
    // Parsed, as the API parses a body: an object literal would set the prototype instead of a key.
    [
      "a __proto__ key in additional_data",
      { ...zesa, additional_data: JSON.parse('{"__proto__": "x"}') },
      "parameter_invalid",
    ],
  ])("refuses %s with 400, moving nothing", async (_, body, code) => {
    const { app } = setup();
    await fund(world.db.database, world.shop, 100_000);
    await fund(world.db.database, world.shop, 100_000, false, "ZWG");
    const response = await pay(app, body);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ type: "invalid_request", code });
    expect(await accountBalances(world.db.database, world.shop.id, false)).toMatchObject({
      merchant_available: { USD: 100_000, ZWG: 100_000 },
    });
    expect((await accountBalances(world.db.database, world.shop.id, false)).utility_clearing).toBeUndefined();
  });

  test("402 when the balance does not cover amount + fee − commission; exactly covered, it goes through", async () => {
    const { app } = setup();
    const water = {
      provider: "harare_water",
      provider_product: "WATER_RATES",
      amount_cents: 2500,
      destination_account: "0120034567",
      additional_data: { account_holder: "Rudo Ncube" },
    };
    await fund(world.db.database, world.shop, 2511);
    const short = await pay(app, water);
    expect(short.status).toBe(402);
    expect(short.body.error.code).toBe("insufficient_funds");
    expect(await accountBalances(world.db.database, world.shop.id, false)).toEqual({
      merchant_available: { USD: 2511 },
      gateway_clearing: { USD: -2511 },
    });
    await fund(world.db.database, world.shop, 1);
    expect((await pay(app, water)).status).toBe(201);
    expect(await available(world.db.database, world.shop.id, false)).toBe(0);
  });

  test("a retry with the same key replays the receipt and pays the provider once", async () => {
    const { app } = setup();
    await fund(world.db.database, world.shop, 5000);
    const key = randomUUID();
    const body = {
      provider: "econet",
      provider_product: "AIRTIME",
      amount_cents: 1000,
      destination_account: "263771234567",
    };
    const first = await pay(app, body, key);
    const again = await pay(app, body, key);
    expect(again.body).toEqual(first.body);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(await available(world.db.database, world.shop.id, false)).toBe(5000 - 1000 + 30);
  });

  test("the provider refuses (account ending 0000): 400 utility_payment_failed, the whole transaction reversed", async () => {
    const { app } = setup();
    await fund(world.db.database, world.shop, 5000);
    const refused = await pay(app, {
      provider: "harare_water",
      provider_product: "WATER_RATES",
      amount_cents: 2500,
      destination_account: "0120030000",
      additional_data: { account_holder: "Rudo Ncube" },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe("utility_payment_failed");
    const id = refused.body.error.message.match(/utp_[0-9A-Za-z]+/)?.[0] as string;
    const fetched = await request(app)
      .get(`/v1/utilities/payments/${id}`)
      .set("Authorization", `Bearer ${world.shop.testKey}`);
    expect(fetched.body).toMatchObject({ status: "failed", receipt: null });
    expect(fetched.body.failure_reason).toContain("0120030000");
    expect(await accountBalances(world.db.database, world.shop.id, false)).toMatchObject({
      merchant_available: { USD: 5000 },
      utility_clearing: { USD: 0 },
      platform_fees: { USD: 0 },
      commissions: { USD: 0 },
    });
    expect((await eventsAbout(world.db.database, "utility_payment_id", id)).map((event) => event.type)).toEqual([
      "utility_payment.failed",
    ]);
  });

  test("a transient fault (ending 0096): 502 with the money reserved, then the retry completes it once", async () => {
    const { app } = setup();
    await fund(world.db.database, world.shop, 5000);
    const key = randomUUID();
    const body = {
      provider: "zesa",
      provider_product: "ZESA_PREPAID",
      amount_cents: 2000,
      destination_account: "37132640096",
    };
    expect((await pay(app, body, key)).status).toBe(502);
    expect(await available(world.db.database, world.shop.id, false)).toBe(5000 - 2000 + 30);
    const retried = await pay(app, body, key);
    expect(retried.status).toBe(201);
    expect(retried.body.receipt.token).toMatch(/^[0-9]{20}$/);
    expect(await available(world.db.database, world.shop.id, false)).toBe(5000 - 2000 + 30);
    expect(
      (await eventsAbout(world.db.database, "utility_payment_id", retried.body.id)).map((event) => event.type),
    ).toEqual(["utility_payment.completed"]);
  });

  test("left unclear, the reconcile job settles it by inquiry: completed with its receipt if the provider got it", async () => {
    const sandbox = createSandboxGateway({ autoSettleMs: 18_000 });
    const lossy: WalletGateway = {
      ...sandbox,
      payUtility: async (payment) => {
        await sandbox.payUtility(payment);
        throw new GatewayUnavailableError("connection reset after the request was sent");
      },
    };
    const { app, dependencies } = setup({}, { test: lossy, live: lossy });
    await fund(world.db.database, world.shop, 5000);
    const lost = await pay(app, {
      provider: "telecel",
      provider_product: "AIRTIME",
      amount_cents: 200,
      destination_account: "263732345678",
    });
    expect(lost.status).toBe(502);
    const [row] = await world.db.database.any(sql.type(z.object({ id: z.string() }))`
      SELECT id FROM utility_payments WHERE merchant_id = ${world.shop.id}`);
    const reconciled = await utilities.reconcileUtilityPayment(dependencies, {
      merchantId: world.shop.id,
      utilityPaymentId: row?.id as string,
    });
    expect(reconciled).toMatchObject({ status: "completed" });
    expect(reconciled?.provider_reference).toMatch(/^TELECEL-/);
    expect(await available(world.db.database, world.shop.id, false)).toBe(5000 - 200 + 7);
  });

  test("test and live never mix; one merchant cannot see another's payment", async () => {
    const { app } = setup();
    await fund(world.db.database, world.shop, 5000);
    const body = {
      provider: "econet",
      provider_product: "AIRTIME",
      amount_cents: 100,
      destination_account: "263771234567",
    };
    expect((await pay(app, body, randomUUID(), world.shop.liveKey)).status).toBe(402);
    const done = (await pay(app, body)).body;
    const other = await newMerchant(world.db.database);
    const get = (key: string) =>
      request(app).get(`/v1/utilities/payments/${done.id}`).set("Authorization", `Bearer ${key}`);
    expect((await get(other.testKey)).status).toBe(404);
    expect((await get(world.shop.liveKey)).status).toBe(404);
    expect(await available(world.db.database, world.shop.id, true)).toBe(0);
  });
});

describe("live utility payments, through the gateway simulator", () => {
  const gateway = simulatedGateway("gwsim_utilities");

  const live = () =>
    setup({
      ...gateway.environment(),
      GATEWAY_TIMEOUT_MS: "5000",
      GATEWAY_RETRIES: "2",
    });

  test("a ZESA token from the simulator's biller; a refused account returns the money", async () => {
    const { app } = live();
    await fund(world.db.database, world.shop, 10_000, true);
    const token = await pay(
      app,
      { provider: "zesa", provider_product: "ZESA_PREPAID", amount_cents: 3000, destination_account: "37132640914" },
      randomUUID(),
      world.shop.liveKey,
    );
    expect(token.status).toBe(201);
    expect(token.body).toMatchObject({ livemode: true, status: "completed", commission_cents: 45 });
    expect(token.body.receipt.token).toMatch(/^[0-9]{20}$/);
    expect(gateway.simulator.state.utilityPayments.get(token.body.id)).toMatchObject({
      status: "completed",
      submissions: 1,
    });
    expect(await available(world.db.database, world.shop.id, true)).toBe(10_000 - 3000 + 45);
    const refused = await pay(
      app,
      { provider: "zesa", provider_product: "ZESA_PREPAID", amount_cents: 3000, destination_account: "37132640000" },
      randomUUID(),
      world.shop.liveKey,
    );
    expect(refused.body.error.code).toBe("utility_payment_failed");
    expect(await available(world.db.database, world.shop.id, true)).toBe(10_000 - 3000 + 45);
    expect(await available(world.db.database, world.shop.id, false)).toBe(0);
  });
});
