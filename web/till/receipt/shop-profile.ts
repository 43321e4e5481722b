import { signal } from "@preact/signals";
import { getShopProfile, type ShopProfile } from "../../lib/api/shop-profile.ts";
import { session } from "../../lib/session.ts";

/** The shop profile once read; undefined until then (or offline): receipts show the account's name. */
export const shopProfile = signal<ShopProfile | undefined>(undefined);

/** The shop's name on its receipts and share links: the profile's, else the account's. */
export const shopName = (): string => shopProfile.value?.display_name ?? session.value?.merchant.name ?? "";

/**
 * Reads the shop profile for the receipts, again at each call (the owner may have changed it since),
 * keeping the last one read when the network is away.
 */
export function loadShopProfile(): void {
  getShopProfile().then(
    (profile) => {
      shopProfile.value = profile;
    },
    () => {},
  );
}

/** "VAT no." for a shop that charges tax, else "Tax no." (as the public receipt page says it). */
export const taxNumberLabel = (profile: Pick<ShopProfile, "default_tax_rate_bp">) =>
  profile.default_tax_rate_bp > 0 ? "VAT no." : "Tax no.";
