import { errorEnvelopeSchema } from "../../platform/http/openapi.ts";
import { type AnyRoute, defineRoute } from "../../platform/http/route.ts";
import { PRODUCT_CSV_COLUMNS } from "./csv-columns.ts";
import { productsCsv } from "./csv-export.ts";
import { applyImport, previewImport } from "./import-service.ts";
import { presentProduct } from "./present.ts";
import {
  createProductBody,
  IMPORT_BODY_BYTES_MAX,
  importCsvBody,
  importPreviewSchema,
  importResultSchema,
  listProductsQuery,
  productIdParams,
  productPageSchema,
  productSchema,
  updateProductBody,
} from "./schemas.ts";
import * as catalog from "./service.ts";

/** The catalog's routes; `recordOpenings` are the stock module's opening moves (see `RecordOpenings`). */
export const catalogRoutes = (dependencies: { recordOpenings: catalog.RecordOpenings }): AnyRoute[] => [
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
      const product = await catalog.createProduct(database, dependencies.recordOpenings, {
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
      body: presentProduct(await catalog.updateProduct(database, { tenant, productId: params.id, input: body })),
    }),
  }),
  ...csvRoutes(dependencies),
];

// Bulk work on the catalog is the owner's (or the merchant's server's): not a till's.
const CATALOG_ADMIN_ACCESS = { keys: "both", owner: "session" } as const;
const csvBody = { mediaType: "text/csv", limitBytes: IMPORT_BODY_BYTES_MAX };

const csvRoutes = (dependencies: { recordOpenings: catalog.RecordOpenings }): AnyRoute[] => [
  defineRoute({
    method: "get",
    path: "/v1/products.csv",
    operationId: "exportProducts",
    summary: `Every product, active and archived, as CSV (columns: ${PRODUCT_CSV_COLUMNS.join(", ")})`,
    tags: ["Catalog"],
    auth: CATALOG_ADMIN_ACCESS,
    responses: { 200: { description: "The CSV file.", contentType: "text/csv" } },
    handler: async ({ tenant, database }) => ({
      contentType: "text/csv; charset=utf-8",
      headers: { "Content-Disposition": 'attachment; filename="products.csv"', "Cache-Control": "no-store" },
      payload: productsCsv(database, tenant.merchantId),
    }),
  }),
  defineRoute({
    method: "post",
    path: "/v1/products/import/preview",
    operationId: "previewProductImport",
    summary: "Dry run of a CSV import: what it would create and update, and every row's errors; writes nothing",
    tags: ["Catalog"],
    auth: CATALOG_ADMIN_ACCESS,
    textBody: csvBody,
    request: { body: importCsvBody },
    responses: { 200: { description: "The dry run.", schema: importPreviewSchema } },
    handler: async ({ body, tenant, database }) => ({
      body: {
        object: "product_import_preview",
        ...(await previewImport(database, { merchantId: tenant.merchantId, csv: body })),
      },
    }),
  }),
  defineRoute({
    method: "post",
    path: "/v1/products/import",
    operationId: "importProducts",
    summary: "Create or update products from CSV (by sku, else barcode): every row, or none when any has an error",
    tags: ["Catalog"],
    auth: CATALOG_ADMIN_ACCESS,
    idempotent: true,
    textBody: csvBody,
    request: { body: importCsvBody },
    responses: {
      200: { description: "What was written.", schema: importResultSchema },
      400: { description: "`import_invalid`: a row has an error; nothing was written.", schema: errorEnvelopeSchema },
      409: { description: "`barcode_taken`: a barcode was taken meanwhile.", schema: errorEnvelopeSchema },
    },
    handler: async ({ body, tenant, answeredWrite }) => {
      const made = answeredWrite((summary: Awaited<ReturnType<typeof applyImport>>) => ({
        body: { object: "product_import", ...summary },
      }));
      await made.transaction((writer) =>
        applyImport(writer, dependencies.recordOpenings, {
          merchantId: tenant.merchantId,
          actor: tenant.actor,
          csv: body,
        }),
      );
      return made.reply();
    },
  }),
];
