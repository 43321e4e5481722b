import { UniqueIntegrityConstraintViolationError } from "slonik";
import type { z } from "zod";
import {
  GatewayUnavailableError,
  type TransferCompleted,
  type TransferOutcome,
  type TransferStatus,
} from "../../gateway/wallet-gateway.ts";
import type { Database, Transaction } from "../../platform/db/pool.ts";
import { type ApiError, gatewayError } from "../../platform/errors.ts";
import type { JsonReply } from "../../platform/http/route.ts";
import { removeJob } from "../../platform/queue/add-job.ts";
import { enqueue, type JobKind, type PayloadSchema } from "../../platform/queue/job.ts";

/**
 * Instant transfers (change-to-wallet, utility payments): money leaves the balance and the gateway
 * moves it in the same request. They share one shape, whose steps each module supplies (its table,
 * its gateway call, its ledger movement and events):
 *
 * 1. reserve: the row (`processing`, keyed by the request's Idempotency-Key, lease taken, first
 *    attempt counted) and the debit commit together, with a reconcile job; 402 writes nothing;
 * 2. the gateway is called outside any transaction, with the row's id as the idempotency reference;
 * 3. its answer is recorded: `completed` (with the idempotent response, in one transaction) or
 *    `failed` with the debit reversed.
 *
 * An unclear answer (timeout, gateway down) is never guessed: the request answers 502 and the row
 * stays `processing`. Whoever comes next — the client's retry with the same key, or the reconcile
 * job — takes the lease and asks the gateway first. The retry submits again only when the gateway
 * never received it; the reconcile job instead fails it and returns the money.
 *
 * This folder is the money-out module: what change-to-wallet (agent) and utility payments (utilities)
 * share, written once. It owns no table.
 */

export type InstantTransferRow = {
  merchant_id: string;
  id: string;
  livemode: boolean;
  status: "processing" | "completed" | "failed";
  attempts: number;
};

export type InstantTransferSteps<Row extends InstantTransferRow, Completed> = {
  /** Takes the lease of a `processing` row; null when it is final or another actor holds the lease. */
  claim: (row: Row) => Promise<Row | null>;
  /** Counts an attempt before it is sent (committed on its own); null when no longer processing. */
  recordAttempt: (row: Row) => Promise<Row | null>;
  /** Gives the lease back after an unclear answer, so the next actor may go at once. */
  release: (row: Row) => Promise<void>;
  /** The gateway call, with `row.attempts` as this attempt's number. */
  submit: (row: Row) => Promise<TransferOutcome<Completed>>;
  inquire: (row: Row) => Promise<TransferStatus<Completed>>;
  reload: (row: Row) => Promise<Row>;
};

/** What to do next; `complete` and `fail` are applied by the caller, in the transaction of its choice. */
export type TransferStep<Row, Completed> =
  | { kind: "complete"; row: Row; outcome: TransferCompleted<Completed> }
  | { kind: "fail"; row: Row; reason: string }
  | { kind: "final"; row: Row }
  | { kind: "unclear"; row: Row }
  | { kind: "busy"; row: Row };

function stepOf<Row, Completed>(row: Row, outcome: TransferOutcome<Completed>): TransferStep<Row, Completed> {
  return outcome.state === "completed"
    ? { kind: "complete", row, outcome }
    : { kind: "fail", row, reason: outcome.reason };
}

/**
 * The reservation of one Idempotency-Key: the row it already reserved (`fresh: false`: a retry after a
 * lost answer or a crash), else the one `insert` commits now. When another request with the same key
 * (one taken over after a crash) inserted first, the unique key refuses ours and theirs is returned.
 */
export async function reserveOnce<Row>(reservation: {
  find: () => Promise<Row | null>;
  insert: () => Promise<Row>;
}): Promise<{ row: Row; fresh: boolean }> {
  const existing = await reservation.find();
  if (existing !== null) {
    return { row: existing, fresh: false };
  }
  try {
    return { row: await reservation.insert(), fresh: true };
  } catch (error) {
    if (error instanceof UniqueIntegrityConstraintViolationError) {
      const winner = await reservation.find();
      if (winner !== null) {
        return { row: winner, fresh: false };
      }
    }
    throw error;
  }
}

