import { requireOwnTill } from "../../platform/http/access.ts";
import { errorEnvelopeSchema, tillMismatchResponse } from "../../platform/http/openapi.ts";
import { type AnyRoute, type DerivedOnReplay, defineRoute } from "../../platform/http/route.ts";
import { qrPngDataUrlOf } from "../payments/index.ts";
import { presentReturn, presentSale, presentSalesReport, presentSaleView } from "./presenters.ts";
import { listSales, readSale, type SaleView } from "./reading.ts";
import { salesReport } from "./report.ts";
import { createReturnBody } from "./return-schemas.ts";
import * as returns from "./returns.ts";
import { createSale } from "./ring-up.ts";
import { cancelSale } from "./sale-cancel.ts";
import {
  createSaleBody,
  getSaleQuery,
  listSalesQuery,
  saleIdParams,
  salePageSchema,
  saleReturnResultSchema,
  saleSchema,
  salesReportQuery,
  salesReportSchema,
} from "./schemas.ts";
import { addTender } from "./split-sale.ts";
import { addTenderBody } from "./tender-schemas.ts";
import type { SaleWiring } from "./writers.ts";

/** A wallet or split sale's stored answer holds its payment without the QR image, drawn again on replay. */
const paymentQrOnReplay: DerivedOnReplay = {
  in: "payment",
  field: "qr_png_data_url",
  derive: (payment, config) => qrPngDataUrlOf(config, String(payment.code)),
};

