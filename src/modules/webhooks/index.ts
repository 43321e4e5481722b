import type { ModuleFace } from "../../platform/module.ts";
import { deliverWebhooks } from "./deliver-webhooks.ts";
import { webhookRoutes } from "./routes.ts";

/**
 * Webhook endpoints and deliveries (README.md). The admin service calls `webhooks` (the service); the
 * secret box that seals signing secrets also seals the sessions' two-factor secrets.
 */
export { isSealedWith, openSecret, type SecretKeyring, sealSecret } from "./secret-box.ts";
export * as webhooks from "./service.ts";

export const webhooksModule: ModuleFace<unknown> = {
  name: "webhooks",
  routes: () => webhookRoutes,
  pumps: () => ({ "webhook-delivery": [deliverWebhooks] }),
};
