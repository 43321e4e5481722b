import type { Config } from "../../platform/config.ts";
import { errorEnvelopeSchema } from "../../platform/http/openapi.ts";
import { type AnyRoute, defineRoute } from "../../platform/http/route.ts";
import { cancelPayment, refundLatePayment } from "./cancellation.ts";
import { createPaymentWriter, type PaymentWriter } from "./payment-writer.ts";
import {
  createPaymentBody,
  listPaymentsQuery,
  type PaymentRow,
  paymentIdParams,
  paymentPageSchema,
  paymentSchema,
} from "./schemas.ts";
import * as payments from "./service.ts";

export function presentPayment(config: Config, payment: PaymentRow) {
  return {
    id: payment.id,
    object: "payment" as const,
    livemode: payment.livemode,
    status: payment.status,
    amount_cents: payment.amount_cents,
    currency: payment.currency,
    fee_cents: payment.fee_cents,
    narration: payment.narration,
    merchant_ref: payment.merchant_ref,
    metadata: payment.metadata,
    reference: payment.reference,
    code: payment.code,
    qr_png_data_url: payments.qrPngDataUrlOf(config, payment.code),
    deep_link: payments.deepLinkOf(config, payment.code),
    ussd: payments.ussdOf(config, payment),
    checkout_url: `${config.publicBaseUrl}/checkout/${payment.id}`,
    expires_at: payment.expires_at.toISOString(),
    paid_at: payment.paid_at?.toISOString() ?? null,
    failure_reason: payment.failure_reason,
    success_url: payment.success_url,
    cancel_url: payment.cancel_url,
    cancelled_at: payment.cancelled_at?.toISOString() ?? null,
    late_payment:
      payment.late_paid_at === null || payment.late_refund === null
        ? null
        : {
            paid_at: payment.late_paid_at.toISOString(),
            payer_msisdn: payment.payer_msisdn,
            refund: payment.late_refund,
            refund_reference: payment.late_refund_reference,
          },
    created_at: payment.created_at.toISOString(),
  };
}

export function paymentRoutes(wiring: payments.PaymentWiring): AnyRoute[] {
  // One per app (its database is fixed; the first creation brings it), so that the concurrent
  // creations of the process share their batches.
  let writePayment: PaymentWriter | undefined;
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
      handler: ({ body, tenant, config, database, logger, commitWithResponse }) => {
        // The hottest write path: the writer shares its statements with the creations of the moment.
        writePayment ??= createPaymentWriter(database);
        return payments.createPayment({ config, database, logger, ...wiring, write: writePayment }, tenant, body, {
          present: (created) => ({ status: 201, body: presentPayment(config, created) }),
          commitWithResponse,
        });
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
          await payments.getFreshPayment({ config, database, logger, ...wiring }, tenant, params.id),
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
        const dependencies = { config, database, logger, ...wiring };
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
        const dependencies = { config, database, logger, ...wiring };
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