export function saleRoutes(wiring: SaleWiring): AnyRoute[] {
  const { saleWriters, ...paymentWiring } = wiring;
  return [
    defineRoute({
      method: "post",
      path: "/v1/sales",
      operationId: "createSale",
      summary: "Ring up a sale: cash completes at once; wallet is pending with an embedded payment",
      tags: ["Sales"],
      auth: { keys: "both", owner: "session", till: "cashier" },
      idempotent: true,
      derivedOnReplay: paymentQrOnReplay,
      request: { body: createSaleBody },
      responses: {
        201: {
          description:
            "The sale (cash: completed; wallet: pending, with its payment). Also the answer to a request naming a " +
            "client_sale_id already recorded with the same body: that sale as it now stands, nothing recorded " +
            "again, with the header Idempotent-Replayed: true (as for a replayed Idempotency-Key).",
          schema: saleSchema,
        },
        400: {
          description:
            "`parameter_invalid`, `parameter_missing`; `invalid_amount`; `invalid_discount`: a discount the basket " +
            "cannot take; `tender_short`: cash tenders that do not cover the sale (its message says what is still due).",
          schema: errorEnvelopeSchema,
        },
        403: tillMismatchResponse("naming another till's drawer as till_id"),
        404: { description: "`product_not_found`.", schema: errorEnvelopeSchema },
        409: {
          description:
            "`shift_not_open`: cash on a till without an open shift; " +
            "`exchange_rate_missing`: tenders or change in another currency with no rate for the pair; " +
            "`client_sale_id_mismatch`: the client_sale_id was recorded with a different request; " +
            "`idempotency_mismatch`, `idempotency_in_flight`.",
          schema: errorEnvelopeSchema,
        },
        502: { description: "`gateway_error`, `code_generation_failed` (wallet).", schema: errorEnvelopeSchema },
      },
      handler: async ({ body, tenant, config, database, logger, answeredWrite }) => {
        // A till sells into its own drawer only.
        requireOwnTill(tenant.session, body.till_id);
        // A hot path: the reader and the sale writers share their statements with the sales of the moment.
        const dependencies = { config, database, logger, ...paymentWiring, ...saleWriters(database) };
        const created = answeredWrite((view: SaleView) => ({ status: 201, body: presentSaleView(config, view) }));
        const outcome = await createSale(dependencies, tenant, body, created.commit);
        return outcome.kind === "created"
          ? created.reply()
          : // The sale its client_sale_id already made, answered as a replayed Idempotency-Key is.
            { status: 201, headers: { "Idempotent-Replayed": "true" }, body: presentSaleView(config, outcome.view) };
      },
    }),
    defineRoute({
      method: "post",
      path: "/v1/sales/:id/tenders",
      operationId: "addSaleTender",
      summary: "Add a tender to a pending split sale: cash may complete it; a wallet tender gets its payment",
      tags: ["Sales"],
      auth: { keys: "both", owner: "session", till: "cashier" },
      idempotent: true,
      derivedOnReplay: paymentQrOnReplay,
      request: { params: saleIdParams, body: addTenderBody },
      responses: {
        201: {
          description:
            "The sale as it now stands, with the tender added (a wallet tender's payment embedded as `payment`).",
          schema: saleSchema,
        },
        400: {
          description:
            "`parameter_invalid` (a wallet paying more than is due, a tender when nothing is due, a rate of " +
            "another pair), `parameter_missing` (a tender in another currency without exchange_rate_id).",
          schema: errorEnvelopeSchema,
        },
        403: tillMismatchResponse("adding to another till's sale, or naming another till's drawer as till_id"),
        404: { description: "`resource_missing`.", schema: errorEnvelopeSchema },
        409: {
          description:
            "`sale_not_pending`: not a pending split sale; `shift_not_open`; `exchange_rate_missing`: no rate for the pair.",
          schema: errorEnvelopeSchema,
        },
        502: { description: "`gateway_error`, `code_generation_failed` (wallet).", schema: errorEnvelopeSchema },
      },
      handler: async ({ params, body, tenant, config, database, logger, answeredWrite }) => {
        requireOwnTill(tenant.session, body.till_id);
        const added = answeredWrite((view: SaleView) => ({ status: 201, body: presentSaleView(config, view) }));
        await addTender(
          { config, database, logger, ...paymentWiring },
          tenant,
          { saleId: params.id, input: body },
          added.transaction,
        );
        return added.reply();
      },
    }),
    defineRoute({
      method: "post",
      path: "/v1/sales/:id/returns",
      operationId: "createSaleReturn",
      summary: "Take back some or all lines of a completed sale: stock comes back, the refund is paid in cash",
      tags: ["Sales"],
      auth: { keys: "both", owner: "session", till: "manager" },
      idempotent: true,
      request: { params: saleIdParams, body: createReturnBody },
      responses: {
        201: {
          description:
            "The return and the sale as it now stands (`sale.returned` is emitted). The refund is cash, also " +
            "for a wallet sale (a refund to the payer's wallet is not offered yet).",
          schema: saleReturnResultSchema,
        },
        400: { description: "`parameter_invalid`: a line the sale does not have.", schema: errorEnvelopeSchema },
        403: tillMismatchResponse("naming another till's drawer as till_id"),
        404: { description: "`resource_missing`.", schema: errorEnvelopeSchema },
        409: {
          description:
            "`return_exceeds_sale`: more units than were sold (less earlier returns); `sale_not_completed`; " +
            "`shift_not_open`: till_id has no open shift.",
          schema: errorEnvelopeSchema,
        },
      },
      handler: async ({ params, body, tenant, config, answeredWrite }) => {
        const made = answeredWrite((returned: returns.ReturnMade) => ({
          status: 201,
          body: {
            sale_return: presentReturn(config, returned.saleReturn),
            sale: presentSale(config, returned.sale, null, returned.returns, returned.tenders),
          },
        }));
        const world = {
          merchantId: tenant.merchantId,
          livemode: tenant.livemode,
          actor: tenant.actor,
          session: tenant.session,
        };
        await returns.createReturn(made.transaction, world, params.id, body);
        return made.reply();
      },
    }),
    defineRoute({
      method: "get",
      path: "/v1/sales/report",
      operationId: "getSalesReport",
      summary: "Takings of completed sales: totals, by tender, best sellers (default: today, merchant's time zone)",
      tags: ["Sales"],
      auth: { keys: "both", owner: "session", till: "till" },
      request: { query: salesReportQuery },
      responses: { 200: { description: "The sales report.", schema: salesReportSchema } },
      handler: async ({ query, tenant, database }) => ({
        body: presentSalesReport(
          await salesReport(database, {
            merchantId: tenant.merchantId,
            livemode: tenant.livemode,
            timezone: tenant.merchant.timezone,
            from: query.from,
            to: query.to,
            top: query.top,
            cashierId: query.cashier_id,
          }),
          tenant.livemode,
        ),
      }),
    }),
    defineRoute({
      method: "post",
      path: "/v1/sales/:id/cancel",
      operationId: "cancelSale",
      summary:
        "Cancel a pending wallet or split sale: its wallet payments cancelled (codes voided where the gateway can), " +
        "what a split sale's tenders paid given back in cash from its till's drawer; idempotent",
      tags: ["Sales"],
      auth: { keys: "both", owner: "session", till: "cashier" },
      request: { params: saleIdParams },
      responses: {
        200: { description: "The cancelled sale.", schema: saleSchema },
        403: tillMismatchResponse("cancelling another till's sale"),
        404: { description: "`resource_missing`.", schema: errorEnvelopeSchema },
        409: {
          description:
            "`sale_not_pending`: completed, or a cash sale; `shift_not_open`: a split sale with paid tenders whose " +
            "till has no open shift to give them back from.",
          schema: errorEnvelopeSchema,
        },
      },
      handler: async ({ params, tenant, config, database, logger }) => {
        const cancelled = await cancelSale({ config, database, logger, ...paymentWiring }, tenant, params.id);
        return { body: presentSaleView(config, cancelled) };
      },
    }),
    defineRoute({
      method: "get",
      path: "/v1/sales/:id",
      operationId: "getSale",
      summary:
        "A sale; a pending wallet sale refreshes its payment and is finalised when it has ended; wait_seconds waits for that end",
      tags: ["Sales"],
      auth: { keys: "both", owner: "session", till: "till" },
      request: { params: saleIdParams, query: getSaleQuery },
      responses: {
        200: { description: "The sale.", schema: saleSchema },
        404: { description: "`resource_missing`.", schema: errorEnvelopeSchema },
      },
      handler: async ({ params, query, tenant, config, database, logger, aborted }) => ({
        body: presentSaleView(
          config,
          await readSale({ config, database, logger, ...paymentWiring }, tenant, params.id, {
            seconds: query.wait_seconds,
            signal: aborted,
          }),
        ),
      }),
    }),
    defineRoute({
      method: "get",
      path: "/v1/sales",
      operationId: "listSales",
      summary: "The key's world's sales, newest first (without embedded payments)",
      tags: ["Sales"],
      auth: { keys: "both", owner: "session", till: "till" },
      request: { query: listSalesQuery },
      responses: { 200: { description: "A page of sales.", schema: salePageSchema } },
      handler: async ({ query, tenant, config, database }) => {
        const page = await listSales(database, {
          merchantId: tenant.merchantId,
          livemode: tenant.livemode,
          status: query.status,
          from: query.from,
          to: query.to,
          cashierId: query.cashier_id,
          receiptToken: query.receipt_token,
          limit: query.limit,
          cursor: query.cursor,
        });
        return { body: { ...page, data: page.data.map((view) => presentSaleView(config, view)) } };
      },
    }),
  ];
}
