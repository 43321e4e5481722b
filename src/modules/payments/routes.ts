import type { Database } from "../../platform/db/pool.ts";
import { errorEnvelopeSchema } from "../../platform/http/openapi.ts";
import { type AnyRoute, defineRoute } from "../../platform/http/route.ts";
import { cancelPayment, refundLatePayment } from "./cancellation.ts";
import type { PaymentWriter } from "./payment-writer.ts";
import { presentPayment } from "./presentation.ts";
import {
  createPaymentBody,
  listPaymentsQuery,
  type PaymentRow,
  paymentIdParams,
  paymentPageSchema,
  paymentSchema,
} from "./schemas.ts";
import * as payments from "./service.ts";

/** What the composition gives the payment routes: the payments' wiring and the process's payment writer per database. */
export type PaymentRouteWiring = payments.PaymentWiring & { paymentWriter: (database: Database) => PaymentWriter };

export function paymentRoutes(wiring: PaymentRouteWiring): AnyRoute[] {
  const { paymentWriter, ...paymentWiring } = wiring;
  return [
    defineRoute({
      method: "post",
      path: "/v1/payments",
      operationId: "createPayment",
      summary: "Create a payment: a 9-digit code, QR, deep link, USSD and hosted checkout, valid 10 minutes",
      tags: ["Payments"],
      auth: { keys: "both", owner: "session" },
      idempotent: true,
      derivedOnReplay: {
        field: "qr_png_data_url",
        derive: (payment, config) => payments.qrPngDataUrlOf(config, String(payment.code)),
      },
      request: { body: createPaymentBody },
      responses: { 201: { description: "The pending payment.", schema: paymentSchema } },
      handler: async ({ body, tenant, config, database, logger, answeredWrite }) => {
        // The hottest write path: the process's writer shares its statements with the creations of the moment.
        const dependencies = { config, database, logger, ...paymentWiring, write: paymentWriter(database) };
        const created = answeredWrite((payment: PaymentRow) => ({
          status: 201,
          body: presentPayment(config, payment),
        }));
        await payments.createPayment(dependencies, tenant, body, created.commit);
        return created.reply();
      },
    }),
    defineRoute({
      method: "get",
      path: "/v1/payments/:id",
      operationId: "getPayment",
      summary: "A payment; while pending, refreshed from the gateway (throttled by the service: poll freely)",
      tags: ["Payments"],
      auth: { keys: "both", owner: "session" },
      request: { params: paymentIdParams },
      responses: { 200: { description: "The payment.", schema: paymentSchema } },
      handler: async ({ params, tenant, config, database, logger }) => ({
        body: presentPayment(
          config,
          await payments.getFreshPayment({ config, database, logger, ...paymentWiring }, tenant, params.id),
        ),
      }),
    }),
    defineRoute({
      method: "post",
      path: "/v1/payments/:id/cancel",
      operationId: "cancelPayment",
      summary:
        "Cancel a pending payment: the gateway voids its code where it can, a wallet sale is cancelled; idempotent",
      tags: ["Payments"],
      auth: { keys: "both", owner: "session" },
      request: { params: paymentIdParams },
      responses: {
        200: { description: "The cancelled payment.", schema: paymentSchema },
        404: { description: "`resource_missing`.", schema: errorEnvelopeSchema },
        409: { description: "`payment_not_pending`: paid, expired or failed first.", schema: errorEnvelopeSchema },
      },
      handler: async ({ params, tenant, config, database, logger }) => {
        const dependencies = { config, database, logger, ...paymentWiring };
        const payment = await payments.getPayment(database, tenant, params.id);
        return { body: presentPayment(config, await cancelPayment(dependencies, payment)) };
      },
    }),
    defineRoute({
      method: "post",
      path: "/v1/payments/:id/refund_late",
      operationId: "refundLatePayment",
      summary:
        "Refund a late payment: to the payer's wallet where the gateway allows, else flagged for a cash refund; idempotent",
      tags: ["Payments"],
      auth: { keys: "both", owner: "step_up" },
      request: { params: paymentIdParams },
      responses: {
        200: { description: "The payment, its late payment's refund taken.", schema: paymentSchema },
        402: { description: "`insufficient_funds`: nothing was sent.", schema: errorEnvelopeSchema },
        404: { description: "`resource_missing`.", schema: errorEnvelopeSchema },
        409: { description: "`no_late_payment`.", schema: errorEnvelopeSchema },
      },
      handler: async ({ params, tenant, config, database, logger }) => {
        const dependencies = { config, database, logger, ...paymentWiring };
        const payment = await payments.getPayment(database, tenant, params.id);
        return { body: presentPayment(config, await refundLatePayment(dependencies, payment)) };
      },
    }),
    defineRoute({
      method: "get",
      path: "/v1/payments",
      operationId: "listPayments",
      summary: "The key's world's payments, newest first",
      tags: ["Payments"],
      auth: { keys: "both", owner: "session" },
      request: { query: listPaymentsQuery },
      responses: { 200: { description: "A page of payments.", schema: paymentPageSchema } },
      handler: async ({ query, tenant, config, database }) => {
        const page = await payments.listPayments(database, {
          merchantId: tenant.merchantId,
          livemode: tenant.livemode,
          status: query.status,
          merchantRef: query.merchant_ref,
          from: query.from,
          to: query.to,
          limit: query.limit,
          cursor: query.cursor,
        });
        return { body: { ...page, data: page.data.map((payment) => presentPayment(config, payment)) } };
      },
    }),
  ];
}
