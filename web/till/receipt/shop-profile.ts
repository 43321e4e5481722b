import { signal } from "@preact/signals";
import { api } from "../../lib/session.ts";

/** What the shop prints on its receipts (GET /v1/shop_profile; the owner sets it in the dashboard). */
export type ShopProfile = {
  display_name: string;
  address: string | null;
  tax_number: string | null;
  receipt_footer: string | null;
  default_tax_rate_bp: number;
};

/** The shop profile once read; undefined until then (or offline): receipts show the account's name. */
export const shopProfile = signal<ShopProfile | undefined>(undefined);

/**
 * Reads the shop profile for the receipts, again at each call (the owner may have changed it since),
 * keeping the last one read when the network is away.
 */
export function loadShopProfile(): void {
  api.get<ShopProfile>("/v1/shop_profile").then(
    (profile) => {
      shopProfile.value = profile;
    },
    () => {},
  );
}

/** "VAT no." for a shop that charges tax, else "Tax no." (as the public receipt page says it). */
export const taxNumberLabel = (profile: ShopProfile) => (profile.default_tax_rate_bp > 0 ? "VAT no." : "Tax no.");
