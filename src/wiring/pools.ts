import { deliverWebhook } from "../modules/webhooks/tasks/deliver-webhook.ts";
import { requeueStalledWebhookDeliveries } from "../modules/webhooks/tasks/requeue-stalled-deliveries.ts";
import { purgeIdempotencyKeys } from "../platform/idempotency/tasks/purge-idempotency-keys.ts";
import type { PoolName, TaskDefinition } from "../platform/queue/task.ts";

/** Which tasks each worker pool runs. A task identifier belongs to exactly one pool. */
export const poolTasks: Record<PoolName, readonly TaskDefinition[]> = {
  "gateway-poller": [],
  "code-expiry": [purgeIdempotencyKeys],
  "payout-processor": [],
  "webhook-delivery": [deliverWebhook, requeueStalledWebhookDeliveries],
};
