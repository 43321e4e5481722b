import { UniqueIntegrityConstraintViolationError } from "slonik";
import { toApiGatewayError } from "../../gateway/api-errors.ts";
import { CodeCollisionError } from "../../gateway/code-collisions.ts";
import {
  type ChangeToWalletCompleted,
  type Gateways,
  GatewayUnavailableError,
  gatewayOf,
  type TransferCompleted,
  type WalletGateway,
  type WithdrawalCodeStatus,
} from "../../gateway/wallet-gateway.ts";
import { formatMoney } from "../../kernel/money.ts";
import type { World } from "../../kernel/world.ts";
import type { Config } from "../../platform/config.ts";
import type { Database, Queryable, Transaction } from "../../platform/db/pool.ts";
import { ApiError, conflict, forbidden, invalidRequest, notFound } from "../../platform/errors.ts";
import { newId, randomSecret } from "../../platform/ids.ts";
import { qrPngDataUrl } from "../../platform/qr/index.ts";
import { addJob } from "../../platform/queue/add-job.ts";
import type { Logger } from "../../platform/telemetry/logger.ts";
import type { MerchantRow } from "../../platform/tenant.ts";
import * as events from "../events/service.ts";
import * as ledger from "../ledger/service.ts";
import * as instantTransfer from "../money-out/instant-transfer.ts";
import * as queries from "./queries.ts";
import type { BankChangeRow, CreateBankChangeInput, CreateWithdrawalInput, WithdrawalRow } from "./schemas.ts";

/**
 * Agent operations: the merchant as a cash-out agent (withdrawal codes), change-to-wallet, and the
 * account lookup that names a wallet's holder.
 *
 * Invariants:
 * - a withdrawal code moves money once, when redeemed: `pending → redeemed` (balance credited from
 *   gateway clearing, `withdrawal.redeemed`) or `pending → expired` (nothing moved), each by a guarded
 *   UPDATE, so a redemption racing the expiry has exactly one outcome; an expiry is decided only after
 *   a last inquiry of the gateway, so a code claimed in its last second is redeemed;
 * - test codes are claimed only through the claim hook (the sandbox never reports a claim), which
 *   acts as the network would: not after the code's expiry;
 * - a change-to-wallet is an instant transfer (see src/modules/money-out/instant-transfer.ts): its debit
 *   commits before the gateway is called, with the row keyed by the Idempotency-Key, so a retry
 *   resumes it rather than paying twice; a refusal reverses the debit; an unclear outcome is settled
 *   by inquiry (the client's retry or the reconcile job), never guessed;
 * - a change is at most `BANK_CHANGE_LIMIT_USD_CENTS` (500) in USD, `BANK_CHANGE_LIMIT_ZWG_CENTS` in ZWG.
 *
 * Error codes: `invalid_amount`, `invalid_currency`, `invalid_msisdn`, `bank_change_limit` (400),
 * `insufficient_funds` (402), `test_mode_only` (403), `resource_missing`, `account_not_found` (404),
 * `withdrawal_code_not_pending` (409), `bank_change_failed` (400: the gateway refused it; the debit was
 * reversed), `gateway_error`, `code_generation_failed` (502).
 */

export const POLL_WITHDRAWAL_TASK = "poll_withdrawal_code";
export const EXPIRE_WITHDRAWAL_TASK = "expire_withdrawal_code";
export const RECONCILE_BANK_CHANGE_TASK = "reconcile_bank_change";
const POLL_JOB_ATTEMPTS_MAX = 3;
/** The expiry and the reconciliation must eventually decide: a gateway down is retried for days. */
const DECIDING_JOB_ATTEMPTS_MAX = 25;

export type AgentDependencies = {
  database: Database;
  config: Config;
  gateways: Gateways<WalletGateway>;
  logger: Logger;
};
// Withdrawal codes.

export function withdrawalDeepLinkOf(config: Config, code: string): string {
  return `${config.moneyOut.withdrawalDeepLinkPrefix}${code}`;
}

export type PreparedWithdrawal = Awaited<ReturnType<typeof prepareWithdrawal>>;

