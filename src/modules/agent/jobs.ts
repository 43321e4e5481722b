import { z } from "zod";
import { defineJob } from "../../platform/queue/job.ts";

/** The expiry and the reconciliation must eventually decide: a gateway down is retried for days. */
const DECIDING_JOB_ATTEMPTS_MAX = 25;

/** The poller's next inquiry of a pending withdrawal code (gateway-poller). */
export const pollWithdrawalJob = defineJob({
  task: "poll_withdrawal_code",
  payload: z.object({ merchant_id: z.string(), withdrawal_id: z.string(), attempt: z.number().int().min(0) }),
  attemptsMax: 3,
});

/** The code's window closed: one last inquiry decides (code-expiry). */
export const expireWithdrawalJob = defineJob({
  task: "expire_withdrawal_code",
  payload: z.object({ merchant_id: z.string(), withdrawal_id: z.string() }),
  attemptsMax: DECIDING_JOB_ATTEMPTS_MAX,
});

/** Settles by inquiry a change-to-wallet its request left unclear (gateway-poller). */
export const reconcileBankChangeJob = defineJob({
  task: "reconcile_bank_change",
  payload: z.object({ merchant_id: z.string(), bank_change_id: z.string() }),
  attemptsMax: DECIDING_JOB_ATTEMPTS_MAX,
});
