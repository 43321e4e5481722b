import fc from "fast-check";
import type { TaxMode } from "../../src/kernel/basket.ts";
import { sql } from "../../src/platform/db/pool.ts";
import type { TestDatabase } from "./database.ts";

/** What the discount and tax property tests share: the API's discounts at random, the shop's tax mode. */

export type ApiDiscount = { type: "percent"; percent_bp: number } | { type: "amount"; amount_cents: number };

/** No discount, a percentage or an amount (up to 200.00), as `POST /v1/sales` takes them. */
export const apiDiscountArb: fc.Arbitrary<ApiDiscount | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.record({ type: fc.constant("percent" as const), percent_bp: fc.integer({ min: 1, max: 10_000 }) }),
  fc.record({ type: fc.constant("amount" as const), amount_cents: fc.integer({ min: 1, max: 20_000 }) }),
);

/** Prices the shop's sales with `taxMode` from now on (its profile, written directly). */
export async function setTaxMode(db: TestDatabase, merchantId: string, taxMode: TaxMode): Promise<void> {
  await db.database.query(sql.unsafe`
    INSERT INTO shop_profiles (merchant_id, tax_mode) VALUES (${merchantId}, ${taxMode})
    ON CONFLICT (merchant_id) DO UPDATE SET tax_mode = EXCLUDED.tax_mode`);
}
