import {
  type PayoutStatus as GatewayPayoutStatus,
  GatewayUnavailableError,
  gatewayOf,
} from "../../gateway/wallet-gateway.ts";
import type { PumpItem } from "../../platform/queue/due-pump.ts";
import type { PayoutDependencies } from "./dependencies.ts";
import { applyGatewayStatus, scheduleNextPass } from "./pass-outcomes.ts";
import * as queries from "./queries.ts";
import { currentPayout } from "./reading.ts";
import type { PayoutRow } from "./schemas.ts";

/**
 * The payout-processor's pass over a payout, moving its money exactly once:
 * - one actor at a time works on a payout (a lease in its row, longer than a gateway call with its
 *   retries); every submission is recorded before it is sent and carries the payout id as the
 *   gateway's idempotency reference, and after a submission whose answer was lost the gateway is
 *   asked before submitting again: a retried or recovered pass never pays twice;
 * - an unclear gateway answer is never guessed: the payout stays where it is and is looked at again;
 * - the processor finds due payouts by their row (`next_attempt_at`, a batch claim with the lease):
 *   no job per payout, and a payout whose worker died mid-pass falls due again when its lease lapses.
 * The answer is applied by `pass-outcomes.ts`.
 */

/**
 * One pass of the payout-processor over a payout, whenever it is due (as an operator's or a test's
 * direct call): take its lease, then submit it or ask the gateway how it stands, and apply the
 * answer. Returns the payout as it now stands (null when it does not exist).
 */
export async function processPayout(
  dependencies: PayoutDependencies,
  job: { merchantId: string; payoutId: string },
): Promise<PayoutRow | null> {
  const key = { merchantId: job.merchantId, id: job.payoutId };
  const leased = await queries.claimLease(dependencies.database, {
    ...key,
    leaseMs: dependencies.config.moneyOut.leaseMs,
  });
  if (leased === null) {
    // Final, or another worker is acting on it and will schedule the next pass itself.
    return queries.selectPayoutByKey(dependencies.database, key);
  }
  return advanceLeased(dependencies, leased);
}

/**
 * The payout-processor's claim: up to `limit` payouts whose next pass is due, with their leases
 * (`claimDuePayouts`: safe beside any number of replicas), each an item that makes its pass. A pass
 * that fails on our side leaves its payout to a later pass (`advanceLeased`).
 */
export async function claimDuePayoutPasses(
  dependencies: PayoutDependencies,
  limit: number,
): Promise<readonly PumpItem[]> {
  const leased = await queries.claimDuePayouts(dependencies.database, {
    leaseMs: dependencies.config.moneyOut.leaseMs,
    limit,
  });
  return leased.map((payout) => ({
    id: payout.id,
    attempt: 1,
    traceparent: payout.traceparent,
    run: () => advanceLeased(dependencies, payout),
  }));
}

/** The pass of a payout this worker holds the lease of. */
async function advanceLeased(dependencies: PayoutDependencies, leased: queries.LeasedPayout): Promise<PayoutRow> {
  const { attempt_recorded: attemptRecorded, traceparent: _, ...payout } = leased;
  try {
    return await (payout.status === "requested"
      ? submitRequested(dependencies, payout, attemptRecorded)
      : askSubmitted(dependencies, payout));
  } catch (error) {
    // Our own failure (not the gateway's): the payout is looked at again after PAYOUT_RETRY_SECONDS,
    // or, if even this cannot be written (database down), once the lease has lapsed.
    await queries
      .scheduleNextAttempt(dependencies.database, {
        merchantId: payout.merchant_id,
        id: payout.id,
        runAt: new Date(Date.now() + dependencies.config.payoutRetryMs),
      })
      .catch(() => {});
    throw error;
  }
}

/**
 * The pass of a requested payout: submit it, its attempt recorded before anything is sent (by the
 * lease's claim for its first, `attemptRecorded`, otherwise here, after asking the gateway whether an
 * earlier submission whose answer was lost reached it); then apply the answer.
 */
async function submitRequested(
  dependencies: PayoutDependencies,
  payout: PayoutRow,
  attemptRecorded: boolean,
): Promise<PayoutRow> {
  const { config, database } = dependencies;
  let attempt: PayoutRow | null = payout;
  if (!attemptRecorded) {
    if (payout.submit_attempts > 0) {
      // A previous submission's answer was lost (timeout, crash): ask before submitting again.
      let status: GatewayPayoutStatus;
      try {
        status = await inquire(dependencies, payout);
      } catch (error) {
        return retryLater(dependencies, payout, config.payoutRetryMs, error);
      }
      if (status.state !== "not_found") {
        return applyGatewayStatus(dependencies, payout, status);
      }
    }
    attempt = await queries.recordSubmitAttempt(database, { merchantId: payout.merchant_id, id: payout.id });
    if (attempt === null) {
      return currentPayout(database, payout);
    }
  }
  let outcome: Exclude<GatewayPayoutStatus, { state: "not_found" }>;
  try {
    outcome = await gatewayOf(dependencies.gateways, attempt.livemode).submitPayout({
      payoutId: attempt.id,
      amountCents: attempt.amount_cents,
      currency: attempt.currency,
      destinationMsisdn: attempt.destination_account,
      reference: attempt.reference,
      narration: `Payout ${attempt.reference}`,
      attempt: attempt.submit_attempts,
    });
  } catch (error) {
    return retryLater(dependencies, attempt, config.payoutRetryMs, error);
  }
  return applyGatewayStatus(dependencies, attempt, outcome);
}

/** The pass of a submitted payout: ask the gateway how it stands, then apply the answer. */
async function askSubmitted(dependencies: PayoutDependencies, payout: PayoutRow): Promise<PayoutRow> {
  const { config, logger } = dependencies;
  let status: GatewayPayoutStatus;
  try {
    status = await inquire(dependencies, payout);
  } catch (error) {
    return retryLater(dependencies, payout, config.payoutProcessorIntervalMs, error);
  }
  if (status.state === "not_found") {
    // The gateway accepted this payout and now does not know it: nothing safe to guess. Keep asking,
    // loudly (an operator must look).
    logger.error({ payout_id: payout.id }, "the gateway does not know a payout it accepted");
    return retryLater(dependencies, payout, config.payoutProcessorIntervalMs);
  }
  return applyGatewayStatus(dependencies, payout, status);
}

/** Asks the payout's world's gateway how the payout stands. */
function inquire(dependencies: PayoutDependencies, payout: PayoutRow): Promise<GatewayPayoutStatus> {
  return gatewayOf(dependencies.gateways, payout.livemode).inquirePayout({
    payoutId: payout.id,
    amountCents: payout.amount_cents,
    destinationMsisdn: payout.destination_account,
    acceptedAt: payout.submitted_at,
    attempts: payout.submit_attempts,
    lastAttemptAt: payout.last_submit_attempt_at,
  });
}

/** The gateway did not answer clearly: the payout stays as it is, and is looked at again after `delayMs`. */
async function retryLater(
  dependencies: PayoutDependencies,
  payout: PayoutRow,
  delayMs: number,
  error?: unknown,
): Promise<PayoutRow> {
  if (error !== undefined && !(error instanceof GatewayUnavailableError)) {
    throw error;
  }
  if (error !== undefined) {
    dependencies.logger.warn({ payout_id: payout.id, err: error }, "payout gateway call failed; retrying later");
  }
  return scheduleNextPass(dependencies.database, payout, delayMs);
}
