import type { ApiClient } from "../api.ts";

/**
 * The shop profile's calls (src/modules/shop-profile/README.md): what receipts print and how tax is
 * priced. Typed by hand for now, like products.ts: the generated OpenAPI types will replace these.
 */

export type TaxMode = "inclusive" | "exclusive";

export type ShopProfile = {
  object: "shop_profile";
  /** The account's name until the owner sets one. */
  display_name: string;
  address: string | null;
  tax_number: string | null;
  receipt_footer: string | null;
  tax_mode: TaxMode;
  /** The rate of a product that names none, in basis points (15.5 % = 1550). */
  default_tax_rate_bp: number;
  /** The largest discount a cashier gives alone, in basis points of the sale's gross (10000: no limit). */
  discount_limit_bp: number;
  updated_at: string | null;
};

/** What a save may change; an empty text clears the field. */
export type ShopProfileChanges = Partial<Omit<ShopProfile, "object" | "updated_at">>;

export const getShopProfile = (api: ApiClient) => api.get<ShopProfile>("/v1/shop_profile");

export const updateShopProfile = (api: ApiClient, changes: ShopProfileChanges) =>
  api.request<ShopProfile>("PATCH", "/v1/shop_profile", { body: changes });
