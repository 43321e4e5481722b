import type { z } from "zod";
import type { Database } from "../../platform/db/pool.ts";
import { type AnyRoute, defineRoute } from "../../platform/http/route.ts";
import type { MerchantRow } from "../../platform/tenant.ts";
import { presentApiKey } from "./present.ts";
import {
  adminMerchantSchema,
  apiKeyListSchema,
  apiKeyParams,
  apiKeySchema,
  createdMerchantSchema,
  createMerchantBody,
  listApiKeysQuery,
  merchantIdParams,
  merchantProfileSchema,
  mintKeyBody,
  payoutDestinationBody,
  setStatusBody,
  setTimezoneBody,
} from "./schemas.ts";
import * as merchants from "./service.ts";

function presentMerchant(merchant: MerchantRow) {
  return {
    id: merchant.id,
    object: "merchant" as const,
    name: merchant.name,
    type: merchant.type,
    status: merchant.status,
    fee_bps: merchant.fee_bps,
    fee_fixed_cents: merchant.fee_fixed_cents,
    payout_destination: { msisdn: merchant.payout_msisdn, verified: merchant.payout_verified },
    timezone: merchant.timezone,
    created_at: merchant.created_at.toISOString(),
    updated_at: merchant.updated_at.toISOString(),
  };
}

/** An operator's change of one merchant setting (`POST /admin/v1/merchants/:id/<setting>`), answering the merchant. */
function adminMerchantSetting<B extends z.ZodType>(route: {
  setting: string;
  operationId: string;
  summary: string;
  body: B;
  apply: (database: Database, merchantId: string, body: z.output<B>) => Promise<MerchantRow>;
}): AnyRoute {
  return defineRoute({
    method: "post",
    path: `/admin/v1/merchants/:id/${route.setting}`,
    operationId: route.operationId,
    summary: route.summary,
    tags: ["Operator"],
    auth: "admin",
    request: { params: merchantIdParams, body: route.body },
    responses: { 200: { description: "The merchant.", schema: adminMerchantSchema } },
    handler: async ({ database, params, body }) => ({
      // The body is `z.output<B>` (B is a schema); the generic hides that from the route's own typing.
      body: presentMerchant(await route.apply(database, params.id, body as z.output<B>)),
    }),
  });
}

export const merchantRoutes: AnyRoute[] = [
  defineRoute({
    method: "get",
    path: "/v1/me",
    operationId: "getMe",
    summary: "The merchant profile of the calling key",
    tags: ["Merchant"],
    auth: { keys: "both", owner: "session" },
    responses: { 200: { description: "Merchant profile.", schema: merchantProfileSchema } },
    // The profile arrives with authentication: this route costs no query of its own.
    handler: async ({ tenant }) => {
      const { updated_at: _updatedAt, ...profile } = presentMerchant(tenant.merchant);
      return { body: { ...profile, livemode: tenant.livemode } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/v1/api_keys",
    operationId: "listApiKeys",
    summary: "The API keys of the calling key's world, newest first, revoked ones included (never their secrets)",
    tags: ["Merchant"],
    auth: { keys: "both", owner: "session" },
    request: { query: listApiKeysQuery },
    responses: { 200: { description: "A page of keys.", schema: apiKeyListSchema } },
    handler: async ({ database, tenant, query }) => {
      const page = await merchants.listWorldApiKeys(database, { ...tenant, limit: query.limit, cursor: query.cursor });
      return { body: { ...page, data: page.data.map((key) => presentApiKey(key)) } };
    },
  }),
];

export const merchantAdminRoutes: AnyRoute[] = [
  defineRoute({
    method: "post",
    path: "/admin/v1/merchants",
    operationId: "adminCreateMerchant",
    summary: "Create a merchant with its dashboard user and one test and one live key",
    tags: ["Operator"],
    auth: "admin",
    request: { body: createMerchantBody },
    responses: { 201: { description: "The merchant; the keys are shown only here.", schema: createdMerchantSchema } },
    handler: async ({ database, body }) => {
      const created = await merchants.createMerchant(database, body);
      return {
        status: 201,
        body: {
          ...presentMerchant(created.merchant),
          email: created.email,
          test_secret_key: created.testKey.secretKey,
          live_secret_key: created.liveKey.secretKey,
        },
      };
    },
  }),
  defineRoute({
    method: "get",
    path: "/admin/v1/merchants/:id",
    operationId: "adminGetMerchant",
    summary: "Get a merchant",
    tags: ["Operator"],
    auth: "admin",
    request: { params: merchantIdParams },
    responses: { 200: { description: "The merchant.", schema: adminMerchantSchema } },
    handler: async ({ database, params }) => ({
      body: presentMerchant(await merchants.getMerchant(database, params.id)),
    }),
  }),
  adminMerchantSetting({
    setting: "status",
    operationId: "adminSetMerchantStatus",
    summary: "Activate, suspend or set a merchant pending",
    body: setStatusBody,
    apply: (database, id, body) => merchants.setStatus(database, id, body.status),
  }),
  adminMerchantSetting({
    setting: "timezone",
    operationId: "adminSetMerchantTimezone",
    summary: "Set the IANA time zone of the merchant's day (the sales report's default period)",
    body: setTimezoneBody,
    apply: (database, id, body) => merchants.setTimezone(database, id, body.timezone),
  }),
  defineRoute({
    method: "get",
    path: "/admin/v1/merchants/:id/keys",
    operationId: "adminListKeys",
    summary: "List a merchant's API keys (never their secrets)",
    tags: ["Operator"],
    auth: "admin",
    request: { params: merchantIdParams },
    responses: { 200: { description: "The keys.", schema: apiKeyListSchema } },
    handler: async ({ database, params }) => ({
      body: {
        data: (await merchants.listApiKeys(database, params.id)).map((key) => presentApiKey(key)),
        has_more: false,
        next_cursor: null,
      },
    }),
  }),
  defineRoute({
    method: "post",
    path: "/admin/v1/merchants/:id/keys",
    operationId: "adminCreateKey",
    summary: "Mint a new secret key for the test or live world",
    tags: ["Operator"],
    auth: "admin",
    request: { params: merchantIdParams, body: mintKeyBody },
    responses: { 201: { description: "The key; the secret is shown only here.", schema: apiKeySchema } },
    handler: async ({ database, params, body }) => {
      const minted = await merchants.createApiKey(database, params.id, body.mode === "live");
      return { status: 201, body: presentApiKey(minted.key, minted.secretKey) };
    },
  }),
  defineRoute({
    method: "delete",
    path: "/admin/v1/merchants/:id/keys/:key_id",
    operationId: "adminRevokeKey",
    summary: "Revoke a secret key",
    tags: ["Operator"],
    auth: "admin",
    request: { params: apiKeyParams },
    responses: { 200: { description: "The revoked key.", schema: apiKeySchema } },
    handler: async ({ database, params }) => ({
      body: presentApiKey(
        await merchants.revokeApiKey(database, { merchantId: params.id, id: params.key_id, livemode: null }),
      ),
    }),
  }),
  defineRoute({
    method: "post",
    path: "/admin/v1/merchants/:id/payout_destination",
    operationId: "adminSetPayoutDestination",
    summary: "Set the merchant's payout wallet and its verification state",
    tags: ["Operator"],
    auth: "admin",
    request: { params: merchantIdParams, body: payoutDestinationBody },
    responses: { 200: { description: "The merchant.", schema: adminMerchantSchema } },
    handler: async ({ database, params, body }) => ({
      body: presentMerchant(await merchants.setPayoutDestination(database, params.id, body)),
    }),
  }),
];
