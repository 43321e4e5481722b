import {
  type PayoutStatus as GatewayPayoutStatus,
  type Gateways,
  GatewayUnavailableError,
  gatewayOf,
  type PaymentGateway,
  type PayoutGateway,
} from "../../gateway/wallet-gateway.ts";
import type { World } from "../../kernel/world.ts";
import type { Config } from "../../platform/config.ts";
import { batchPerTurnOn, writeInKeyOrder, writeTogetherOrAlone } from "../../platform/db/batch-per-turn.ts";
import { type Database, type Queryable, sql } from "../../platform/db/pool.ts";
import { conflict, forbidden, notFound } from "../../platform/errors.ts";
import { createdAtKey, decodeCreatedAtCursor, type Page, toPage } from "../../platform/http/pagination.ts";
import type { ResponseToStore } from "../../platform/idempotency/service.ts";
import { newId, randomSecret } from "../../platform/ids.ts";
import type { PumpItem } from "../../platform/queue/due-pump.ts";
import type { Logger } from "../../platform/telemetry/logger.ts";
import { currentTraceparent } from "../../platform/telemetry/trace-context.ts";
import type { MerchantRow } from "../../platform/tenant.ts";
import { events } from "../events/index.ts";
import { ledger } from "../ledger/index.ts";
import { payoutsTotal } from "./metrics.ts";
import * as queries from "./queries.ts";
import type { CreatePayoutInput, PayoutRow, PayoutStatus } from "./schemas.ts";

/**
 * Payouts: money from the merchant's available balance to its verified wallet, moved exactly once.
 *
 * Invariants:
 * - the request debits the balance (to payouts in transit) in the statement that creates the payout,
 *   due for the processor at once, and stores the request's response, so a payout exists if and only
 *   if its money left the balance; a debit beyond the balance fails on the ledger's row lock (402),
 *   however many run at once;
 * - `requested → submitted → confirmed`, `requested | submitted → failed`, `confirmed → reversed`,
 *   each by a guarded UPDATE in the transaction of its ledger movement and its event: a failure
 *   reverses the request's transaction (the exact amount returns), a reversal undoes both;
 * - one actor at a time works on a payout (a lease in its row, longer than a gateway call with its
 *   retries); every submission is recorded before it is sent and carries the payout id as the
 *   gateway's idempotency reference, and after a submission whose answer was lost the gateway is
 *   asked before submitting again: a retried or recovered pass never pays twice;
 * - an unclear gateway answer is never guessed: the payout stays where it is and is looked at again;
 * - the processor finds due payouts by their row (`next_attempt_at`, a batch claim with the lease):
 *   no job per payout, and a payout whose worker died mid-pass falls due again when its lease lapses.
 *
 * Error codes: `invalid_amount`, `invalid_currency` (400), `payout_destination_unverified` (403),
 * `insufficient_funds` (402), `resource_missing` (404), `payout_not_confirmed` (409, reversal).
 */

export type PayoutDependencies = {
  database: Database;
  config: Config;
  gateways: Gateways<PaymentGateway & PayoutGateway>;
  logger: Logger;
};
/** The verified payout wallet, or the 403 that explains why there is none. */
export function payoutDestinationOf(merchant: Pick<MerchantRow, "payout_msisdn" | "payout_verified">): string {
  if (merchant.payout_msisdn === null || !merchant.payout_verified) {
    throw forbidden(
      "payout_destination_unverified",
      "Payouts go only to a verified payout wallet, and this account has none yet; contact support to verify it.",
    );
  }
  return merchant.payout_msisdn;
}

/** A requested payout to write with its debit and its request's answer (see `writeRequestedPayouts`). */
export type PayoutToWrite = queries.PayoutToInsert & { debit: ledger.PreparedPosting };

/**
 * `POST /v1/payouts`: the debit (payouts in transit), the payout, due for the processor at once, and
 * the request's stored response, written by `write` (the process's batching writer,
 * `payout-writer.ts`: one statement for the requests of the moment) through `commit` (the idempotent
 * request's `commitWithResponse`, which presents the payout and stores that answer): the payout
 * exists if and only if its money left the balance and its answer is stored. A debit beyond the
 * balance fails on the balance row's lock (402, nothing written); a request that lost its key to a
 * retry writes nothing. Counted once committed.
 */
