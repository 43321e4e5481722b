import { type BodyOf, type CallOptions, call, type QueryOf, type Schema } from "./call.ts";

/** Sales rung up at a till or by an integration, their returns and the day's report (docs/shop.md). */
export type Sale = Schema<"Sale">;
export type SaleLine = Sale["items"][number];
export type SaleReturn = Schema<"SaleReturn">;
export type SalesReport = Schema<"SalesReport">;
export type NewSale = BodyOf<"/v1/sales", "post">;
/** A tender of a split sale as the API shows it, and one added to a pending split sale. */
export type SaleTender = Sale["tenders"][number];
export type NewSaleTender = BodyOf<"/v1/sales/{id}/tenders", "post">;
export type NewSaleReturn = BodyOf<"/v1/sales/{id}/returns", "post">;

export const getSale = (id: string, query: QueryOf<"/v1/sales/{id}", "get"> = {}, options?: CallOptions) =>
  call("get", "/v1/sales/{id}", { ...options, path: { id }, query });

export const listSales = (query: QueryOf<"/v1/sales", "get">, options?: CallOptions) =>
  call("get", "/v1/sales", { ...options, query });

export const salesReport = (query: QueryOf<"/v1/sales/report", "get">) => call("get", "/v1/sales/report", { query });

/** Money: `options.idempotencyKey` is the action's key (web/lib/use-action.ts). */
export const createSale = (body: NewSale, options: CallOptions) => call("post", "/v1/sales", { ...options, body });

export const cancelSale = (id: string, options?: CallOptions) =>
  call("post", "/v1/sales/{id}/cancel", { ...options, path: { id }, body: {} });

/** Money: `options.idempotencyKey` is the action's key. */
export const returnSale = (id: string, body: NewSaleReturn, options: CallOptions) =>
  call("post", "/v1/sales/{id}/returns", { ...options, path: { id }, body });

/** Money: adds a tender to a pending split sale; answers the sale (completed when it is covered). */
export const addSaleTender = (id: string, body: NewSaleTender, options: CallOptions) =>
  call("post", "/v1/sales/{id}/tenders", { ...options, path: { id }, body });