/** The reconcile job of one kind of transfer: queued with the reservation, removed once final. */
export type ReconcileJob<Row, Schema extends PayloadSchema = PayloadSchema> = {
  kind: JobKind<Schema>;
  payloadOf: (row: Row) => z.input<Schema>;
  /** One reconcile job per row: moving it replaces the queued one. */
  keyOf: (row: Row) => string;
};

/** Queues (or moves, by its key) the reconcile job of a row, in the caller's transaction. */
export function scheduleReconcile<Row>(transaction: Transaction, job: ReconcileJob<Row>, row: Row, runAt: Date) {
  return enqueue(transaction, job.kind, job.payloadOf(row), { runAt, jobKey: job.keyOf(row) });
}

/** Removes the reconcile job of a row that became final, in the transaction that made it final. */
export function unscheduleReconcile<Row>(transaction: Transaction, job: ReconcileJob<Row>, row: Row) {
  return removeJob(transaction, job.keyOf(row));
}

/**
 * Records that a transfer became final, in `transaction`: `mark` (its guarded update; null when it was
 * already final, and then nothing else is written), then `effects` (its event, and a failure's
 * reversal), then its reconcile job is removed.
 */
export async function recordFinal<Row>(
  transaction: Transaction,
  job: ReconcileJob<Row>,
  mark: () => Promise<Row | null>,
  effects: (row: Row) => Promise<unknown>,
): Promise<Row | null> {
  const row = await mark();
  if (row === null) {
    return null;
  }
  await effects(row);
  await unscheduleReconcile(transaction, job, row);
  return row;
}

/** Calls the gateway for a row just reserved, or takes up one left unclear (asking the gateway first). */
export function proceed<Row extends InstantTransferRow, Completed>(
  steps: InstantTransferSteps<Row, Completed>,
  reserved: { row: Row; fresh: boolean },
): Promise<TransferStep<Row, Completed>> {
  return reserved.fresh ? submitReserved(steps, reserved.row) : resume(steps, reserved.row, { whenUnknown: "submit" });
}

/** Submits a row that was just reserved (lease held, its first attempt counted). */
export async function submitReserved<Row extends InstantTransferRow, Completed>(
  steps: InstantTransferSteps<Row, Completed>,
  row: Row,
): Promise<TransferStep<Row, Completed>> {
  try {
    return stepOf(row, await steps.submit(row));
  } catch (error) {
    return unclear(steps, row, error);
  }
}

/**
 * Takes up a row left `processing` by an earlier actor: asks the gateway first, then submits again
 * (`whenUnknown: "submit"`, the client's retry) or gives up (`"fail"`, the reconcile job) when the
 * gateway never received it.
 */
export async function resume<Row extends InstantTransferRow, Completed>(
  steps: InstantTransferSteps<Row, Completed>,
  row: Row,
  options: { whenUnknown: "submit" | "fail" },
): Promise<TransferStep<Row, Completed>> {
  if (row.status !== "processing") {
    return { kind: "final", row };
  }
  const claimed = await steps.claim(row);
  if (claimed === null) {
    const now = await steps.reload(row);
    return now.status === "processing" ? { kind: "busy", row: now } : { kind: "final", row: now };
  }
  let status: TransferStatus<Completed>;
  try {
    status = await steps.inquire(claimed);
  } catch (error) {
    return unclear(steps, claimed, error);
  }
  if (status.state !== "not_found") {
    return stepOf(claimed, status);
  }
  if (options.whenUnknown === "fail") {
    return { kind: "fail", row: claimed, reason: "the gateway never received the transfer" };
  }
  const attempted = await steps.recordAttempt(claimed);
  if (attempted === null) {
    return { kind: "final", row: await steps.reload(claimed) };
  }
  return submitReserved(steps, attempted);
}

async function unclear<Row extends InstantTransferRow, Completed>(
  steps: InstantTransferSteps<Row, Completed>,
  row: Row,
  error: unknown,
): Promise<TransferStep<Row, Completed>> {
  if (!(error instanceof GatewayUnavailableError)) {
    await steps.release(row).catch(() => {});
    throw error;
  }
  await steps.release(row);
  return { kind: "unclear", row };
}

