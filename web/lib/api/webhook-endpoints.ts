import { type BodyOf, call, type QueryOf } from "./call.ts";

/**
 * The webhook endpoints' calls, made only by the Developers pages: imported by them directly, not
 * through web/lib/api.ts, so they stay in those pages' lazily loaded chunk (the front door is in the
 * dashboard's first load, and everything it re-exports with it).
 */

export const listWebhookEndpoints = (query: QueryOf<"/v1/webhook_endpoints", "get">) =>
  call("get", "/v1/webhook_endpoints", { query });

export const createWebhookEndpoint = (body: BodyOf<"/v1/webhook_endpoints", "post">) =>
  call("post", "/v1/webhook_endpoints", { body });

export const deleteWebhookEndpoint = (id: string) => call("delete", "/v1/webhook_endpoints/{id}", { path: { id } });

export const sendTestWebhook = (id: string) => call("post", "/v1/webhook_endpoints/{id}/test", { path: { id } });

export const rollWebhookSecret = (id: string, body: BodyOf<"/v1/webhook_endpoints/{id}/roll_secret", "post">) =>
  call("post", "/v1/webhook_endpoints/{id}/roll_secret", { path: { id }, body });

export const recoverWebhooks = (id: string, body: BodyOf<"/v1/webhook_endpoints/{id}/recover", "post">) =>
  call("post", "/v1/webhook_endpoints/{id}/recover", { path: { id }, body });

export const listEndpointDeliveries = (id: string, query: QueryOf<"/v1/webhook_endpoints/{id}/deliveries", "get">) =>
  call("get", "/v1/webhook_endpoints/{id}/deliveries", { path: { id }, query });

export const retryDelivery = (id: string) => call("post", "/v1/webhook_deliveries/{id}/retry", { path: { id } });
