/**
 * The browser apps' API client, their one front door to the /v1 API: the transport (./api/client.ts:
 * session cookie, CSRF header, world, Idempotency-Key, error envelope, cursor pages) and one module per
 * resource, typed from docs/openapi.json (./api/generated.ts, `npm run openapi:write`). Screens call
 * these functions; none writes a path or an API type by hand.
 */
export * from "./api/balance.ts";
export { type AnswerOf, type BodyOf, type CallOptions, chosen, type QueryOf, type Schema } from "./api/call.ts";
export * from "./api/cashiers.ts";
export * from "./api/client.ts";
export * from "./api/devices.ts";
export * from "./api/events.ts";
export * from "./api/payments.ts";
export * from "./api/payouts.ts";
export * from "./api/sales.ts";
export * from "./api/sessions.ts";
export * from "./api/shifts.ts";
export * from "./api/stock.ts";
export * from "./api/webhooks.ts";
