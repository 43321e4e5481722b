import type { WalletGateways } from "../../gateway/wallet-gateway.ts";
import { type AnyRoute, defineRoute } from "../../platform/http/route.ts";
import { instantTransfer } from "../money-out/index.ts";
import { presentCatalogue } from "./catalogue.ts";
import {
  createUtilityPaymentBody,
  idParams,
  type UtilityPaymentRow,
  utilityPaymentSchema,
  utilityProviderListSchema,
} from "./schemas.ts";
import * as utilities from "./service.ts";

export function presentUtilityPayment(payment: UtilityPaymentRow) {
  const totalDebited = payment.amount_cents + payment.fee_cents;
  return {
    id: payment.id,
    object: "utility_payment" as const,
    livemode: payment.livemode,
    status: payment.status,
    provider: payment.provider,
    provider_product: payment.provider_product,
    amount_cents: payment.amount_cents,
    fee_cents: payment.fee_cents,
    commission_cents: payment.commission_cents,
    total_debited_cents: totalDebited,
    net_cost_cents: totalDebited - payment.commission_cents,
    currency: payment.currency,
    destination_account: payment.destination_account,
    narration: payment.narration,
    additional_data: payment.additional_data,
    reference: payment.reference,
    receipt:
      payment.status === "completed" && payment.provider_reference !== null
        ? { provider_reference: payment.provider_reference, token: payment.token, details: payment.receipt ?? {} }
        : null,
    failure_reason: payment.failure_reason,
    completed_at: payment.completed_at?.toISOString() ?? null,
    created_at: payment.created_at.toISOString(),
  };
}

export function utilityRoutes(gateways: WalletGateways): AnyRoute[] {
  return [
    defineRoute({
      method: "get",
      path: "/v1/utilities/providers",
      operationId: "listUtilityProviders",
      summary: "The utility catalogue: providers, products, account formats, amounts, additional_data, fees",
      tags: ["Utilities"],
      auth: { keys: "both", owner: "session" },
      responses: { 200: { description: "Every provider.", schema: utilityProviderListSchema } },
      handler: async () => ({ body: { data: presentCatalogue(), has_more: false, next_cursor: null } }),
    }),
    defineRoute({
      method: "post",
      path: "/v1/utilities/payments",
      operationId: "createUtilityPayment",
      summary: "Pay a utility from the balance (token, airtime, subscription, bill); the commission is credited",
      tags: ["Utilities"],
      auth: { keys: "both", owner: "step_up" },
      idempotent: true,
      request: { body: createUtilityPaymentBody },
      responses: { 201: { description: "The completed payment with its receipt.", schema: utilityPaymentSchema } },
      handler: async ({ body, tenant, config, database, logger, idempotencyKey, answeredWrite }) => {
        const dependencies = { config, database, logger, gateways };
        const priced = utilities.price(body);
        const key = instantTransfer.requireIdempotencyKey(idempotencyKey);
        const reserved = await utilities.reserveUtilityPayment(dependencies, tenant, body, priced, key);
        const made = answeredWrite((row: UtilityPaymentRow) => ({ status: 201, body: presentUtilityPayment(row) }));
        const answer = await instantTransfer.answerStep(await utilities.proceedUtilityPayment(dependencies, reserved), {
          transaction: made.transaction,
          complete: utilities.completeUtilityPayment,
          fail: (row, reason) => utilities.failUtilityPayment(database, row, reason),
          reload: (row) => utilities.reloadUtilityPayment(database, row),
          failed: utilities.utilityPaymentFailedError,
        });
        return answer.kind === "stored" ? made.reply() : { status: 201, body: presentUtilityPayment(answer.row) };
      },
    }),
    defineRoute({
      method: "get",
      path: "/v1/utilities/payments/:id",
      operationId: "getUtilityPayment",
      summary: "A utility payment and its receipt",
      tags: ["Utilities"],
      auth: { keys: "both", owner: "session" },
      request: { params: idParams },
      responses: { 200: { description: "The utility payment.", schema: utilityPaymentSchema } },
      handler: async ({ params, tenant, database }) => ({
        body: presentUtilityPayment(await utilities.getUtilityPayment(database, tenant, params.id)),
      }),
    }),
  ];
}
