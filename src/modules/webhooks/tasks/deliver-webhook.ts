import { requireWebhookSecretKey } from "../../../platform/config.ts";
import { builtTaskOf } from "../../../platform/queue/job.ts";
import type { TaskDefinition } from "../../../platform/queue/task.ts";
import { createDeliveryStore } from "../delivery-store.ts";
import { deliverWebhookJob } from "../jobs.ts";
import { createWebhookPoster } from "../post-webhook.ts";
import { attemptDelivery } from "../service.ts";

/** One attempt of one webhook delivery; the attempt schedules the next one itself when it fails. */
export const deliverWebhook: TaskDefinition = builtTaskOf(deliverWebhookJob, ({ config, database, logger }) => {
  // Fails the pool's start, not its first job, when the key is missing.
  requireWebhookSecretKey(config);
  const poster = createWebhookPoster({ timeoutMs: config.webhook.timeoutMs });
  const store = createDeliveryStore(database);
  return async (job) => {
    const settled = await attemptDelivery(
      { store, config, post: poster.post },
      { merchantId: job.merchant_id, deliveryId: job.delivery_id },
    );
    if (settled !== null && settled.status !== "succeeded") {
      logger.info(
        {
          task: deliverWebhookJob.task,
          delivery_id: settled.id,
          status: settled.status,
          attempt: settled.attempt_count,
        },
        "webhook delivery attempt failed",
      );
    }
  };
});