export async function requestPayout<Reply>(
  write: (row: PayoutToWrite) => Promise<boolean>,
  tenant: World & { merchant: MerchantRow },
  input: CreatePayoutInput,
  commit: (payout: PayoutRow, write: (response: ResponseToStore | null) => Promise<boolean>) => Promise<Reply>,
): Promise<Reply> {
  const destination = payoutDestinationOf(tenant.merchant);
  const id = newId("po");
  const reference = `PO${randomSecret().slice(0, 12).toUpperCase()}`;
  const debit = ledger.preparePosting({
    merchantId: tenant.merchantId,
    livemode: tenant.livemode,
    postingKey: `payout:${id}:request`,
    description: `Payout ${reference}`,
    source: { type: "payout", id },
    postings: [
      {
        account: "merchant_available",
        entryType: "payout",
        currency: input.currency,
        amountCents: -input.amount_cents,
      },
      { account: "payouts_in_transit", entryType: "payout", currency: input.currency, amountCents: input.amount_cents },
    ],
  });
  const now = new Date();
  const payout: PayoutRow = {
    merchant_id: tenant.merchantId,
    id,
    livemode: tenant.livemode,
    status: "requested",
    amount_cents: input.amount_cents,
    currency: input.currency,
    destination_account: destination,
    destination_name: null,
    reference,
    gateway_reference: null,
    failure_reason: null,
    reversal_reason: null,
    request_transaction_id: debit.transactionId,
    confirm_transaction_id: null,
    submit_attempts: 0,
    last_submit_attempt_at: null,
    next_attempt_at: now,
    lease_until: null,
    submitted_at: null,
    confirmed_at: null,
    failed_at: null,
    reversed_at: null,
    created_at: now,
    updated_at: now,
  };
  const traceparent = currentTraceparent();
  const reply = await commit(payout, (response) => write({ payout: { ...payout, traceparent }, debit, response }));
  countTransition(payout);
  return reply;
}

/**
 * Writes requested payouts in one statement (`queries.insertRequestedPayouts`), ordered by merchant so
 * that concurrent statements take balance locks in one order; per row, whether it was written (false:
 * its request had lost its key) or why it failed. When the database refuses the statement (a debit
 * beyond its balance fails it whole), each payout is written alone (`writeTogetherOrAlone`), so that
 * only the one that overdraws answers 402 (`insufficient_funds`) and the others are written as they
 * would have been alone.
 */
export async function writeRequestedPayouts(
  database: Queryable,
  rows: readonly PayoutToWrite[],
): Promise<(boolean | Error)[]> {
  const ordered = [...rows].sort((left, right) => lockOrder(left).localeCompare(lockOrder(right)));
  const outcomes = await writeTogetherOrAlone(ordered, async (some) => {
    const written = await queries.insertRequestedPayouts(database, some, (when) =>
      ledger.postingCtes(
        some.map((row) => row.debit),
        when,
      ),
    );
    return some.map((row) => written.has(row.payout.id));
  });
  const outcomeOf = new Map(ordered.map((row, position) => [row.payout.id, outcomes[position] as boolean | Error]));
  return rows.map((row) => {
    const outcome = outcomeOf.get(row.payout.id) as boolean | Error;
    if (!(outcome instanceof Error)) {
      return outcome;
    }
    const refused = ledger.insufficientFundsOf(outcome);
    return refused instanceof Error ? refused : outcome;
  });
}

const lockOrder = (row: PayoutToWrite) =>
  `${row.payout.merchant_id}\u0000${row.payout.livemode}\u0000${row.payout.currency}`;

export function countTransition(payout: PayoutRow): void {
  payoutsTotal.inc({ status: payout.status, livemode: String(payout.livemode), currency: payout.currency });
}

export async function getPayout(database: Queryable, world: World, payoutId: string): Promise<PayoutRow> {
  const payout = await queries.selectPayout(database, world, payoutId);
  if (payout === null) {
    throw notFound(`No such payout: ${payoutId}.`);
  }
  return payout;
}

