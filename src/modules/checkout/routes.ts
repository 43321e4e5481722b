import { z } from "zod";
import { ApiError } from "../../platform/errors.ts";
import { type AnyRoute, defineRoute } from "../../platform/http/route.ts";
import { merchants } from "../merchants/index.ts";
import { cancelPayment, type PaymentRow, paymentStatuses, payments } from "../payments/index.ts";
import { checkoutPage, notFoundPage } from "./page.ts";

/**
 * The public side of a payment, reached by its id alone (the id carries 142 random bits: it is the
 * capability). Nothing here reveals more than the payer needs.
 */
const checkoutParams = z.strictObject({ id: z.string().max(100) });
const checkoutStatusSchema = z
  .object({
    status: z.enum(paymentStatuses),
    expires_at: z.iso.datetime(),
    success_url: z.string().nullable(),
    cancel_url: z.string().nullable(),
  })
  .meta({ id: "CheckoutStatus" });
const mockpayBody = z.strictObject({ outcome: z.literal("expired").optional() }).optional();

function presentStatus(payment: PaymentRow) {
  return {
    status: payment.status,
    expires_at: payment.expires_at.toISOString(),
    success_url: payment.success_url,
    cancel_url: payment.cancel_url,
  };
}

/**
 * The page is opened by pos.js as a popup from merchants' origins, and reports back through
 * window.opener: the opener relationship must survive (helmet's default COOP would sever it).
 */
const PAGE_HEADERS = {
  "Cross-Origin-Opener-Policy": "unsafe-none",
  "Cache-Control": "no-store",
  "Content-Security-Policy":
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; " +
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'; object-src 'none'",
};

/**
 * The hosted checkout page and the calls it makes.
 * Longer than 70 lines as a list of route declarations (a container, docs/conventions.md); each of its
 * handlers keeps to the rule.
 */
export function checkoutRoutes(wiring: payments.PaymentWiring): AnyRoute[] {
  return [
    defineRoute({
      method: "get",
      path: "/checkout/:id",
      operationId: "getCheckoutPage",
      summary: "The hosted checkout page (HTML): code, QR, deep link, USSD, countdown; follows the payment",
      tags: ["Checkout"],
      auth: "none",
      request: { params: checkoutParams },
      responses: { 200: { description: "The page.", contentType: "text/html" } },
      handler: async ({ params, config, database }) => {
        let payment: PaymentRow;
        try {
          payment = await payments.getPaymentById(database, params.id);
        } catch (error) {
          if (error instanceof ApiError && error.status === 404) {
            return {
              status: 404,
              contentType: "text/html; charset=utf-8",
              payload: notFoundPage(),
              headers: PAGE_HEADERS,
            };
          }
          throw error;
        }
        const merchant = await merchants.getMerchant(database, payment.merchant_id);
        return {
          contentType: "text/html; charset=utf-8",
          headers: PAGE_HEADERS,
          payload: checkoutPage({
            payment,
            merchantName: merchant.name,
            deepLink: payments.deepLinkOf(config, payment.code),
            qrPngDataUrl: payments.qrPngDataUrlOf(config, payment.code),
            ussd: payments.ussdOf(config, payment),
          }),
        };
      },
    }),
    defineRoute({
      method: "get",
      path: "/checkout/:id/status",
      operationId: "getCheckoutStatus",
      summary: "The payment's status for the hosted checkout page (refreshed from the gateway, throttled)",
      tags: ["Checkout"],
      auth: "none",
      request: { params: checkoutParams },
      responses: { 200: { description: "The status.", schema: checkoutStatusSchema } },
      handler: async ({ params, config, database, logger }) => {
        const payment = await payments.getPaymentById(database, params.id);
        return { body: presentStatus(await payments.refreshPayment({ config, database, logger, ...wiring }, payment)) };
      },
    }),
    defineRoute({
      method: "post",
      path: "/checkout/:id/cancel",
      operationId: "cancelCheckout",
      summary: "The payer cancels: the payment is cancelled (its code voided where the gateway can); idempotent",
      tags: ["Checkout"],
      auth: "none",
      request: { params: checkoutParams },
      responses: { 200: { description: "The new status.", schema: checkoutStatusSchema } },
      handler: async ({ params, config, database, logger }) => {
        const payment = await payments.getPaymentById(database, params.id);
        return { body: presentStatus(await cancelPayment({ config, database, logger, ...wiring }, payment)) };
      },
    }),
    defineRoute({
      method: "post",
      path: "/checkout/:id/mockpay",
      operationId: "mockpayCheckout",
      summary: "Test payments only: settle now, or expire with {outcome: 'expired'}",
      tags: ["Checkout"],
      auth: "none",
      request: { params: checkoutParams, body: mockpayBody },
      responses: { 200: { description: "The new status.", schema: checkoutStatusSchema } },
      handler: async ({ params, body, database }) => ({
        body: presentStatus(
          await payments.finishTestPayment(
            { database, paymentHooks: wiring.paymentHooks },
            params.id,
            body?.outcome === "expired" ? "expired" : "paid",
          ),
        ),
      }),
    }),
  ];
}
