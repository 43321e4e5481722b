import { requireStepUpOfSession } from "../../platform/http/access.ts";
import { type AnyRoute, defineRoute } from "../../platform/http/route.ts";
import type { Tenant } from "../../platform/tenant.ts";
import { recordAuditEntry } from "../audit/index.ts";
import { apiKeySchema, merchants, presentApiKey } from "../merchants/index.ts";
import { keyIdParams, mintKeyBody, rolledKeySchema, rollKeyBody } from "./schemas.ts";

/**
 * Key management from the dashboard. Minting and rolling are session-only (the secret reaches the
 * browser once, in the answer, for the merchant to copy); a live key needs a fresh password (step-up).
 */
const stepUpResponse = {
  403: { description: "`step_up_required`: a live key needs the password entered in the last 5 minutes." },
};

const auditKey = (
  database: Parameters<typeof recordAuditEntry>[0],
  tenant: Tenant,
  action: "api_key.created" | "api_key.rolled" | "api_key.revoked",
  key: merchants.ApiKeyRow,
  client: Parameters<typeof recordAuditEntry>[1]["client"],
) =>
  recordAuditEntry(database, {
    merchantId: tenant.merchantId,
    action,
    actor: tenant.actor,
    livemode: key.livemode,
    target: { type: "api_key", id: key.id },
    client,
  });

/**
 * API keys from the dashboard: listed, made, rolled and revoked.
 * Longer than 70 lines as a list of route declarations (a container, docs/conventions.md); each of its
 * handlers keeps to the rule.
 */
export function keyRoutes(): AnyRoute[] {
  return [
    defineRoute({
      method: "post",
      path: "/v1/api_keys",
      operationId: "createApiKey",
      summary: "Mint a secret key (dashboard session only); the secret is in this answer and never again",
      tags: ["Account"],
      auth: { owner: "session" },
      request: { body: mintKeyBody },
      responses: { 201: { description: "The key with its secret.", schema: apiKeySchema }, ...stepUpResponse },
      handler: async ({ database, tenant, body, client }) => {
        if (body.livemode) {
          requireStepUpOfSession(tenant);
        }
        const minted = await merchants.createApiKey(database, tenant.merchantId, body.livemode);
        await auditKey(database, tenant, "api_key.created", minted.key, client);
        return {
          status: 201,
          headers: { "Cache-Control": "no-store" },
          body: presentApiKey(minted.key, minted.secretKey),
        };
      },
    }),
    defineRoute({
      method: "post",
      path: "/v1/api_keys/:id/roll",
      operationId: "rollApiKey",
      summary: "Replace a key with a new one; the old secret works for 0 s, 1 h, 24 h or 7 days more (session only)",
      tags: ["Account"],
      auth: { owner: "session" },
      request: { params: keyIdParams, body: rollKeyBody },
      responses: {
        200: { description: "The old key (with its end) and the new one with its secret.", schema: rolledKeySchema },
        ...stepUpResponse,
      },
      handler: async ({ database, tenant, params, body, client }) => {
        const key = await merchants.getWorldApiKey(database, tenant, params.id);
        if (key.livemode) {
          requireStepUpOfSession(tenant);
        }
        const rolled = await merchants.rollApiKey(database, tenant.merchantId, key.id, body.expires_in_seconds);
        await auditKey(database, tenant, "api_key.rolled", rolled.previous, client);
        return {
          headers: { "Cache-Control": "no-store" },
          body: {
            previous: presentApiKey(rolled.previous),
            key: presentApiKey(rolled.minted.key, rolled.minted.secretKey),
          },
        };
      },
    }),
    defineRoute({
      method: "delete",
      path: "/v1/api_keys/:id",
      operationId: "revokeApiKey",
      summary: "Revoke a secret key of the caller's world at once (a live key from a session: step-up)",
      tags: ["Account"],
      auth: { keys: "both", owner: "session" },
      request: { params: keyIdParams },
      responses: { 200: { description: "The revoked key.", schema: apiKeySchema } },
      handler: async ({ database, tenant, params, client }) => {
        // A live key's revocation from a session needs a fresh password: a stolen session must not be
        // able to cut the merchant's live integration off.
        if (tenant.livemode) {
          requireStepUpOfSession(tenant);
        }
        const revoked = await merchants.revokeApiKey(database, {
          merchantId: tenant.merchantId,
          id: params.id,
          livemode: tenant.livemode,
        });
        await auditKey(database, tenant, "api_key.revoked", revoked, client);
        return { body: presentApiKey(revoked) };
      },
    }),
  ];
}
