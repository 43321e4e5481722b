import type { ModuleFace } from "../../platform/module.ts";
import { deliverWebhooks } from "./deliver-webhooks.ts";
import { webhookRoutes } from "./routes.ts";

/** Webhook endpoints and deliveries (README.md). */
export const webhooksModule: ModuleFace<unknown> = {
  name: "webhooks",
  routes: () => webhookRoutes,
  pumps: () => ({ "webhook-delivery": [deliverWebhooks] }),
};
