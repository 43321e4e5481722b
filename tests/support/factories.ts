import { randomBytes } from "node:crypto";
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
