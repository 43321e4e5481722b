import { type BodyOf, call, type QueryOf, type Schema } from "./call.ts";

/** Webhook endpoints and their deliveries (docs/webhooks.md). */
export type WebhookEndpoint = Schema<"WebhookEndpoint">;
export type WebhookDelivery = Schema<"WebhookDelivery">;
/** An endpoint with its signing secret: only in the answer that made it or rolled the secret. */
export type CreatedWebhookEndpoint = Schema<"CreatedWebhookEndpoint">;
/** An event type an endpoint hears, or `*` for all. */
export type EventSubscription = NonNullable<BodyOf<"/v1/webhook_endpoints", "post">["event_types"]>[number];

export const listDeliveries = (query: QueryOf<"/v1/webhook_deliveries", "get">) =>
  call("get", "/v1/webhook_deliveries", { query });
