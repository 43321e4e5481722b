import { signal } from "@preact/signals";
import { getShopProfile, type ShopProfile } from "../../lib/api/shop-profile.ts";

/**
 * The shop's tax settings the cart prices with (GET /v1/shop_profile): read when the till starts and
 * kept in this device's storage, so a till started offline prices as the shop does. Until first read:
 * prices with tax in them at rate 0, which is what a shop that never set tax has.
 */
export type TaxSettings = Pick<ShopProfile, "tax_mode" | "default_tax_rate_bp">;

const STORAGE_KEY = "till.tax-settings";
const NO_TAX: TaxSettings = { tax_mode: "inclusive", default_tax_rate_bp: 0 };

function stored(): TaxSettings {
  try {
    return (JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "null") as TaxSettings | null) ?? NO_TAX;
  } catch {
    return NO_TAX;
  }
}

export const taxSettings = signal<TaxSettings>(stored());

/** Reads the shop's settings again (at start and after a sale); offline, the kept ones stay. */
export async function refreshTaxSettings(): Promise<void> {
  try {
    const profile = await getShopProfile();
    taxSettings.value = { tax_mode: profile.tax_mode, default_tax_rate_bp: profile.default_tax_rate_bp };
    localStorage.setItem(STORAGE_KEY, JSON.stringify(taxSettings.value));
  } catch {
    // Offline or storage refused: the settings kept before still price the cart.
  }
}
