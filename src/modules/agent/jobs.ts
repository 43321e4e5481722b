import { z } from "zod";
import { defineJob } from "../../platform/queue/job.ts";

/** The reconciliation must eventually decide: a gateway down is retried for days. */
const DECIDING_JOB_ATTEMPTS_MAX = 25;

/** Settles by inquiry a change-to-wallet its request left unclear (gateway-poller). */
export const reconcileBankChangeJob = defineJob({
  task: "reconcile_bank_change",
  payload: z.object({ merchant_id: z.string(), bank_change_id: z.string() }),
  attemptsMax: DECIDING_JOB_ATTEMPTS_MAX,
});