/** Phase one, outside any transaction: the gateway issues the code, and its QR is drawn. */
export async function prepareWithdrawal(
  dependencies: AgentDependencies,
  tenant: World & { merchant: MerchantRow },
  input: CreateWithdrawalInput,
) {
  const id = newId("wdc");
  const expiresAt = new Date(Date.now() + dependencies.config.moneyOut.withdrawalCodeWindowMs);
  let issued: Awaited<ReturnType<WalletGateway["issueWithdrawalCode"]>>;
  try {
    issued = await gatewayOf(dependencies.gateways, tenant.livemode).issueWithdrawalCode({
      withdrawalId: id,
      amountCents: input.amount_cents,
      currency: input.currency,
      merchantName: tenant.merchant.name,
      expiresAt,
    });
  } catch (error) {
    throw toApiGatewayError(error);
  }
  const qrPngDataUrlOfCode = qrPngDataUrl(withdrawalDeepLinkOf(dependencies.config, issued.code));
  return { id, input, issued, qrPngDataUrl: qrPngDataUrlOfCode };
}

/**
 * Phase two, in the request's transaction: the code, its first poll and its expiry job commit
 * together. A code still pending for another withdrawal throws `CodeCollisionError`.
 */
export async function recordWithdrawal(
  transaction: Transaction,
  config: Config,
  tenant: World,
  prepared: PreparedWithdrawal,
): Promise<WithdrawalRow> {
  let withdrawal: WithdrawalRow;
  try {
    withdrawal = await queries.insertWithdrawal(transaction, {
      merchant_id: tenant.merchantId,
      id: prepared.id,
      livemode: tenant.livemode,
      amount_cents: prepared.input.amount_cents,
      currency: prepared.input.currency,
      code: prepared.issued.code,
      reference: `WD${randomSecret().slice(0, 12).toUpperCase()}`,
      gateway_reference: prepared.issued.gatewayReference,
      qr_png_data_url: prepared.qrPngDataUrl,
      expiresInMs: config.moneyOut.withdrawalCodeWindowMs,
    });
  } catch (error) {
    // The code is still pending for another withdrawal of this world: the transaction is aborted, and
    // the creation runs again with a fresh code (`withFreshCodes`).
    if (
      error instanceof UniqueIntegrityConstraintViolationError &&
      error.constraint === "withdrawal_codes_pending_code_key"
    ) {
      throw new CodeCollisionError(prepared.issued.code);
    }
    throw error;
  }
  await schedulePoll(transaction, config, withdrawal, 0);
  await addJob(transaction, {
    task: EXPIRE_WITHDRAWAL_TASK,
    payload: { merchant_id: withdrawal.merchant_id, withdrawal_id: withdrawal.id },
    runAt: withdrawal.expires_at,
    jobKey: `withdrawal_expiry:${withdrawal.id}`,
    maxAttempts: DECIDING_JOB_ATTEMPTS_MAX,
  });
  return withdrawal;
}

/** The poller's next inquiry (on the payments' schedule), unless it would come after the code's expiry. */
async function schedulePoll(
  transaction: Transaction,
  config: Config,
  withdrawal: Pick<WithdrawalRow, "merchant_id" | "id" | "expires_at">,
  attempt: number,
): Promise<void> {
  const schedule = config.payment.pollScheduleMs;
  const runAt = new Date(Date.now() + (schedule[Math.min(attempt, schedule.length - 1)] ?? 30_000));
  if (runAt >= withdrawal.expires_at) {
    return;
  }
  await addJob(transaction, {
    task: POLL_WITHDRAWAL_TASK,
    payload: { merchant_id: withdrawal.merchant_id, withdrawal_id: withdrawal.id, attempt },
    runAt,
    jobKey: `withdrawal_poll:${withdrawal.id}`,
    maxAttempts: POLL_JOB_ATTEMPTS_MAX,
  });
}

export async function getWithdrawal(database: Queryable, world: World, id: string): Promise<WithdrawalRow> {
  const withdrawal = await queries.selectWithdrawal(database, world, id);
  if (withdrawal === null) {
    throw notFound(`No such withdrawal code: ${id}.`);
  }
  return withdrawal;
}

async function currentWithdrawal(database: Queryable, withdrawal: WithdrawalRow): Promise<WithdrawalRow> {
  return (
    (await queries.selectWithdrawalByKey(database, { merchantId: withdrawal.merchant_id, id: withdrawal.id })) ??
    withdrawal
  );
}