export async function getPayoutById(database: Queryable, payoutId: string): Promise<PayoutRow> {
  const payout = await queries.selectPayoutById(database, payoutId);
  if (payout === null) {
    throw notFound(`No such payout: ${payoutId}.`);
  }
  return payout;
}

export async function listPayouts(
  database: Queryable,
  filter: World & {
    status: PayoutStatus | undefined;
    from: Date | undefined;
    to: Date | undefined;
    limit: number;
    cursor: string | undefined;
  },
): Promise<Page<PayoutRow>> {
  const rows = await queries.selectPayouts(database, {
    ...filter,
    after: decodeCreatedAtCursor(filter.cursor),
    limit: filter.limit + 1,
  });
  return toPage(rows, { limit: filter.limit, keyOf: createdAtKey, present: (row) => row });
}

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
    return await advance(dependencies, payout, attemptRecorded);
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
 * The pass: submit a requested payout (its attempt recorded before anything is sent: by the lease's
 * claim for its first, `attemptRecorded`, otherwise here, after asking the gateway whether an earlier
 * submission whose answer was lost reached it), or ask how a submitted one stands; then apply the answer.
 */
async function advance(
  dependencies: PayoutDependencies,
  payout: PayoutRow,
  attemptRecorded: boolean,
): Promise<PayoutRow> {
  const { config, database, logger } = dependencies;
  const gateway = gatewayOf(dependencies.gateways, payout.livemode);
  const inquire = () =>
    gateway.inquirePayout({
      payoutId: payout.id,
      amountCents: payout.amount_cents,
      destinationMsisdn: payout.destination_account,
      acceptedAt: payout.submitted_at,
      attempts: payout.submit_attempts,
      lastAttemptAt: payout.last_submit_attempt_at,
    });

  if (payout.status === "requested") {
    let attempt: PayoutRow | null = payout;
    if (!attemptRecorded) {
      if (payout.submit_attempts > 0) {
        // A previous submission's answer was lost (timeout, crash): ask before submitting again.
        let status: GatewayPayoutStatus;
        try {
          status = await inquire();
        } catch (error) {
          return retryLater(dependencies, payout, config.payoutRetryMs, error);
        }
        if (status.state !== "not_found") {
          return apply(dependencies, payout, status);
        }
      }
      attempt = await queries.recordSubmitAttempt(database, { merchantId: payout.merchant_id, id: payout.id });
      if (attempt === null) {
        return current(database, payout);
      }
    }
    let outcome: Exclude<GatewayPayoutStatus, { state: "not_found" }>;
    try {
      outcome = await gateway.submitPayout({
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
    return apply(dependencies, attempt, outcome);
  }

  let status: GatewayPayoutStatus;
  try {
    status = await inquire();
  } catch (error) {
    return retryLater(dependencies, payout, config.payoutProcessorIntervalMs, error);
  }
  if (status.state === "not_found") {
    // The gateway accepted this payout and now does not know it: nothing safe to guess. Keep asking,
    // loudly (an operator must look).
    logger.error({ payout_id: payout.id }, "the gateway does not know a payout it accepted");
    return retryLater(dependencies, payout, config.payoutProcessorIntervalMs);
  }
  return apply(dependencies, payout, status);
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

/** The payout's next pass, `delayMs` from now (the batch task's claim finds it then); ends this worker's lease. */
async function scheduleNextPass(database: Database, payout: PayoutRow, delayMs: number): Promise<PayoutRow> {
  const scheduled = await queries.scheduleNextAttempt(database, {
    merchantId: payout.merchant_id,
    id: payout.id,
    runAt: new Date(Date.now() + delayMs),
  });
  return scheduled ?? current(database, payout);
}

/** Applies what the gateway says of a payout it knows. */
async function apply(
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
    return scheduleNextPass(database, await current(database, payout), delayMs);
  }
  countTransition(submitted);
  return submitted;
}

/**
 * The process's writer of accepted submissions on a database: those of one turn of the event loop
 * (the payouts of a claim, which the gateway answers together) in one statement, one commit and one
 * WAL flush (`queries.markSubmitted`) instead of one each. Each is still guarded by its payout being
 * requested. The rows are the worker's own (leased), so no other statement takes them meanwhile. A
 * statement the database refuses is written again payout by payout (`writeTogetherOrAlone`).
 */
const submissionWriterOf = batchPerTurnOn((database, payouts: readonly queries.SubmittedPayout[]) =>
  writeTogetherOrAlone(payouts, (some) => queries.markSubmitted(database, some)),
);

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
    return current(database, payout);
  }
  const posting = ledger.preparePosting({
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
    return current(database, payout);
  }
  if (payout.status === "requested") {
    countTransition({ ...confirmed, status: "submitted" });
  }
  countTransition(confirmed);
  return confirmed;
}

type Confirmation = {
  completed: queries.CompletedPayout;
  posting: ledger.PreparedPosting;
  event: events.PreparedEvent;
};

/**
 * The process's writer of confirmations on a database: those of one turn of the event loop (the
 * payouts of a claim the gateway reports completed together) in one statement, one commit and one WAL
 * flush (`queries.markConfirmed`), each payout's update guarded and its movement and event written
 * only if it won. In key order (`writeInKeyOrder`), so that statements running side by side (two
 * replicas, the API's payout requests) take the balance rows they share in the same order. A statement
 * the database refuses is written again payout by payout (`writeTogetherOrAlone`).
 */
const confirmationWriterOf = batchPerTurnOn((database, confirmations: readonly Confirmation[]) =>
  writeInKeyOrder(
    confirmations,
    ({ completed }) => completed,
    (ordered) => writeTogetherOrAlone(ordered, (some) => confirmTogether(database, some)),
  ),
);

function confirmTogether(database: Database, confirmations: readonly Confirmation[]): Promise<(PayoutRow | null)[]> {
  return queries.markConfirmed(
    database,
    confirmations.map((confirmation) => confirmation.completed),
    sql.fragment`${ledger.postingCtes(
      confirmations.map((confirmation) => confirmation.posting),
      queries.CONFIRMED_IN_BATCH(sql.fragment`c.source_id`),
    )},
    confirmed_events AS (${events.emitEachWhen(
      confirmations.map(({ event, completed }) => ({ event, subject: completed.id })),
      queries.CONFIRMED_IN_BATCH,
    )})`,
  );
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
    return current(database, payout);
  }
  countTransition(failed);
  return failed;
}

/**
 * An operator reverses a confirmed payout (the platform took the money back from the wallet): both
 * of its ledger transactions are reversed, so exactly its amount returns to the balance, and
 * `payout.reversed` is emitted, in one transaction.
 */
export async function reversePayout(
  database: Database,
  payoutId: string,
  options: { reason: string | null },
): Promise<PayoutRow> {
  const payout = await getPayoutById(database, payoutId);
  const reversed = await database.transaction(async (transaction) => {
    const row = await queries.markReversed(transaction, {
      merchantId: payout.merchant_id,
      id: payout.id,
      reason: options.reason,
    });
    if (row === null || row.confirm_transaction_id === null) {
      return null;
    }
    const description = `Payout ${row.reference} reversed${options.reason === null ? "" : `: ${options.reason}`}`;
    // The request's reversal first: its balances are locked in the order every payout movement takes
    // them (available, in transit, then clearing), so a payout requested meanwhile waits rather than
    // deadlocks. In transit is below zero between the two, within this transaction only.
    for (const transactionId of [row.request_transaction_id, row.confirm_transaction_id]) {
      await ledger.reverse(transaction, {
        merchantId: row.merchant_id,
        transactionId,
        description: description.slice(0, 500),
      });
    }
    await events.emit(transaction, {
      merchantId: row.merchant_id,
      livemode: row.livemode,
      type: "payout.reversed",
      data: {
        payout_id: row.id,
        amount_cents: row.amount_cents,
        currency: row.currency,
        reference: row.reference,
        reason: options.reason,
      },
    });
    return row;
  });
  if (reversed === null) {
    const now = await current(database, payout);
    throw conflict(
      "payout_not_confirmed",
      `Only a confirmed payout can be reversed; payout ${payout.id} is ${now.status}.`,
    );
  }
  countTransition(reversed);
  return reversed;
}

async function current(database: Queryable, payout: PayoutRow): Promise<PayoutRow> {
  return (await queries.selectPayoutByKey(database, { merchantId: payout.merchant_id, id: payout.id })) ?? payout;
}
