import { randomBytes } from "node:crypto";
import * as ledger from "../../src/modules/ledger/service.ts";
import type { CreateMerchantInput } from "../../src/modules/merchants/schemas.ts";
import * as merchants from "../../src/modules/merchants/service.ts";
import type { Database } from "../../src/platform/db/pool.ts";

export type TestMerchant = Awaited<ReturnType<typeof newMerchant>>;

/** A merchant with its dashboard user and a test and a live key. */
export async function newMerchant(database: Database, overrides: Partial<CreateMerchantInput> = {}) {
  const suffix = randomBytes(4).toString("hex");
  const created = await merchants.createMerchant(database, {
    name: `Shop ${suffix}`,
    type: "business",
    email: `owner-${suffix}@example.com`,
    password: "correct horse battery",
    status: "active",
    fee_bps: 150,
    fee_fixed_cents: 0,
    payout_verified: false,
    ...overrides,
  });
  return {
    id: created.merchant.id,
    merchant: created.merchant,
    email: created.email,
    testKey: created.testKey.secretKey,
    liveKey: created.liveKey.secretKey,
    testKeyId: created.testKey.key.id,
    liveKeyId: created.liveKey.key.id,
  };
}

/** `fundMerchant` for a test merchant: the test world and USD unless the test says otherwise. */
export const fund = (
  database: Database,
  merchant: { id: string },
  amountCents: number,
  livemode = false,
  currency: "USD" | "ZWG" = "USD",
) => fundMerchant(database, { merchantId: merchant.id, livemode, currency, amountCents });

/** Credits a merchant's available balance as a settled payment would: gateway clearing → merchant. */
export async function fundMerchant(
  database: Database,
  funding: {
    merchantId: string;
    livemode: boolean;
    currency: "USD" | "ZWG";
    amountCents: number;
    description?: string;
  },
) {
  const source = { type: "test_funding", id: `fund_${randomBytes(8).toString("hex")}` };
  return database.transaction((transaction) =>
    ledger.post(transaction, {
      merchantId: funding.merchantId,
      livemode: funding.livemode,
      postingKey: `${source.type}:${source.id}`,
      description: funding.description ?? "Test funding",
      source,
      postings: [
        {
          account: "merchant_available",
          entryType: "payment",
          currency: funding.currency,
          amountCents: funding.amountCents,
        },
        {
          account: "gateway_clearing",
          entryType: "payment",
          currency: funding.currency,
          amountCents: -funding.amountCents,
        },
      ],
    }),
  );
}