/**
 * Asks the gateway about a pending code (at most once per `PAYMENT_INQUIRY_MIN_INTERVAL_SECONDS`
 * across replicas, unless forced) and applies the answer. A gateway that cannot answer changes
 * nothing, except under `force` (the expiry's last inquiry), where it throws so the job retries.
 */
export async function refreshWithdrawal(
  dependencies: AgentDependencies,
  withdrawal: WithdrawalRow,
  options: { force?: boolean } = {},
): Promise<WithdrawalRow> {
  if (withdrawal.status !== "pending") {
    return withdrawal;
  }
  const claimed = await queries.claimWithdrawalInquiry(dependencies.database, {
    merchantId: withdrawal.merchant_id,
    id: withdrawal.id,
    minIntervalMs: options.force === true ? 0 : dependencies.config.payment.inquiryMinIntervalMs,
  });
  if (claimed === null) {
    return currentWithdrawal(dependencies.database, withdrawal);
  }
  let status: WithdrawalCodeStatus;
  try {
    status = await gatewayOf(dependencies.gateways, claimed.livemode).inquireWithdrawalCode({
      withdrawalId: claimed.id,
      code: claimed.code,
      amountCents: claimed.amount_cents,
      issuedAt: claimed.created_at,
    });
  } catch (error) {
    if (error instanceof GatewayUnavailableError && options.force !== true) {
      dependencies.logger.warn({ withdrawal_id: claimed.id, err: error }, "withdrawal code inquiry failed");
      return claimed;
    }
    throw error;
  }
  switch (status.state) {
    case "redeemed":
      return redeemWithdrawal(dependencies.database, claimed, {
        redeemedAt: status.redeemedAt,
        customerMsisdn: status.customerMsisdn,
        onlyBeforeExpiry: false,
      });
    case "expired":
      return expireWithdrawal(dependencies.database, claimed, { onlyWhenDue: false });
    case "pending":
      return claimed;
  }
}

/**
 * `pending → redeemed` in one transaction: the guarded change, the credit from gateway clearing and
 * `withdrawal.redeemed`. Returns the code as it now stands (unchanged when someone else decided first).
 */
export async function redeemWithdrawal(
  database: Database,
  withdrawal: WithdrawalRow,
  claim: { redeemedAt: Date; customerMsisdn: string | null; onlyBeforeExpiry: boolean },
): Promise<WithdrawalRow> {
  return (await tryRedeem(database, withdrawal, claim)) ?? currentWithdrawal(database, withdrawal);
}

/** The redemption itself; null when the code was no longer pending (or, with `onlyBeforeExpiry`, past due). */
async function tryRedeem(
  database: Database,
  withdrawal: WithdrawalRow,
  claim: { redeemedAt: Date; customerMsisdn: string | null; onlyBeforeExpiry: boolean },
): Promise<WithdrawalRow | null> {
  return database.transaction(async (transaction) => {
    const row = await queries.redeemWithdrawal(transaction, {
      merchantId: withdrawal.merchant_id,
      id: withdrawal.id,
      ...claim,
    });
    if (row === null) {
      return null;
    }
    await ledger.post(transaction, {
      merchantId: row.merchant_id,
      livemode: row.livemode,
      postingKey: `withdrawal:${row.id}:redeem`,
      description: `Cash-out code ${row.reference} redeemed`,
      source: { type: "withdrawal_code", id: row.id },
      postings: [
        {
          account: "gateway_clearing",
          entryType: "withdrawal",
          currency: row.currency,
          amountCents: -row.amount_cents,
        },
        {
          account: "merchant_available",
          entryType: "withdrawal",
          currency: row.currency,
          amountCents: row.amount_cents,
        },
      ],
    });
    await events.emit(transaction, {
      merchantId: row.merchant_id,
      livemode: row.livemode,
      type: "withdrawal.redeemed",
      data: {
        withdrawal_id: row.id,
        amount_cents: row.amount_cents,
        currency: row.currency,
        reference: row.reference,
        customer_msisdn: row.customer_msisdn,
      },
    });
    return row;
  });
}

