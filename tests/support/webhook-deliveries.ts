import request from "supertest";
import { createDeliveryStore } from "../../src/modules/webhooks/delivery-store.ts";
import { createWebhookPoster } from "../../src/modules/webhooks/post-webhook.ts";
import { attemptDelivery, claimDueDeliveries } from "../../src/modules/webhooks/service.ts";
import type { Config } from "../../src/platform/config.ts";
import type { Database } from "../../src/platform/db/pool.ts";
import type { testApp } from "./app.ts";

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

/**
 * Registering endpoints over the API of `app()` (read when called: the app is made in a `beforeAll`):
 * `createEndpoint` answers the response whatever it is, `registered` expects the 201 and its endpoint.
 */
export function endpointRegistrar(app: () => ReturnType<typeof testApp>) {
  const createEndpoint = async (key: string, body: Record<string, unknown>) =>
    request(app()).post("/v1/webhook_endpoints").set("Authorization", `Bearer ${key}`).send(body);
  const registered = async (key: string, body: Record<string, unknown>) => {
    const response = await createEndpoint(key, body);
    expect(response.status).toBe(201);
    return response.body as { id: string; secret: string; url: string };
  };
  return { createEndpoint, registered };
}
