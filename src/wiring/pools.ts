import type { Gateways } from "../gateway/wallet-gateway.ts";
import { expirePaymentTask } from "../modules/payments/tasks/expire-payment.ts";
import { pollPaymentTask } from "../modules/payments/tasks/poll-payment.ts";
import { deliverWebhook } from "../modules/webhooks/tasks/deliver-webhook.ts";
import { requeueStalledWebhookDeliveries } from "../modules/webhooks/tasks/requeue-stalled-deliveries.ts";
import { purgeIdempotencyKeys } from "../platform/idempotency/tasks/purge-idempotency-keys.ts";
import type { PoolName, TaskDefinition } from "../platform/queue/task.ts";
import { installPaymentHooks } from "./payment-hooks.ts";

/** Which tasks each worker pool runs. A task identifier belongs to exactly one pool. */
export function poolTasks(gateways: Gateways): Record<PoolName, readonly TaskDefinition[]> {
  // The poller and the expiry job settle and end payments: wallet sales must follow them.
  installPaymentHooks();
  return {
    "gateway-poller": [pollPaymentTask(gateways)],
    "code-expiry": [expirePaymentTask(gateways), purgeIdempotencyKeys],
    "payout-processor": [],
    "webhook-delivery": [deliverWebhook, requeueStalledWebhookDeliveries],
  };
}
