import type { FragmentSqlToken } from "slonik";
import { z } from "zod";
import { type Queryable, sql } from "../../platform/db/pool.ts";
import type { ShopPricing } from "../../platform/tenant.ts";
import { type ShopProfileRow, type ShopProfileUpdate, shopProfileRowSchema } from "./schemas.ts";

/** A shop that never set a discount limit has none: any discount, 100 % of the gross. */
const DISCOUNT_LIMIT_NONE_BP = 10_000;

const COLUMNS = sql.fragment`display_name, address, tax_number, receipt_footer, tax_mode, default_tax_rate_bp,
  discount_limit_bp, updated_at`;

/** What a shop that never saved its profile has. */
export const NO_PROFILE: ShopProfileRow = {
  display_name: null,
  address: null,
  tax_number: null,
  receipt_footer: null,
  tax_mode: "inclusive",
  default_tax_rate_bp: 0,
  discount_limit_bp: DISCOUNT_LIMIT_NONE_BP,
  updated_at: null,
};

/** The shop's profile; the defaults (no `updated_at`) when it never set one. */
export async function selectShopProfile(database: Queryable, merchantId: string): Promise<ShopProfileRow> {
  const row = await database.maybeOne(sql.type(shopProfileRowSchema)`
    SELECT ${COLUMNS} FROM shop_profiles WHERE merchant_id = ${merchantId}`);
  return row ?? NO_PROFILE;
}

/**
 * How the merchant `merchantId` names prices a sale (`pricing_tax_mode`, `pricing_default_tax_rate_bp`,
 * `pricing_discount_limit_bp`; a shop that never saved its profile has the defaults), as a lateral
 * subquery of the statements that authenticate a request: ringing up a sale then costs no statement
 * of its own for its shop's settings (`Tenant.pricing`, `pricingOf`).
 */
export const pricingOfMerchant = (merchantId: FragmentSqlToken) => sql.fragment`
  SELECT coalesce(sp.tax_mode, ${NO_PROFILE.tax_mode}) AS pricing_tax_mode,
    coalesce(sp.default_tax_rate_bp, ${NO_PROFILE.default_tax_rate_bp}::integer) AS pricing_default_tax_rate_bp,
    coalesce(sp.discount_limit_bp, ${NO_PROFILE.discount_limit_bp}::integer) AS pricing_discount_limit_bp
  FROM (SELECT) AS one LEFT JOIN shop_profiles sp ON sp.merchant_id = ${merchantId}`;

/** The columns `pricingOfMerchant` adds to a row. */
export const pricingColumnsSchema = z.object({
  pricing_tax_mode: shopProfileRowSchema.shape.tax_mode,
  pricing_default_tax_rate_bp: z.number().int(),
  pricing_discount_limit_bp: z.number().int(),
});

/** A row's `pricingOfMerchant` columns as the tenant carries them. */
export const pricingOf = (row: z.infer<typeof pricingColumnsSchema>): ShopPricing => ({
  taxMode: row.pricing_tax_mode,
  defaultTaxRateBp: row.pricing_default_tax_rate_bp,
  discountLimitBp: row.pricing_discount_limit_bp,
});

const editable = [
  "display_name",
  "address",
  "tax_number",
  "receipt_footer",
  "tax_mode",
  "default_tax_rate_bp",
  "discount_limit_bp",
] as const;

/**
 * Sets the fields `update` names and keeps the others, in one statement: two owners saving different
 * fields at once both keep their change.
 */
export async function upsertShopProfile(
  database: Queryable,
  merchantId: string,
  update: ShopProfileUpdate,
): Promise<ShopProfileRow> {
  const given = (field: (typeof editable)[number]) => update[field] !== undefined;
  const assignments = editable.map(
    (field) =>
      sql.fragment`${sql.identifier([field])} = CASE WHEN ${given(field)} THEN EXCLUDED.${sql.identifier([field])}
        ELSE shop_profiles.${sql.identifier([field])} END`,
  );
  return database.one(sql.type(shopProfileRowSchema)`
    INSERT INTO shop_profiles (merchant_id, display_name, address, tax_number, receipt_footer, tax_mode,
      default_tax_rate_bp, discount_limit_bp)
    VALUES (${merchantId}, ${update.display_name ?? null}, ${update.address ?? null}, ${update.tax_number ?? null},
      ${update.receipt_footer ?? null}, ${update.tax_mode ?? "inclusive"}, ${update.default_tax_rate_bp ?? 0},
      ${update.discount_limit_bp ?? DISCOUNT_LIMIT_NONE_BP})
    ON CONFLICT (merchant_id) DO UPDATE SET ${sql.join(assignments, sql.fragment`, `)}, updated_at = now()
    RETURNING ${COLUMNS}`);
}
