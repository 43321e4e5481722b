/**
 * The browser apps' API client, their one front door to the /v1 API: the transport (./api/client.ts:
 * session cookie, CSRF header, world, Idempotency-Key, error envelope, cursor pages) and one module per
 * resource, typed from docs/openapi.json (./api/generated.ts, `npm run openapi:write`). Screens call
 * these functions; none writes a path or an API type by hand.
 *
 * A page loaded on demand imports this front door too (web/dashboard/app.tsx), not ./api/<resource>.ts:
 * esbuild puts the modules reached by the same entry points in one chunk, so the pages that all import
 * the door share one chunk with the first load, while a page importing ./api/events.ts itself split
 * that module into a chunk of its own (133 B more to load first on 2026-11-28; the Cashiers and Till
 * devices pages importing ./api/cashiers.ts and ./api/devices.ts, 296 B more). A resource only such
 * pages use is not re-exported here (./api/api-keys.ts, ./api/payouts.ts, ./api/sessions.ts, the till's
 * ./api/stock.ts, …): they import it themselves, and it stays in their chunks (payouts.ts and
 * sessions.ts re-exported here were 162 B of the dashboard's first load, stock.ts 24 B of the till's).
 */
export * from "./api/balance.ts";
export { type AnswerOf, type BodyOf, type CallOptions, chosen, type QueryOf, type Schema } from "./api/call.ts";
export * from "./api/cashiers.ts";
export * from "./api/client.ts";
export * from "./api/devices.ts";
export * from "./api/events.ts";
export * from "./api/payments.ts";
export * from "./api/sales.ts";
export * from "./api/shifts.ts";
export * from "./api/webhooks.ts";
