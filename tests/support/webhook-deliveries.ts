import { createDeliveryStore } from "../../src/modules/webhooks/delivery-store.ts";
import { createWebhookPoster } from "../../src/modules/webhooks/post-webhook.ts";
import { attemptDelivery, claimDueDeliveries } from "../../src/modules/webhooks/service.ts";
import type { Config } from "../../src/platform/config.ts";
import type { Database } from "../../src/platform/db/pool.ts";

/**
 * The delivery worker, driven by the test step by step: `deliverDue` claims a merchant's due
 * deliveries and attempts each, until none is due (with the config's retry schedule shortened to
 * zero, a failing receiver makes them dead). No worker pool and no waiting on a schedule.
 */
export function webhookDeliverer(database: Database, config: Config) {
  const poster = createWebhookPoster({ timeoutMs: 5000 });
  const dependencies = { store: createDeliveryStore(database), config, post: poster.post };
  return {
    deliverDue: async (merchantId: string, options: { timeoutMs?: number } = {}) => {
      const deadline = Date.now() + (options.timeoutMs ?? 30_000);
      for (;;) {
        const claimed = await claimDueDeliveries(dependencies, { limit: 100, merchantId });
        if (claimed.length === 0) return;
        if (Date.now() > deadline) throw new Error(`${claimed.length} deliveries still due`);
        for (const delivery of claimed) {
          await attemptDelivery(dependencies, delivery);
        }
      }
    },
    close: () => poster.close(),
  };
}
