import type { PayoutStatus as GatewayPayoutStatus } from "../../gateway/wallet-gateway.ts";
import type { Database } from "../../platform/db/pool.ts";
import { events } from "../events/index.ts";
import { ledger } from "../ledger/index.ts";
import { confirmationWriterOf, submissionWriterOf } from "./batch-writers.ts";
import type { PayoutDependencies } from "./dependencies.ts";
import { countTransition } from "./metrics.ts";
import * as queries from "./queries.ts";
import { currentPayout } from "./reading.ts";
import type { PayoutRow } from "./schemas.ts";

/**
 * What a pass does with the gateway's answer about a payout it knows: `requested → submitted →
 * confirmed`, `requested | submitted → failed`, each by a guarded UPDATE in the transaction of its
 * ledger movement and its event (a failure reverses the request's transaction: the exact amount
 * returns), or only the next pass. Each ends the worker's lease.
 */

/** Applies what the gateway says of a payout it knows. */
export async function applyGatewayStatus(
  dependencies: PayoutDependencies,
  payout: PayoutRow,
  status: Exclude<GatewayPayoutStatus, { state: "not_found" }>,
): Promise<PayoutRow> {
  const { database, config } = dependencies;
  switch (status.state) {
    case "processing":
      return payout.status === "requested"
        ? submit(database, payout, status, config.payoutProcessorIntervalMs)
        : scheduleNextPass(database, payout, config.payoutProcessorIntervalMs);
    case "completed":
      return confirm(database, payout, status);
    case "rejected":
      return fail(database, payout, status);
  }
}

/** The payout's next pass, `delayMs` from now (the batch task's claim finds it then); ends this worker's lease. */
export async function scheduleNextPass(database: Database, payout: PayoutRow, delayMs: number): Promise<PayoutRow> {
  const scheduled = await queries.scheduleNextAttempt(database, {
    merchantId: payout.merchant_id,
    id: payout.id,
    runAt: new Date(Date.now() + delayMs),
  });
  return scheduled ?? currentPayout(database, payout);
}

/**
 * `requested → submitted` and the next pass (`delayMs` from now, when the processor asks how it
 * stands) in one guarded update, which ends this worker's lease; written with the other submissions
 * of its moment (`submissionWriterOf`).
 */
async function submit(
  database: Database,
  payout: PayoutRow,
  accepted: { gatewayReference: string; destinationName: string | null; acceptedAt: Date },
  delayMs: number,
): Promise<PayoutRow> {
  const submitted = await submissionWriterOf(database)({
    merchantId: payout.merchant_id,
    id: payout.id,
    gatewayReference: accepted.gatewayReference,
    destinationName: accepted.destinationName,
    submittedAt: accepted.acceptedAt,
    nextAttemptAt: new Date(Date.now() + delayMs),
  });
  if (submitted === null) {
    // No longer requested: only its next pass is left to set, as for a submitted payout.
    return scheduleNextPass(database, await currentPayout(database, payout), delayMs);
  }
  countTransition(submitted);
  return submitted;
}

/**
 * `submitted → confirmed` (from `requested` when the gateway completed it at once, its submission
 * recorded in the same update): payouts in transit to gateway clearing and `payout.confirmed`, with
 * the guarded update of the payout, in one statement shared with the other confirmations of its
 * moment (`confirmationWriterOf`).
 */
async function confirm(
  database: Database,
  payout: PayoutRow,
  completed: Extract<GatewayPayoutStatus, { state: "completed" }>,
): Promise<PayoutRow> {
  if (payout.status !== "requested" && payout.status !== "submitted") {
    return currentPayout(database, payout);
  }
  const posting = confirmMovement(payout);
  const confirmed = await confirmationWriterOf(database)({
    completed: {
      merchantId: payout.merchant_id,
      id: payout.id,
      from: payout.status,
      gatewayReference: completed.gatewayReference,
      destinationName: completed.destinationName,
      submittedAt: completed.acceptedAt,
      confirmedAt: completed.completedAt,
      confirmTransactionId: posting.transactionId,
    },
    posting,
    // Made here, in this payout's pass, so that its deliveries carry the pass's trace.
    event: events.prepareEvent({
      merchantId: payout.merchant_id,
      livemode: payout.livemode,
      type: "payout.confirmed",
      data: {
        payout_id: payout.id,
        amount_cents: payout.amount_cents,
        currency: payout.currency,
        reference: payout.reference,
      },
    }),
  });
  if (confirmed === null) {
    return currentPayout(database, payout);
  }
  if (payout.status === "requested") {
    countTransition({ ...confirmed, status: "submitted" });
  }
  countTransition(confirmed);
  return confirmed;
}

/** The confirmation's movement: the amount from payouts in transit to gateway clearing. */
function confirmMovement(payout: PayoutRow): ledger.PreparedPosting {
  return ledger.preparePosting({
    merchantId: payout.merchant_id,
    livemode: payout.livemode,
    postingKey: `payout:${payout.id}:confirm`,
    description: `Payout ${payout.reference} confirmed`,
    source: { type: "payout", id: payout.id },
    postings: [
      {
        account: "payouts_in_transit",
        entryType: "payout",
        currency: payout.currency,
        amountCents: -payout.amount_cents,
      },
      {
        account: "gateway_clearing",
        entryType: "payout",
        currency: payout.currency,
        amountCents: payout.amount_cents,
      },
    ],
  });
}

/** `requested | submitted → failed`: the request's debit reversed, `payout.failed`, in one transaction. */
async function fail(
  database: Database,
  payout: PayoutRow,
  rejected: Extract<GatewayPayoutStatus, { state: "rejected" }>,
): Promise<PayoutRow> {
  const failed = await database.transaction(async (transaction) => {
    const row = await queries.markFailed(transaction, {
      merchantId: payout.merchant_id,
      id: payout.id,
      reason: rejected.reason,
      gatewayReference: rejected.gatewayReference,
      destinationName: rejected.destinationName,
    });
    if (row === null) {
      return null;
    }
    await ledger.reverse(transaction, {
      merchantId: row.merchant_id,
      transactionId: row.request_transaction_id,
      description: `Payout ${row.reference} failed: ${rejected.reason}`.slice(0, 500),
    });
    await events.emit(transaction, {
      merchantId: row.merchant_id,
      livemode: row.livemode,
      type: "payout.failed",
      data: {
        payout_id: row.id,
        amount_cents: row.amount_cents,
        currency: row.currency,
        reason: row.failure_reason,
        reference: row.reference,
      },
    });
    return row;
  });
  if (failed === null) {
    return currentPayout(database, payout);
  }
  countTransition(failed);
  return failed;
}