/** `pending → expired`: nothing moves. */
export async function expireWithdrawal(
  database: Database,
  withdrawal: WithdrawalRow,
  options: { onlyWhenDue: boolean },
): Promise<WithdrawalRow> {
  const expired = await database.transaction((transaction) =>
    queries.expireWithdrawal(transaction, { merchantId: withdrawal.merchant_id, id: withdrawal.id, ...options }),
  );
  return expired ?? currentWithdrawal(database, withdrawal);
}

/**
 * The test world's instant-settle hook: the customer claims the code now, as the network would (not
 * after its expiry). 403 `test_mode_only` for live codes; 409 `withdrawal_code_not_pending` once final.
 */
export async function claimTestWithdrawal(
  dependencies: AgentDependencies,
  world: World,
  id: string,
  customerMsisdn: string | null,
): Promise<WithdrawalRow> {
  const withdrawal = await getWithdrawal(dependencies.database, world, id);
  if (withdrawal.livemode) {
    throw forbidden(
      "test_mode_only",
      "Live withdrawal codes are claimed by customers in their wallet, not through this endpoint.",
    );
  }
  if (withdrawal.status === "pending") {
    const redeemed = await tryRedeem(dependencies.database, withdrawal, {
      redeemedAt: new Date(),
      customerMsisdn,
      onlyBeforeExpiry: true,
    });
    if (redeemed !== null) {
      return redeemed;
    }
  }
  let now = await currentWithdrawal(dependencies.database, withdrawal);
  if (now.status === "pending") {
    // Past its expiry: the network refuses the claim, and the code expires now rather than at its job.
    now = await expireWithdrawal(dependencies.database, now, { onlyWhenDue: true });
  }
  throw conflict("withdrawal_code_not_pending", `Withdrawal code ${id} is ${now.status}; it cannot be claimed.`);
}

/** The poller's turn: one throttled inquiry, then the next turn while the code stays pending. */
export async function pollWithdrawal(
  dependencies: AgentDependencies,
  job: { merchantId: string; withdrawalId: string; attempt: number },
): Promise<WithdrawalRow | null> {
  const withdrawal = await queries.selectWithdrawalByKey(dependencies.database, {
    merchantId: job.merchantId,
    id: job.withdrawalId,
  });
  if (withdrawal === null || withdrawal.status !== "pending") {
    return withdrawal;
  }
  const refreshed = await refreshWithdrawal(dependencies, withdrawal);
  if (refreshed.status === "pending") {
    await dependencies.database.transaction((transaction) =>
      schedulePoll(transaction, dependencies.config, refreshed, job.attempt + 1),
    );
  }
  return refreshed;
}

/**
 * The code's window closed: one last, unthrottled inquiry decides. Claimed in the last second is
 * redeemed; a gateway that cannot answer fails the job, which retries rather than guess.
 */
export async function expireWithdrawalIfUnclaimed(
  dependencies: AgentDependencies,
  job: { merchantId: string; withdrawalId: string },
): Promise<WithdrawalRow | null> {
  const withdrawal = await queries.selectWithdrawalByKey(dependencies.database, {
    merchantId: job.merchantId,
    id: job.withdrawalId,
  });
  if (withdrawal === null || withdrawal.status !== "pending") {
    return withdrawal;
  }
  const refreshed = await refreshWithdrawal(dependencies, withdrawal, { force: true });
  if (refreshed.status !== "pending") {
    return refreshed;
  }
  return expireWithdrawal(dependencies.database, refreshed, { onlyWhenDue: true });
}

// Change-to-wallet.

/** 400 `bank_change_limit` above the currency's limit (500 cents in USD by default). */
export function checkBankChangeLimit(config: Config, input: Pick<CreateBankChangeInput, "amount_cents" | "currency">) {
  const limit = config.moneyOut.bankChangeLimitCents[input.currency];
  if (input.amount_cents > limit) {
    throw invalidRequest(
      "bank_change_limit",
      `A change-to-wallet is at most ${formatMoney(input.currency, limit)} (${limit} cents).`,
    );
  }
}

/**
 * Reserves a change: the row (keyed by the Idempotency-Key) and the debit in one transaction, with its
 * reconcile job. When this key already reserved one (a retry after a lost answer or a crash), that
 * one is returned instead, `fresh: false`. 402 writes nothing.
 */
