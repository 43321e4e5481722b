import type { Config } from "../../platform/config.ts";
import { type AnyRoute, defineRoute } from "../../platform/http/route.ts";
import { currentTraceparent } from "../../platform/telemetry/trace-context.ts";
import { paymentsTotal } from "./metrics.ts";
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
    qr_png_data_url: payment.qr_png_data_url,
    deep_link: payments.deepLinkOf(config, payment.code),
    ussd: payments.ussdOf(config, payment),
    checkout_url: `${config.publicBaseUrl}/checkout/${payment.id}`,
    expires_at: payment.expires_at.toISOString(),
    paid_at: payment.paid_at?.toISOString() ?? null,
    failure_reason: payment.failure_reason,
    success_url: payment.success_url,
    cancel_url: payment.cancel_url,
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
      auth: "either",
      idempotent: true,
      request: { body: createPaymentBody },
      responses: { 201: { description: "The pending payment.", schema: paymentSchema } },
      handler: async ({ body, tenant, config, database, logger, commitWithResponse }) => {
        // Row (with its first poll time) and stored response in one statement, shared with the
        // creations of the same moment: the hottest write path, in one round trip, enqueuing no job.
        writePayment ??= createPaymentWriter(database);
        const write = writePayment;
        const traceparent = currentTraceparent();
        const reply = await payments.createPendingPayment(
          { config, database, logger, ...wiring },
          tenant,
          body,
          (created) =>
            commitWithResponse({ status: 201, body: presentPayment(config, created) }, (response) =>
              write({ payment: created, response, firstPollAt: payments.firstPollAtOf(config, created), traceparent }),
            ),
        );
        // Counted once committed (a replayed response does not come through here).
        paymentsTotal.inc({ event: "created", livemode: String(tenant.livemode), currency: body.currency });
        return reply;
      },
    }),
    defineRoute({
      method: "get",
      path: "/v1/payments/:id",
      operationId: "getPayment",
      summary: "A payment; while pending, refreshed from the gateway (throttled by the service: poll freely)",
      tags: ["Payments"],
      auth: "either",
      request: { params: paymentIdParams },
      responses: { 200: { description: "The payment.", schema: paymentSchema } },
      handler: async ({ params, tenant, config, database, logger }) => {
        const payment = await payments.getPayment(database, tenant, params.id);
        return {
          body: presentPayment(config, await payments.refreshPayment({ config, database, logger, ...wiring }, payment)),
        };
      },
    }),
    defineRoute({
      method: "get",
      path: "/v1/payments",
      operationId: "listPayments",
      summary: "The key's world's payments, newest first",
      tags: ["Payments"],
      auth: "either",
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
