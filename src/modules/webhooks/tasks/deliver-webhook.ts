import { z } from "zod";
import { requireWebhookSecretKey } from "../../../platform/config.ts";
import type { TaskDefinition } from "../../../platform/queue/task.ts";
import { createDeliveryStore } from "../delivery-store.ts";
import { createWebhookPoster } from "../post-webhook.ts";
import { attemptDelivery, DELIVER_WEBHOOK_TASK } from "../service.ts";

// Jobs outlive code: the payload is parsed, not trusted.
const payloadSchema = z.object({ merchant_id: z.string(), delivery_id: z.string() });

/** One attempt of one webhook delivery; the attempt schedules the next one itself when it fails. */
export const deliverWebhook: TaskDefinition = {
  identifier: DELIVER_WEBHOOK_TASK,
  build: ({ config, database, logger }) => {
    // Fails the pool's start, not its first job, when the key is missing.
    requireWebhookSecretKey(config);
    const poster = createWebhookPoster({ timeoutMs: config.webhook.timeoutMs });
    const store = createDeliveryStore(database);
    return async (payload) => {
      const job = payloadSchema.parse(payload);
      const settled = await attemptDelivery(
        { store, config, post: poster.post },
        { merchantId: job.merchant_id, deliveryId: job.delivery_id },
      );
      if (settled !== null && settled.status !== "succeeded") {
        logger.info(
          {
            task: DELIVER_WEBHOOK_TASK,
            delivery_id: settled.id,
            status: settled.status,
            attempt: settled.attempt_count,
          },
          "webhook delivery attempt failed",
        );
      }
    };
  },
};