/** Applies a step outside a request (the reconcile job): completes or fails it in its own transaction. */
export async function applyStep<Row extends InstantTransferRow, Completed>(
  database: Database,
  step: TransferStep<Row, Completed>,
  apply: {
    complete: (transaction: Transaction, row: Row, outcome: TransferCompleted<Completed>) => Promise<Row | null>;
    fail: (database: Database, row: Row, reason: string) => Promise<Row | null>;
  },
): Promise<TransferStep<Row, Completed>> {
  switch (step.kind) {
    case "complete": {
      const row = await database.transaction((transaction) => apply.complete(transaction, step.row, step.outcome));
      return { kind: "final", row: row ?? step.row };
    }
    case "fail": {
      const row = await apply.fail(database, step.row, step.reason);
      return { kind: "final", row: row ?? step.row };
    }
    default:
      return step;
  }
}

/**
 * The reconcile job of a row still `processing` a while after it was reserved (its request died or
 * gave up): asks the gateway and settles it; one the gateway never received is failed and its money
 * returned. A row whose request still holds the lease is looked at again when the lease ends (its job
 * moved); a gateway that cannot answer throws, and the job retries. A row gone or final is returned as
 * it is.
 */
export async function reconcile<Row extends InstantTransferRow & { lease_until: Date | null }, Completed>(
  database: Database,
  steps: InstantTransferSteps<Row, Completed>,
  row: Row | null,
  settle: {
    complete: (transaction: Transaction, row: Row, outcome: TransferCompleted<Completed>) => Promise<Row | null>;
    fail: (database: Database, row: Row, reason: string) => Promise<Row | null>;
    job: ReconcileJob<Row>;
    /** Names the row in the error of an unclear answer. */
    name: (row: Row) => string;
  },
): Promise<Row | null> {
  if (row === null || row.status !== "processing") {
    return row;
  }
  const step = await applyStep(database, await resume(steps, row, { whenUnknown: "fail" }), settle);
  if (step.kind === "busy") {
    const runAt = new Date((step.row.lease_until?.getTime() ?? Date.now()) + 1000);
    await database.transaction((transaction) => scheduleReconcile(transaction, settle.job, row, runAt));
  }
  if (step.kind === "unclear") {
    throw new GatewayUnavailableError(`${settle.name(row)}: the gateway could not be asked; retrying`);
  }
  return step.row;
}

/**
 * The answer to the request that created (or retried) a transfer: 201 with the completed transfer,
 * stored with its completion in the idempotent transaction; the module's 4xx once it failed (its
 * money returned); 502 while its outcome is unclear, to be retried with the same Idempotency-Key.
 */
export async function replyToStep<Row extends InstantTransferRow, Completed>(
  step: TransferStep<Row, Completed>,
  reply: {
    transaction: (effects: (transaction: Transaction) => Promise<JsonReply>) => Promise<JsonReply>;
    complete: (transaction: Transaction, row: Row, outcome: TransferCompleted<Completed>) => Promise<Row | null>;
    fail: (row: Row, reason: string) => Promise<Row | null>;
    reload: (row: Row) => Promise<Row>;
    present: (row: Row) => unknown;
    failed: (row: Row) => ApiError;
  },
): Promise<JsonReply> {
  switch (step.kind) {
    case "complete": {
      const completed = await reply
        .transaction(async (transaction) => {
          const row = await reply.complete(transaction, step.row, step.outcome);
          if (row === null) {
            throw new Superseded();
          }
          return { status: 201, body: reply.present(row) };
        })
        .catch(async (error: unknown) => {
          if (!(error instanceof Superseded)) {
            throw error;
          }
          return undefined;
        });
      return completed ?? replyToStep({ kind: "final", row: await reply.reload(step.row) }, reply);
    }
    case "fail":
      throw reply.failed((await reply.fail(step.row, step.reason)) ?? (await reply.reload(step.row)));
    case "final":
      if (step.row.status === "completed") {
        return { status: 201, body: reply.present(step.row) };
      }
      if (step.row.status === "failed") {
        throw reply.failed(step.row);
      }
      throw stillUnclear();
    case "unclear":
    case "busy":
      throw stillUnclear();
  }
}

/** Idempotent routes always carry their key (the platform refuses them without one). */
export function requireIdempotencyKey(idempotencyKey: string | undefined): string {
  if (idempotencyKey === undefined) {
    throw new TypeError("an idempotent route ran without its Idempotency-Key");
  }
  return idempotencyKey;
}

const stillUnclear = () =>
  gatewayError(
    "gateway_error",
    "The gateway has not confirmed this transfer yet; retry with the same Idempotency-Key to learn its outcome.",
  );

/** Thrown inside a transaction to roll it back when a guarded change found someone else had won. */
class Superseded extends Error {
  override name = "Superseded";
}
