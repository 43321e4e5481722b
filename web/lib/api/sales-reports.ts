import { api } from "../session.ts";
import { call, type QueryOf, type Schema } from "./call.ts";

/**
 * A period's sales by day, item, category, cashier, till or tender (docs/shop.md "Sales reports"): the
 * Reports page's calls, outside `web/lib/api.ts` so that they load with that page's chunk.
 */
export type SalesBreakdown = Schema<"SalesBreakdown">;
export type BreakdownDimension = SalesBreakdown["dimension"];
type BreakdownQuery = QueryOf<"/v1/sales/reports/{dimension}", "get">;

export const salesBreakdown = (dimension: BreakdownDimension, query: BreakdownQuery) =>
  call("get", "/v1/sales/reports/{dimension}", { path: { dimension }, query });

/** The same rows as a CSV file (its bytes and the name the server gave it). */
export const downloadSalesBreakdown = (dimension: BreakdownDimension, query: BreakdownQuery) =>
  api.download(`/v1/sales/reports/${dimension}.csv`, { query });
