import { type BodyOf, call, type Schema } from "./call.ts";

/**
 * The shop profile's calls (src/modules/shop-profile/README.md): what receipts print and how tax is
 * priced. The dashboard edits it; the till reads it for its receipts and its cart's tax.
 */

export type ShopProfile = Schema<"ShopProfile">;
export type TaxMode = ShopProfile["tax_mode"];

/** What a save may change; an empty text clears the field. */
export type ShopProfileChanges = BodyOf<"/v1/shop_profile", "patch">;

export const getShopProfile = () => call("get", "/v1/shop_profile");

export const updateShopProfile = (changes: ShopProfileChanges) => call("patch", "/v1/shop_profile", { body: changes });
