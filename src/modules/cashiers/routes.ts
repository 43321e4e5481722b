import { errorEnvelopeSchema } from "../../platform/http/openapi.ts";
import { type AnyRoute, defineRoute } from "../../platform/http/route.ts";
import { approveAsManager } from "./approvals.ts";
import {
  type CashierRow,
  cashierIdParams,
  cashierListSchema,
  cashierSchema,
  changePinBody,
  createCashierBody,
  managerApprovalBody,
  managerApprovalSchema,
  switchCashierBody,
  updateCashierBody,
} from "./schemas.ts";
import * as cashiers from "./service.ts";

export function presentCashier(cashier: CashierRow) {
  return {
    id: cashier.id,
    object: "cashier" as const,
    name: cashier.name,
    role: cashier.role,
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
  description: "`principal_not_allowed`: only the owner's dashboard session.",
  schema: errorEnvelopeSchema,
};
const notFoundResponse = { description: "`resource_missing`.", schema: errorEnvelopeSchema };
const pinRefusals = {
  401: { description: "`invalid_pin` (counted towards the lock before it is checked).", schema: errorEnvelopeSchema },
  403: {
    description: "`cashier_locked` (also once the attempts are spent), `cashier_disabled`, `principal_not_allowed`.",
    schema: errorEnvelopeSchema,
  },
};

export const cashierRoutes: AnyRoute[] = [
  defineRoute({
    method: "post",
    path: "/v1/cashiers",
    operationId: "createCashier",
    summary: "Create a cashier (role cashier or manager) with a 4–6 digit PIN (stored hashed; dashboard session only)",
    tags: ["Cashiers"],
    auth: { owner: "session" },
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
    auth: { owner: "session", till: "till" },
    responses: { 200: { description: "All cashiers, oldest first.", schema: cashierListSchema } },
    handler: async ({ tenant, database }) => ({
      body: { data: (await cashiers.listCashiers(database, tenant)).map(presentCashier) },
    }),
  }),
  defineRoute({
    method: "patch",
    path: "/v1/cashiers/:id",
    operationId: "updateCashier",
    summary: "Rename a cashier or change their role (dashboard session only)",
    tags: ["Cashiers"],
    auth: { owner: "session" },
    request: { params: cashierIdParams, body: updateCashierBody },
    responses: { 200: { description: "The cashier.", schema: cashierSchema }, 403: ownerOnly, 404: notFoundResponse },
    handler: async ({ params, body, tenant, database }) => ({
      body: presentCashier(await cashiers.updateCashier(database, tenant, params.id, body)),
    }),
  }),
  defineRoute({
    method: "post",
    path: "/v1/cashiers/:id/disable",
    operationId: "disableCashier",
    summary: "Disable a cashier: no more switching in, and a till it is switched in on stops acting as it at once",
    tags: ["Cashiers"],
    auth: { owner: "session" },
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
    auth: { owner: "session" },
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
    auth: { till: "till" },
    request: { body: switchCashierBody },
    responses: {
      200: { description: "The cashier now switched in.", schema: cashierSchema },
      401: { description: "`invalid_pin` (counted towards the lock).", schema: errorEnvelopeSchema },
      403: {
        description: "`cashier_locked`, `cashier_disabled`, `principal_not_allowed` (only a till).",
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
    auth: { till: "till" },
    responses: { 200: { description: "Done.", schema: cashierListSchema.pick({}) } },
    handler: async ({ tenant, database }) => {
      await cashiers.switchOut(database, tenant);
      return { body: {} };
    },
  }),
  defineRoute({
    method: "post",
    path: "/v1/session/cashier/pin",
    operationId: "changeOwnPin",
    summary: "The cashier switched in on this till changes their own PIN (the current PIN is checked first)",
    tags: ["Cashiers"],
    auth: { till: "till" },
    request: { body: changePinBody },
    responses: {
      200: { description: "The cashier (never its PIN).", schema: cashierSchema },
      ...pinRefusals,
      403: {
        description: "`cashier_required` (nobody switched in), `cashier_locked`, `cashier_disabled`.",
        schema: errorEnvelopeSchema,
      },
    },
    handler: async ({ body, tenant, database }) => ({
      body: presentCashier(await cashiers.changeOwnPin(database, tenant, body)),
    }),
  }),
  defineRoute({
    method: "post",
    path: "/v1/session/manager_approvals",
    operationId: "approveAsManager",
    summary:
      "A manager's PIN at this till approves one request of an action (return, cash pay-out, drawer close with a " +
      "difference, product change): send the token in Pos-Manager-Approval within 120 s",
    tags: ["Cashiers"],
    auth: { till: "till" },
    request: { body: managerApprovalBody },
    responses: {
      201: { description: "The approval and its token (shown once, stored hashed).", schema: managerApprovalSchema },
      ...pinRefusals,
      403: {
        description: "`not_a_manager`, `cashier_locked`, `cashier_disabled`, `principal_not_allowed`.",
        schema: errorEnvelopeSchema,
      },
      404: notFoundResponse,
    },
    handler: async ({ body, tenant, database }) => ({
      status: 201,
      body: await approveAsManager(database, tenant, body),
    }),
  }),
];
