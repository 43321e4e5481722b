import { requireWebhookSecretKey } from "../../platform/config.ts";
import type { PumpDefinition } from "../../platform/queue/due-pump.ts";
import { attemptDelivery, claimDueDeliveries } from "./delivery-attempt.ts";
import { createDeliveryStore } from "./delivery-store.ts";
import { createWebhookPoster } from "./post-webhook.ts";
import { DELIVERIES_DUE_CHANNEL, selectDueBacklog } from "./queries.ts";

/**
 * webhook-delivery: claims due deliveries in batches and makes one attempt of each (`attemptDelivery`),
 * woken by the deliveries' announcements (`DELIVERIES_DUE_CHANNEL`). Each attempt is a span of the
 * trace of the event's emitter, named and counted as when each attempt was a `deliver_webhook` job,
 * so traces, dashboards and alerts read the same.
 */
export const deliverWebhooks: PumpDefinition = {
  name: "deliver_webhooks",
  task: "deliver_webhook",
  channel: DELIVERIES_DUE_CHANNEL,
  build: ({ config, database, logger }) => {
    // Fails the pool's start, not its first delivery, when the key is missing.
    requireWebhookSecretKey(config);
    const poster = createWebhookPoster({ timeoutMs: config.webhook.timeoutMs });
    const dependencies = { store: createDeliveryStore(database), config, post: poster.post };
    return {
      claim: async (limit) =>
        (await claimDueDeliveries(dependencies, { limit, merchantId: null })).map((delivery) => ({
          id: delivery.id,
          attempt: delivery.attempt_count,
          traceparent: delivery.traceparent,
          run: async () => {
            const settled = await attemptDelivery(dependencies, delivery);
            if (settled !== null && settled.status !== "succeeded") {
              logger.info(
                { delivery_id: settled.id, status: settled.status, attempt: settled.attempt_count },
                "webhook delivery attempt failed",
              );
            }
          },
        })),
      backlog: () => selectDueBacklog(database),
    };
  },
};
