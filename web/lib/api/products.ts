import type { Currency } from "../../../src/kernel/money.ts";
import { type ApiClient, newIdempotencyKey, type Page } from "./client.ts";

/**
 * The catalog's calls (docs/shop.md, "Products"), typed by hand for now: the generated OpenAPI types
 * will replace these declarations.
 */

export type Product = {
  id: string;
  name: string;
  sku: string | null;
  barcode: string | null;
  category: string | null;
  price_cents: number | null;
  currency: Currency;
  track_stock: boolean;
  /** On-hand; null when the product is not tracked. */
  stock_qty: number | null;
  low_stock_at: number;
  low_stock: boolean;
  /** Basis points (15.5 % = 1550); null: the shop's default rate. */
  tax_rate_bp: number | null;
  active: boolean;
  /** When it last changed (the tills' change feed follows it). */
  updated_at: string;
};

/** The catalog fields a form writes (on-hand changes through stock moves, never here). */
export type ProductChanges = Partial<
  Pick<
    Product,
    | "name"
    | "sku"
    | "barcode"
    | "category"
    | "price_cents"
    | "currency"
    | "track_stock"
    | "low_stock_at"
    | "tax_rate_bp"
    | "active"
  >
> & { stock_qty?: number };

export type ProductFilter = {
  q: string;
  category: string;
  active: "true" | "false" | "all";
  cursor?: string | undefined;
};

export type ImportError = { row: number; column: string | null; code: string; message: string };
export type ImportSummary = { rows: number; created: number; updated: number; unchanged: number };

export const listProducts = (api: ApiClient, filter: ProductFilter) =>
  api.get<Page<Product>>("/v1/products", { query: { ...filter, limit: 50 } });

export const createProduct = (api: ApiClient, product: ProductChanges) => api.post<Product>("/v1/products", product);

export const updateProduct = (api: ApiClient, productId: string, changes: ProductChanges) =>
  api.request<Product>("PATCH", `/v1/products/${encodeURIComponent(productId)}`, { body: changes });

export const exportProducts = (api: ApiClient) => api.download("/v1/products.csv");

const csvBody = (csv: string) => ({ contentType: "text/csv", body: csv });

export const previewImport = (api: ApiClient, csv: string) =>
  api.request<ImportSummary & { errors: ImportError[] }>("POST", "/v1/products/import/preview", { text: csvBody(csv) });

/** `idempotencyKey`: one per file the owner chose, so a retried apply never writes twice. */
export const applyImport = (api: ApiClient, csv: string, idempotencyKey: string = newIdempotencyKey()) =>
  api.request<ImportSummary>("POST", "/v1/products/import", { text: csvBody(csv), idempotencyKey });
