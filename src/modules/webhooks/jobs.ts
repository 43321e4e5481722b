import { z } from "zod";
import { defineJob } from "../../platform/queue/job.ts";

/**
 * One attempt of one webhook delivery (webhook-delivery), keyed `webhook_delivery:<id>` so a delivery
 * has one job at a time. Enqueued by `enqueue` (a resend, a test event) and from SQL, which builds
 * the same payload with `json_build_object`: the `fan_out_event` trigger (migrations), the retry an
 * attempt schedules and a recovery (`queries.ts`, from this kind's identifier and attempts). The attempts are for our own failures (database down); a receiver's failures
 * follow the delivery's retry schedule, each its own job.
 */
export const deliverWebhookJob = defineJob({
  task: "deliver_webhook",
  payload: z.object({ merchant_id: z.string(), delivery_id: z.string() }),
  attemptsMax: 5,
});
