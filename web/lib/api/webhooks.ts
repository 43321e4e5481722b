import { type BodyOf, call, type QueryOf, type Schema } from "./call.ts";

/** Webhook endpoints and their deliveries (docs/webhooks.md). */
export type WebhookEndpoint = Schema<"WebhookEndpoint">;
export type WebhookDelivery = Schema<"WebhookDelivery">;
/** An endpoint with its signing secret: only in the answer that made it or rolled the secret. */
export type CreatedWebhookEndpoint = Schema<"CreatedWebhookEndpoint">;
/** An event type an endpoint hears, or `*` for all. */
export type EventSubscription = NonNullable<BodyOf<"/v1/webhook_endpoints", "post">["event_types"]>[number];

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

export const listDeliveries = (query: QueryOf<"/v1/webhook_deliveries", "get">) =>
  call("get", "/v1/webhook_deliveries", { query });

export const retryDelivery = (id: string) => call("post", "/v1/webhook_deliveries/{id}/retry", { path: { id } });
