import type { Database } from "../../platform/db/pool.ts";
import { type AnyRoute, defineRoute } from "../../platform/http/route.ts";
import type { PayoutWriter } from "./batch-writers.ts";
import { getPayout, getPayoutById, listPayouts } from "./reading.ts";
import { requestPayout } from "./request.ts";
import { reversePayout } from "./reversal.ts";
import {
  adminPayoutSchema,
  createPayoutBody,
  listPayoutsQuery,
  type PayoutRow,
  payoutIdParams,
  payoutPageSchema,
  payoutSchema,
  reversePayoutBody,
} from "./schemas.ts";

export function presentPayout(payout: PayoutRow) {
  return {
    id: payout.id,
    object: "payout" as const,
    livemode: payout.livemode,
    status: payout.status,
    amount_cents: payout.amount_cents,
    currency: payout.currency,
    destination_account: payout.destination_account,
    destination_name: payout.destination_name,
    reference: payout.reference,
    failure_reason: payout.failure_reason,
    submitted_at: payout.submitted_at?.toISOString() ?? null,
    confirmed_at: payout.confirmed_at?.toISOString() ?? null,
    failed_at: payout.failed_at?.toISOString() ?? null,
    reversed_at: payout.reversed_at?.toISOString() ?? null,
    created_at: payout.created_at.toISOString(),
  };
}

export function presentAdminPayout(payout: PayoutRow) {
  return { ...presentPayout(payout), merchant_id: payout.merchant_id, reversal_reason: payout.reversal_reason };
}

/** What the routes take from the wiring: the process's payout writer on the request's database. */
export type PayoutRouteWiring = { payoutWriter: (database: Database) => PayoutWriter };

/** The payout-processor calls the gateway; the routes only record requests and read payouts. */
export function payoutRoutes({ payoutWriter }: PayoutRouteWiring): AnyRoute[] {
  return [
    defineRoute({
      method: "post",
      path: "/v1/payouts",
      operationId: "createPayout",
      summary: "Pay out to the merchant's verified wallet: debited now, submitted and confirmed by the processor",
      tags: ["Payouts"],
      auth: { keys: "both", owner: "step_up" },
      idempotent: true,
      request: { body: createPayoutBody },
      responses: {
        201: { description: "The payout, `requested`; the amount has left the balance.", schema: payoutSchema },
        403: {
          description: "`step_up_required`: with a session, the password must have been entered in the last 5 minutes.",
        },
      },
      handler: async ({ body, tenant, database, answeredWrite }) => {
        const created = answeredWrite((payout: PayoutRow) => ({ status: 201, body: presentPayout(payout) }));
        // A hot path: the writer shares its statements with the requests of the moment.
        await requestPayout(payoutWriter(database), tenant, body, created.commit);
        return created.reply();
      },
    }),
    defineRoute({
      method: "get",
      path: "/v1/payouts/:id",
      operationId: "getPayout",
      summary: "A payout",
      tags: ["Payouts"],
      auth: { keys: "both", owner: "session" },
      request: { params: payoutIdParams },
      responses: { 200: { description: "The payout.", schema: payoutSchema } },
      handler: async ({ params, tenant, database }) => ({
        body: presentPayout(await getPayout(database, tenant, params.id)),
      }),
    }),
    defineRoute({
      method: "get",
      path: "/v1/payouts",
      operationId: "listPayouts",
      summary: "The key's world's payouts, newest first",
      tags: ["Payouts"],
      auth: { keys: "both", owner: "session" },
      request: { query: listPayoutsQuery },
      responses: { 200: { description: "A page of payouts.", schema: payoutPageSchema } },
      handler: async ({ query, tenant, database }) => {
        const page = await listPayouts(database, {
          merchantId: tenant.merchantId,
          livemode: tenant.livemode,
          status: query.status,
          from: query.from,
          to: query.to,
          limit: query.limit,
          cursor: query.cursor,
        });
        return { body: { ...page, data: page.data.map(presentPayout) } };
      },
    }),
  ];
}

export const payoutAdminRoutes: AnyRoute[] = [
  defineRoute({
    method: "get",
    path: "/admin/v1/payouts/:id",
    operationId: "adminGetPayout",
    summary: "Get any merchant's payout",
    tags: ["Operator"],
    auth: "admin",
    request: { params: payoutIdParams },
    responses: { 200: { description: "The payout.", schema: adminPayoutSchema } },
    handler: async ({ params, database }) => ({
      body: presentAdminPayout(await getPayoutById(database, params.id)),
    }),
  }),
  defineRoute({
    method: "post",
    path: "/admin/v1/payouts/:id/reverse",
    operationId: "adminReversePayout",
    summary: "Reverse a confirmed payout: its amount returns to the merchant's balance (payout.reversed)",
    tags: ["Operator"],
    auth: "admin",
    request: { params: payoutIdParams, body: reversePayoutBody },
    responses: { 200: { description: "The reversed payout.", schema: adminPayoutSchema } },
    handler: async ({ params, body, database }) => ({
      body: presentAdminPayout(await reversePayout(database, params.id, { reason: body?.reason ?? null })),
    }),
  }),
];
