import { z } from "zod";
import { defineJob } from "../../platform/queue/job.ts";

/**
 * One pass over a payout (submit, or ask the gateway), enqueued with the payout's request, for each
 * next pass and by the stalled-payout sweeper (payout-processor). One job per payout at a time: its
 * key is `payout:<id>`. Our own failures (database down) are retried with backoff for about a day.
 */
export const processPayoutJob = defineJob({
  task: "process_payout",
  payload: z.object({ merchant_id: z.string(), payout_id: z.string() }),
  attemptsMax: 20,
});
