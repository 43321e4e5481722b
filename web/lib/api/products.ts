import { api } from "../session.ts";
import { type BodyOf, type CallOptions, call, type QueryOf, type Schema } from "./call.ts";

/** The catalog's calls (docs/shop.md, "Products"): search, create, change, and import or export CSV. */
export type Product = Schema<"Product">;
export type ProductQuery = QueryOf<"/v1/products", "get">;
export type NewProduct = BodyOf<"/v1/products", "post">;
/** What a change may set (on-hand changes through stock moves, never here). */
export type ProductChanges = BodyOf<"/v1/products/{id}", "patch">;
/** A CSV import's dry run (every row's error, or what it would write), and what the import wrote. */
export type ImportPreview = Schema<"ProductImportPreview">;
export type ImportSummary = Schema<"ProductImport">;

export const listProducts = (query: ProductQuery, options?: CallOptions) =>
  call("get", "/v1/products", { ...options, query });

export const getProduct = (id: string, options?: CallOptions) =>
  call("get", "/v1/products/{id}", { ...options, path: { id } });

export const createProduct = (body: NewProduct, options?: CallOptions) =>
  call("post", "/v1/products", { ...options, body });

export const updateProduct = (id: string, body: ProductChanges, options?: CallOptions) =>
  call("patch", "/v1/products/{id}", { ...options, path: { id }, body });

/** The catalog as a CSV file (its bytes and the name the server gave it). */
export const exportProducts = () => api.download("/v1/products.csv");

const csvBody = (csv: string) => ({ contentType: "text/csv", body: csv });

export const previewImport = (csv: string) => call("post", "/v1/products/import/preview", { text: csvBody(csv) });

/** `idempotencyKey`: one per file the owner chose, so a retried apply never writes twice. */
export const applyImport = (csv: string, idempotencyKey: string) =>
  call("post", "/v1/products/import", { text: csvBody(csv), idempotencyKey });
