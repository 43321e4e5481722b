import { errorEnvelopeSchema } from "../../platform/http/openapi.ts";
import { type AnyRoute, defineRoute } from "../../platform/http/route.ts";
import type { MerchantRow } from "../../platform/tenant.ts";
import { type ShopProfileRow, shopProfileSchema, updateShopProfileBody } from "./schemas.ts";
import * as profiles from "./service.ts";

export function presentShopProfile(merchant: MerchantRow, profile: ShopProfileRow) {
  return {
    object: "shop_profile" as const,
    display_name: profile.display_name ?? merchant.name,
    address: profile.address,
    tax_number: profile.tax_number,
    receipt_footer: profile.receipt_footer,
    tax_mode: profile.tax_mode,
    default_tax_rate_bp: profile.default_tax_rate_bp,
    discount_limit_bp: profile.discount_limit_bp,
    updated_at: profile.updated_at?.toISOString() ?? null,
  };
}

export const shopProfileRoutes: AnyRoute[] = [
  defineRoute({
    method: "get",
    path: "/v1/shop_profile",
    operationId: "getShopProfile",
    summary: "What the shop prints on receipts (name, address, tax number, footer) and how it prices tax",
    tags: ["Shop profile"],
    auth: { keys: "both", owner: "session", till: "till" },
    responses: { 200: { description: "The profile (defaults until the owner sets one).", schema: shopProfileSchema } },
    handler: async ({ tenant, database }) => ({
      body: presentShopProfile(tenant.merchant, await profiles.getShopProfile(database, tenant.merchantId)),
    }),
  }),
  defineRoute({
    method: "patch",
    path: "/v1/shop_profile",
    operationId: "updateShopProfile",
    summary: "Change the receipt header and footer, the tax number, the tax mode or the default tax rate (the owner)",
    tags: ["Shop profile"],
    auth: { owner: "session" },
    request: { body: updateShopProfileBody },
    responses: {
      200: {
        description: "The profile as it now stands; audited as `shop_profile.updated`.",
        schema: shopProfileSchema,
      },
      403: { description: "`principal_not_allowed`: only the owner's dashboard session.", schema: errorEnvelopeSchema },
    },
    handler: async ({ body, tenant, database, client }) => ({
      body: presentShopProfile(tenant.merchant, await profiles.updateShopProfile(database, tenant, body, client)),
    }),
  }),
];
