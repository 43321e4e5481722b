import { errorEnvelopeSchema } from "../../platform/http/openapi.ts";
import { type AnyRoute, defineRoute } from "../../platform/http/route.ts";
import {
  type CashierRow,
  cashierIdParams,
  cashierListSchema,
  cashierSchema,
  createCashierBody,
  switchCashierBody,
} from "./schemas.ts";
import * as cashiers from "./service.ts";

export function presentCashier(cashier: CashierRow) {
  return {
    id: cashier.id,
    object: "cashier" as const,
    name: cashier.name,
    status:
      cashier.disabled_at !== null
        ? ("disabled" as const)
        : cashier.locked_at !== null
          ? ("locked" as const)
          : ("active" as const),
    failed_pin_attempts: cashier.failed_pin_attempts,
    locked_at: cashier.locked_at?.toISOString() ?? null,
    disabled_at: cashier.disabled_at?.toISOString() ?? null,
    created_at: cashier.created_at.toISOString(),
  };
}

const ownerOnly = {
  description: "`dashboard_session_required`: only the owner's dashboard session.",
  schema: errorEnvelopeSchema,
};
const notFoundResponse = { description: "`resource_missing`.", schema: errorEnvelopeSchema };

export const cashierRoutes: AnyRoute[] = [
  defineRoute({
    method: "post",
    path: "/v1/cashiers",
    operationId: "createCashier",
    summary: "Create a cashier with a 4–6 digit PIN (stored hashed; dashboard session only)",
    tags: ["Cashiers"],
    auth: "session",
    request: { body: createCashierBody },
    responses: {
      201: { description: "The cashier (never its PIN).", schema: cashierSchema },
      403: ownerOnly,
      409: {
        description: "`cashier_name_taken`: the shop has a cashier of that name (case and outer spaces aside).",
        schema: errorEnvelopeSchema,
      },
    },
    handler: async ({ body, tenant, database }) => ({
      status: 201,
      body: presentCashier(await cashiers.createCashier(database, tenant, body)),
    }),
  }),
  defineRoute({
    method: "get",
    path: "/v1/cashiers",
    operationId: "listCashiers",
    summary: "The merchant's cashiers (dashboard or till session)",
    tags: ["Cashiers"],
    auth: "session",
    responses: { 200: { description: "All cashiers, oldest first.", schema: cashierListSchema } },
    handler: async ({ tenant, database }) => ({
      body: { data: (await cashiers.listCashiers(database, tenant)).map(presentCashier) },
    }),
  }),
  defineRoute({
    method: "post",
    path: "/v1/cashiers/:id/disable",
    operationId: "disableCashier",
    summary: "Disable a cashier: no more switching in, and a till it is switched in on stops acting as it at once",
    tags: ["Cashiers"],
    auth: "session",
    request: { params: cashierIdParams },
    responses: { 200: { description: "The cashier.", schema: cashierSchema }, 403: ownerOnly, 404: notFoundResponse },
    handler: async ({ params, tenant, database }) => ({
      body: presentCashier(await cashiers.disableCashier(database, tenant, params.id)),
    }),
  }),
  defineRoute({
    method: "post",
    path: "/v1/cashiers/:id/unlock",
    operationId: "unlockCashier",
    summary: "Unlock a cashier locked by wrong PINs (dashboard session only)",
    tags: ["Cashiers"],
    auth: "session",
    request: { params: cashierIdParams },
    responses: { 200: { description: "The cashier.", schema: cashierSchema }, 403: ownerOnly, 404: notFoundResponse },
    handler: async ({ params, tenant, database }) => ({
      body: presentCashier(await cashiers.unlockCashier(database, tenant, params.id)),
    }),
  }),
  defineRoute({
    method: "post",
    path: "/v1/session/cashier",
    operationId: "switchCashier",
    summary: "Switch a cashier in on this till session by PIN; the session's requests then act as the cashier",
    tags: ["Cashiers"],
    auth: "session",
    request: { body: switchCashierBody },
    responses: {
      200: { description: "The cashier now switched in.", schema: cashierSchema },
      401: { description: "`invalid_pin` (counted towards the lock).", schema: errorEnvelopeSchema },
      403: {
        description: "`cashier_locked`, `cashier_disabled`, `till_session_required`.",
        schema: errorEnvelopeSchema,
      },
      404: notFoundResponse,
    },
    handler: async ({ body, tenant, database }) => ({
      body: presentCashier(await cashiers.switchCashier(database, tenant, body)),
    }),
  }),
  defineRoute({
    method: "delete",
    path: "/v1/session/cashier",
    operationId: "switchCashierOut",
    summary: "Nobody switched in on this till session (the PIN screen)",
    tags: ["Cashiers"],
    auth: "session",
    responses: { 200: { description: "Done.", schema: cashierListSchema.pick({}) } },
    handler: async ({ tenant, database }) => {
      await cashiers.switchOut(database, tenant);
      return { body: {} };
    },
  }),
];
