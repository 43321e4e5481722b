import { type CallOptions, call, type QueryOf, type Schema } from "./call.ts";

/** Wallet payments (docs/payments.md). */
export type Payment = Schema<"Payment">;

export const getPayment = (id: string) => call("get", "/v1/payments/{id}", { path: { id } });

export const listPayments = (query: QueryOf<"/v1/payments", "get">) => call("get", "/v1/payments", { query });

/** Pays back a payment that settled after it had expired. */
export const refundLatePayment = (id: string, options?: CallOptions) =>
  call("post", "/v1/payments/{id}/refund_late", { ...options, path: { id }, body: {} });
