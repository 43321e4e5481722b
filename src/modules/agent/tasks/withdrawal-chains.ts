/**
 * Chains of each withdrawal-code batch task, whatever `WORKER_BATCH_JOBS` says: withdrawal codes are
 * few (an agent's customers' cash-outs, beside the payments of every merchant), and one run claims up
 * to 2,000 of them, so one chain per task does their work while the payments' tasks keep theirs; each
 * chain more costs its pool a run a second, nearly always finding nothing due.
 */
export const WITHDRAWAL_CHAINS = 1;