export async function reserveBankChange(
  dependencies: AgentDependencies,
  tenant: World,
  input: CreateBankChangeInput,
  idempotencyKey: string,
): Promise<{ row: BankChangeRow; fresh: boolean }> {
  const world = { ...tenant, idempotencyKey };
  return instantTransfer.reserveOnce({
    find: () => queries.selectBankChangeByIdempotencyKey(dependencies.database, world),
    insert: () =>
      dependencies.database.transaction(async (transaction) => {
        const id = newId("bch");
        const reference = `BC${randomSecret().slice(0, 12).toUpperCase()}`;
        const debit = await ledger.post(transaction, {
          merchantId: tenant.merchantId,
          livemode: tenant.livemode,
          postingKey: `bank_change:${id}:debit`,
          description: `Change to wallet ${input.destination_msisdn} (${reference})`,
          source: { type: "bank_change", id },
          postings: [
            {
              account: "merchant_available",
              entryType: "bank_change",
              currency: input.currency,
              amountCents: -input.amount_cents,
            },
            {
              account: "gateway_clearing",
              entryType: "bank_change",
              currency: input.currency,
              amountCents: input.amount_cents,
            },
          ],
        });
        const inserted = await queries.insertBankChange(transaction, {
          merchant_id: tenant.merchantId,
          id,
          livemode: tenant.livemode,
          idempotency_key: idempotencyKey,
          amount_cents: input.amount_cents,
          currency: input.currency,
          destination_msisdn: input.destination_msisdn,
          narration: input.narration ?? null,
          reference,
          debit_transaction_id: debit.transaction.id,
          leaseMs: dependencies.config.moneyOut.leaseMs,
        });
        const runAt = new Date(Date.now() + dependencies.config.moneyOut.reconcileMs);
        await instantTransfer.scheduleReconcile(transaction, bankChangeReconcileJob, inserted, runAt);
        return inserted;
      }),
  });
}

/** The reconcile job of a change, queued with its reservation and removed once it is final. */
const bankChangeReconcileJob: instantTransfer.ReconcileJob<BankChangeRow> = {
  task: RECONCILE_BANK_CHANGE_TASK,
  payloadOf: (row) => ({ merchant_id: row.merchant_id, bank_change_id: row.id }),
  keyOf: (row) => `bank_change_reconcile:${row.id}`,
  attemptsMax: DECIDING_JOB_ATTEMPTS_MAX,
};

function bankChangeSteps(
  dependencies: AgentDependencies,
): instantTransfer.InstantTransferSteps<BankChangeRow, ChangeToWalletCompleted> {
  const { database, config } = dependencies;
  const key = (row: BankChangeRow) => ({ merchantId: row.merchant_id, id: row.id });
  return {
    claim: (row) => queries.claimBankChangeLease(database, { ...key(row), leaseMs: config.moneyOut.leaseMs }),
    recordAttempt: (row) => queries.recordBankChangeAttempt(database, key(row)),
    release: (row) => queries.releaseBankChangeLease(database, key(row)),
    submit: (row) =>
      gatewayOf(dependencies.gateways, row.livemode).sendChangeToWallet({
        transferId: row.id,
        amountCents: row.amount_cents,
        currency: row.currency,
        destinationMsisdn: row.destination_msisdn,
        narration: row.narration,
        attempt: row.attempts,
      }),
    inquire: (row) =>
      gatewayOf(dependencies.gateways, row.livemode).inquireChangeToWallet({
        transferId: row.id,
        destinationMsisdn: row.destination_msisdn,
        attempts: row.attempts,
        lastAttemptAt: row.last_attempt_at,
      }),
    reload: async (row) => (await queries.selectBankChangeByKey(database, key(row))) ?? row,
  };
}

/** Calls the gateway for a change just reserved, or takes up one left unclear (asking the gateway first). */
export function proceedBankChange(dependencies: AgentDependencies, reserved: { row: BankChangeRow; fresh: boolean }) {
  return instantTransfer.proceed(bankChangeSteps(dependencies), reserved);
}

