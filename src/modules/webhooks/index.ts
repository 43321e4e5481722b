import type { ModuleFace } from "../../platform/module.ts";
import { webhookRoutes } from "./routes.ts";
import { deliverWebhook } from "./tasks/deliver-webhook.ts";
import { requeueStalledWebhookDeliveries } from "./tasks/requeue-stalled-deliveries.ts";

/** Webhook endpoints and deliveries (README.md). */
export const webhooksModule: ModuleFace<unknown> = {
  name: "webhooks",
  routes: () => webhookRoutes,
  tasks: () => ({ "webhook-delivery": [deliverWebhook, requeueStalledWebhookDeliveries] }),
};
