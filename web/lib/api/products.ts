import { api } from "../session.ts";
import { type BodyOf, type CallOptions, call, type QueryOf, type Schema } from "./call.ts";

/**
 * The catalog's calls (docs/shop.md, "Products"): list, create, and import or export CSV. One product
 * by its id (read, change) is product-by-id.ts: the till's first load lists and creates, and a module
 * it imports goes into it whole (web/build.ts), so those two stay with the screens loaded on demand.
 */
export type Product = Schema<"Product">;
export type ProductQuery = QueryOf<"/v1/products", "get">;
export type NewProduct = BodyOf<"/v1/products", "post">;
/** A CSV import's dry run (every row's error, or what it would write), and what the import wrote. */
export type ImportPreview = Schema<"ProductImportPreview">;
export type ImportSummary = Schema<"ProductImport">;

export const listProducts = (query: ProductQuery, options?: CallOptions) =>
  call("get", "/v1/products", { ...options, query });

export const createProduct = (body: NewProduct, options?: CallOptions) =>
  call("post", "/v1/products", { ...options, body });

/** The catalog as a CSV file (its bytes and the name the server gave it). */
export const exportProducts = () => api.download("/v1/products.csv");

const csvBody = (csv: string) => ({ contentType: "text/csv", body: csv });

export const previewImport = (csv: string) => call("post", "/v1/products/import/preview", { text: csvBody(csv) });

/** `idempotencyKey`: one per file the owner chose, so a retried apply never writes twice. */
export const applyImport = (csv: string, idempotencyKey: string) =>
  call("post", "/v1/products/import", { text: csvBody(csv), idempotencyKey });
