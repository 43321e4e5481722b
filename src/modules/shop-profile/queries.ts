import { z } from "zod";
import { type Queryable, sql } from "../../platform/db/pool.ts";
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
 * The profiles of several merchants in one probe of the primary key: the sales of one turn of the
 * event loop (`createShopProfileReader`). Prepared (planned once per connection). A merchant without
 * a row is absent.
 */
export async function selectShopProfilesOf(
  database: Queryable,
  merchantIds: readonly string[],
): Promise<readonly (ShopProfileRow & { merchant_id: string })[]> {
  return database.any(sql.prepared("shop_profiles_of", shopProfileRowSchema.extend({ merchant_id: z.string() }))`
    SELECT merchant_id, ${COLUMNS} FROM shop_profiles WHERE merchant_id = ANY (${sql.array(
      merchantIds as string[],
      "text",
    )}::text[])`);
}

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
