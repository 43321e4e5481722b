import request from "supertest";
import { fund } from "../../../tests/support/factories.ts";
import { accountBalances, eventsAbout, postingsOf } from "../../../tests/support/money.ts";
import { utilitiesTestWorld } from "../../../tests/support/utilities.ts";
import { electricityTokenOf } from "../../gateway/network-data.ts";
import { utilityProviders } from "./catalogue.ts";

/** The utilities catalogue, and a payment to each of its providers. */

const world = utilitiesTestWorld();
const { setup, pay } = world;

describe("GET /v1/utilities/providers", () => {
  test("publishes every provider: products, account format, currencies, additional_data as JSON Schema, fees", async () => {
    const { app } = setup();
    const response = await request(app)
      .get("/v1/utilities/providers")
      .set("Authorization", `Bearer ${world.shop.testKey}`);
    expect(response.status).toBe(200);
    const providers = response.body.data as {
      id: string;
      category: string;
      products: { code: string; pricing: string }[];
      additional_data_schema: { required?: string[]; properties?: Record<string, unknown> };
      destination_account: { pattern: string; example: string };
    }[];
    expect(providers.map((provider) => provider.id)).toEqual([
      "zesa",
      "econet",
      "netone",
      "telecel",
      "dstv",
      "harare_water",
    ]);
    expect(new Set(providers.map((provider) => provider.category))).toEqual(
      new Set(["electricity", "airtime", "tv", "water"]),
    );
    const dstv = providers.find((provider) => provider.id === "dstv");
    expect(dstv?.additional_data_schema.required?.sort()).toEqual(["customer_name", "months"]);
    expect(dstv?.products.every((product) => product.pricing === "fixed")).toBe(true);
    // Every example account matches its own published pattern.
    for (const provider of providers) {
      expect(new RegExp(provider.destination_account.pattern).test(provider.destination_account.example)).toBe(true);
    }
    expect((await request(app).get("/v1/utilities/providers")).status).toBe(401);
  });
});

describe("paying a utility (test world)", () => {
  test.each([
    {
      name: "ZESA prepaid electricity: a 20-digit token",
      body: {
        provider: "zesa",
        provider_product: "ZESA_PREPAID",
        amount_cents: 1000,
        destination_account: "37132640914",
        additional_data: { customer_msisdn: "263771234567" },
      },
      fee: 0,
      commission: 15,
    },
    {
      name: "Econet airtime",
      body: { provider: "econet", provider_product: "AIRTIME", amount_cents: 500, destination_account: "263771234567" },
      fee: 0,
      commission: 15,
    },
    {
      name: "an Econet data bundle at its fixed price",
      body: {
        provider: "econet",
        provider_product: "DATA_1GB",
        amount_cents: 500,
        destination_account: "263781234567",
      },
      fee: 0,
      commission: 15,
    },
    {
      name: "NetOne airtime in ZWG",
      body: {
        provider: "netone",
        provider_product: "AIRTIME",
        amount_cents: 13_500,
        currency: "ZWG",
        destination_account: "263712345678",
      },
      fee: 0,
      commission: 473,
    },
    {
      name: "Telecel airtime",
      body: {
        provider: "telecel",
        provider_product: "AIRTIME",
        amount_cents: 100,
        destination_account: "263732345678",
      },
      fee: 0,
      commission: 4,
    },
    {
      name: "two months of DStv Compact",
      body: {
        provider: "dstv",
        provider_product: "DSTV_COMPACT",
        amount_cents: 8400,
        destination_account: "4123456789",
        additional_data: { customer_name: "Tendai Moyo", months: 2 },
      },
      fee: 50,
      commission: 84,
    },
    {
      name: "a City of Harare water account",
      body: {
        provider: "harare_water",
        provider_product: "WATER_RATES",
        amount_cents: 2500,
        destination_account: "0120034567",
        additional_data: { account_holder: "Rudo Ncube", stand_number: "1234 Mabelreign" },
        narration: "March water",
      },
      fee: 25,
      commission: 13,
    },
  ])(
    "$name: debited, fee and commission in one balanced transaction, with the receipt",
    async ({ body, fee, commission }) => {
      const { app } = setup();
      const currency = (body as { currency?: "USD" | "ZWG" }).currency ?? "USD";
      await fund(world.db.database, world.shop, 20_000, false, currency);
      const response = await pay(app, body);
      expect(response.status).toBe(201);
      const payment = response.body;
      expect(payment).toMatchObject({
        object: "utility_payment",
        livemode: false,
        status: "completed",
        provider: body.provider,
        provider_product: body.provider_product,
        amount_cents: body.amount_cents,
        fee_cents: fee,
        commission_cents: commission,
        total_debited_cents: body.amount_cents + fee,
        net_cost_cents: body.amount_cents + fee - commission,
        currency,
        destination_account: body.destination_account,
        additional_data: (body as { additional_data?: object }).additional_data ?? {},
        failure_reason: null,
      });
      expect(payment.id).toMatch(/^utp_/);
      expect(payment.receipt.provider_reference).toMatch(new RegExp(`^${body.provider.toUpperCase()}-[0-9]{10}$`));
      if (body.provider === "zesa") {
        expect(payment.receipt.token).toMatch(/^[0-9]{20}$/);
        expect(payment.receipt.token).toBe(electricityTokenOf(payment.id));
        expect(payment.receipt.details).toMatchObject({ units_kwh: "100.0", meter_number: body.destination_account });
      } else {
        expect(payment.receipt.token).toBeNull();
      }
      expect(await accountBalances(world.db.database, world.shop.id, false)).toMatchObject({
        merchant_available: { [currency]: 20_000 - body.amount_cents - fee + commission },
        utility_clearing: { [currency]: body.amount_cents },
        ...(fee > 0 ? { platform_fees: { [currency]: fee } } : {}),
        ...(commission > 0 ? { commissions: { [currency]: -commission } } : {}),
      });
      const postings = await postingsOf(world.db.database, payment.id);
      expect(postings).toEqual(
        expect.arrayContaining([
          { account: "merchant_available", entry_type: "utility_payment", currency, amount_cents: -body.amount_cents },
          { account: "utility_clearing", entry_type: "utility_payment", currency, amount_cents: body.amount_cents },
          { account: "merchant_available", entry_type: "commission", currency, amount_cents: commission },
          { account: "commissions", entry_type: "commission", currency, amount_cents: -commission },
        ]),
      );
      expect(postings).toHaveLength(fee > 0 ? 6 : 4);
      const [event] = await eventsAbout(world.db.database, "utility_payment_id", payment.id);
      expect(event).toMatchObject({
        type: "utility_payment.completed",
        data: {
          utility_payment_id: payment.id,
          amount_cents: body.amount_cents,
          fee_cents: fee,
          commission_cents: commission,
          provider_reference: payment.receipt.provider_reference,
          token: payment.receipt.token,
        },
      });
      const fetched = await request(app)
        .get(`/v1/utilities/payments/${payment.id}`)
        .set("Authorization", `Bearer ${world.shop.testKey}`);
      expect(fetched.body).toEqual(payment);
    },
  );

  test("the catalogue is exactly the six providers whose happy paths are tested above", () => {
    expect(utilityProviders.map((provider) => provider.id).sort()).toEqual(
      ["dstv", "econet", "harare_water", "netone", "telecel", "zesa"].sort(),
    );
  });
});
