import { z } from "zod";
import { createDeliveryStore } from "../../src/modules/webhooks/delivery-store.ts";
import { createWebhookPoster } from "../../src/modules/webhooks/post-webhook.ts";
import { attemptDelivery } from "../../src/modules/webhooks/service.ts";
import type { Config } from "../../src/platform/config.ts";
import { type Database, sql } from "../../src/platform/db/pool.ts";

const pendingRow = z.object({ id: z.string() });

/**
 * The delivery worker, driven by the test step by step: `deliverDue` attempts each of a merchant's
 * pending deliveries until none is pending (with the config's retry schedule shortened, a failing
 * receiver makes them dead). No worker pool and no waiting on a schedule.
 */
export function webhookDeliverer(database: Database, config: Config) {
  const poster = createWebhookPoster({ timeoutMs: 5000 });
  const dependencies = { store: createDeliveryStore(database), config, post: poster.post };
  const pendingOf = (merchantId: string) =>
    database.any(sql.type(pendingRow)`
      SELECT id FROM webhook_deliveries WHERE merchant_id = ${merchantId} AND status = 'pending' ORDER BY created_at, id`);
  return {
    deliverDue: async (merchantId: string, options: { timeoutMs?: number } = {}) => {
      const deadline = Date.now() + (options.timeoutMs ?? 30_000);
      for (;;) {
        const pending = await pendingOf(merchantId);
        if (pending.length === 0) return;
        if (Date.now() > deadline) throw new Error(`${pending.length} deliveries still pending`);
        for (const delivery of pending) {
          await attemptDelivery(dependencies, { merchantId, deliveryId: delivery.id });
        }
      }
    },
    close: () => poster.close(),
  };
}
