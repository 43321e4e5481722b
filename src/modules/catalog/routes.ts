import { errorEnvelopeSchema } from "../../platform/http/openapi.ts";
import { type AnyRoute, defineRoute } from "../../platform/http/route.ts";
import { recordApproval, requireManager } from "../cashiers/index.ts";
import { presentProduct } from "./present.ts";
import {
  createProductBody,
  listProductsQuery,
  productIdParams,
  productPageSchema,
  productSchema,
  updateProductBody,
} from "./schemas.ts";
import * as catalog from "./service.ts";

/** The catalog's routes; `recordOpening` is the stock module's opening move (see `RecordOpening`). */
export const catalogRoutes = (dependencies: { recordOpening: catalog.RecordOpening }): AnyRoute[] => [
  defineRoute({
    method: "post",
    path: "/v1/products",
    operationId: "createProduct",
    summary: "Create a product (shared by the test and live worlds); an opening stock_qty is journaled",
    tags: ["Catalog"],
    auth: { keys: "both", owner: "session", till: "cashier" },
    request: { body: createProductBody },
    responses: {
      201: { description: "The product.", schema: productSchema },
      409: {
        description: "`barcode_taken`: another of the merchant's products has this barcode.",
        schema: errorEnvelopeSchema,
      },
    },
    handler: async ({ body, tenant, database }) => {
      const product = await catalog.createProduct(database, dependencies.recordOpening, {
        merchantId: tenant.merchantId,
        actor: tenant.actor,
        input: body,
      });
      return { status: 201, body: presentProduct(product) };
    },
  }),
  defineRoute({
    method: "get",
    path: "/v1/products",
    operationId: "listProducts",
    summary: "Search and list products in name order (q: name, sku or barcode substring; barcode: exact)",
    tags: ["Catalog"],
    auth: { keys: "both", owner: "session", till: "till" },
    request: { query: listProductsQuery },
    responses: { 200: { description: "A page of products.", schema: productPageSchema } },
    handler: async ({ query, tenant, database }) => {
      const page = await catalog.listProducts(database, {
        merchantId: tenant.merchantId,
        q: query.q,
        barcode: query.barcode,
        category: query.category,
        active: query.active,
        updatedSince: query.updated_since,
        limit: query.limit,
        cursor: query.cursor,
      });
      return { body: { ...page, data: page.data.map(presentProduct) } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/v1/products/:id",
    operationId: "getProduct",
    summary: "A product, active or not",
    tags: ["Catalog"],
    auth: { keys: "both", owner: "session", till: "till" },
    request: { params: productIdParams },
    responses: {
      200: { description: "The product.", schema: productSchema },
      404: { description: "`resource_missing`.", schema: errorEnvelopeSchema },
    },
    handler: async ({ params, tenant, database }) => ({
      body: presentProduct(await catalog.getProduct(database, tenant.merchantId, params.id)),
    }),
  }),
  defineRoute({
    method: "patch",
    path: "/v1/products/:id",
    operationId: "updateProduct",
    summary: "Change catalog fields; active false soft-deletes, true restores (on-hand changes via /v1/stock)",
    tags: ["Catalog"],
    auth: { keys: "both", owner: "session", till: "manager" },
    request: { params: productIdParams, body: updateProductBody },
    responses: {
      200: { description: "The product.", schema: productSchema },
      404: { description: "`resource_missing`.", schema: errorEnvelopeSchema },
      409: { description: "`barcode_taken`.", schema: errorEnvelopeSchema },
    },
    handler: async ({ params, body, tenant, database }) => ({
      body: presentProduct(
        // At a till, a manager's approval for a product change is used up with the change, not before it.
        await database.transaction(async (transaction) => {
          const approval = await requireManager(transaction, tenant, "product_update");
          const product = await catalog.updateProduct(transaction, {
            merchantId: tenant.merchantId,
            productId: params.id,
            input: body,
          });
          await recordApproval(transaction, tenant, approval, { type: "product", id: product.id });
          return product;
        }),
      ),
    }),
  }),
];