/** `processing → completed` with `bank_change.completed`, in the caller's transaction. */
export async function completeBankChange(
  transaction: Transaction,
  row: BankChangeRow,
  outcome: TransferCompleted<ChangeToWalletCompleted>,
): Promise<BankChangeRow | null> {
  const completed = await queries.completeBankChange(transaction, {
    merchantId: row.merchant_id,
    id: row.id,
    gatewayReference: outcome.gatewayReference,
    recipientName: outcome.recipientName,
    completedAt: outcome.completedAt,
  });
  if (completed === null) {
    return null;
  }
  await events.emit(transaction, {
    merchantId: completed.merchant_id,
    livemode: completed.livemode,
    type: "bank_change.completed",
    data: {
      bank_change_id: completed.id,
      amount_cents: completed.amount_cents,
      currency: completed.currency,
      destination_msisdn: completed.destination_msisdn,
      recipient_name: completed.recipient_name,
      reference: completed.reference,
    },
  });
  await instantTransfer.unscheduleReconcile(transaction, bankChangeReconcileJob, completed);
  return completed;
}

/** `processing → failed`: the debit reversed and `bank_change.failed`, in one transaction. */
export async function failBankChange(database: Database, row: BankChangeRow, reason: string) {
  return database.transaction(async (transaction) => {
    const failed = await queries.failBankChange(transaction, { merchantId: row.merchant_id, id: row.id, reason });
    if (failed === null) {
      return null;
    }
    await ledger.reverse(transaction, {
      merchantId: failed.merchant_id,
      transactionId: failed.debit_transaction_id,
      description: `Change to wallet ${failed.reference} failed: ${reason}`.slice(0, 500),
    });
    await events.emit(transaction, {
      merchantId: failed.merchant_id,
      livemode: failed.livemode,
      type: "bank_change.failed",
      data: {
        bank_change_id: failed.id,
        amount_cents: failed.amount_cents,
        currency: failed.currency,
        destination_msisdn: failed.destination_msisdn,
        reason,
        reference: failed.reference,
      },
    });
    await instantTransfer.unscheduleReconcile(transaction, bankChangeReconcileJob, failed);
    return failed;
  });
}

export function bankChangeFailedError(row: BankChangeRow) {
  return invalidRequest(
    "bank_change_failed",
    `Change to wallet ${row.id} failed (${row.failure_reason ?? "refused"}); nothing was debited. Use a new Idempotency-Key to try again.`,
  );
}

export async function getBankChange(database: Queryable, world: World, id: string): Promise<BankChangeRow> {
  const row = await queries.selectBankChange(database, world, id);
  if (row === null) {
    throw notFound(`No such change-to-wallet: ${id}.`);
  }
  return row;
}

export async function reloadBankChange(database: Queryable, row: BankChangeRow): Promise<BankChangeRow> {
  return (await queries.selectBankChangeByKey(database, { merchantId: row.merchant_id, id: row.id })) ?? row;
}

/**
 * The reconcile job: a change still `processing` a while after it was reserved (its request died or
 * gave up) is settled by asking the gateway; one the gateway never received is failed and its money
 * returned. A gateway that cannot answer fails the job, which retries.
 */
export async function reconcileBankChange(
  dependencies: AgentDependencies,
  job: { merchantId: string; bankChangeId: string },
): Promise<BankChangeRow | null> {
  const row = await queries.selectBankChangeByKey(dependencies.database, {
    merchantId: job.merchantId,
    id: job.bankChangeId,
  });
  return instantTransfer.reconcile(dependencies.database, bankChangeSteps(dependencies), row, {
    complete: completeBankChange,
    fail: failBankChange,
    job: bankChangeReconcileJob,
    name: (row) => `change-to-wallet ${row.id}`,
  });
}

// Account lookup.

/** The holder of a wallet and its account numbers, from the world's gateway; 404 `account_not_found`. */
export async function lookupAccount(
  dependencies: Pick<AgentDependencies, "gateways">,
  world: World,
  query: { msisdn: string; currency: "USD" | "ZWG" },
) {
  let holder: Awaited<ReturnType<WalletGateway["lookupAccount"]>>;
  try {
    holder = await gatewayOf(dependencies.gateways, world.livemode).lookupAccount(query);
  } catch (error) {
    throw toApiGatewayError(error);
  }
  if (holder === null) {
    throw new ApiError({
      status: 404,
      type: "invalid_request",
      code: "account_not_found",
      message: `No wallet is registered for ${query.msisdn}.`,
    });
  }
  return holder;
}
