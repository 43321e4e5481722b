import { z } from "zod";
import { defineJob } from "../../platform/queue/job.ts";

/** Settles by inquiry a utility payment its request left unclear (gateway-poller); retried for days. */
export const reconcileUtilityPaymentJob = defineJob({
  task: "reconcile_utility_payment",
  payload: z.object({ merchant_id: z.string(), utility_payment_id: z.string() }),
  attemptsMax: 25,
});
