import { type BodyOf, type CallOptions, call, type Schema } from "./call.ts";

/** Stock on hand: receipts, counts and the report (docs/shop.md). */
export type StockChangePath = "/v1/stock/receive" | "/v1/stock/count";

export type StockReport = Schema<"StockReport">;

export const stockReport = () => call("get", "/v1/stock/report");

/** Money-like (stock is counted once): `options.idempotencyKey` is the action's key. */
export const changeStock = (
  operation: StockChangePath,
  body: BodyOf<"/v1/stock/receive", "post"> & BodyOf<"/v1/stock/count", "post">,
  options: CallOptions,
) => call("post", operation, { ...options, body });
