import { type ChangeToWalletCompleted, gatewayOf, type TransferCompleted } from "../../gateway/wallet-gateway.ts";
import { formatMoney } from "../../kernel/money.ts";
import type { World } from "../../kernel/world.ts";
import type { Config } from "../../platform/config.ts";
import type { Database, Queryable, Transaction } from "../../platform/db/pool.ts";
import { invalidRequest, notFound } from "../../platform/errors.ts";
import { newId, randomSecret } from "../../platform/ids.ts";
import { events } from "../events/index.ts";
import { ledger } from "../ledger/index.ts";
import { instantTransfer } from "../money-out/index.ts";
import type { AgentDependencies } from "./dependencies.ts";
import { reconcileBankChangeJob } from "./jobs.ts";
import * as queries from "./queries.ts";
import type { BankChangeRow, CreateBankChangeInput } from "./schemas.ts";

/**
 * Change-to-wallet: the merchant gives a customer their change into the customer's wallet, at once,
 * from its balance.
 *
 * Invariants:
 * - a change-to-wallet is an instant transfer (see src/modules/money-out/instant-transfer.ts): its
 *   debit commits before the gateway is called, with the row keyed by the Idempotency-Key, so a retry
 *   resumes it rather than paying twice; a refusal reverses the debit; an unclear outcome is settled
 *   by inquiry (the client's retry or the reconcile job), never guessed;
 * - a change is at most `BANK_CHANGE_LIMIT_USD_CENTS` (500) in USD, `BANK_CHANGE_LIMIT_ZWG_CENTS` in ZWG.
 *
 * Error codes: `invalid_amount`, `invalid_currency`, `invalid_msisdn`, `bank_change_limit` (400),
 * `insufficient_funds` (402), `resource_missing` (404), `bank_change_failed` (400: the gateway
 * refused it; the debit was reversed), `gateway_error` (502).
 */

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
    find: () => queries.bankChangeRows.selectByIdempotencyKey(dependencies.database, world),
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
const bankChangeReconcileJob: instantTransfer.ReconcileJob<BankChangeRow, typeof reconcileBankChangeJob.payload> = {
  kind: reconcileBankChangeJob,
  payloadOf: (row) => ({ merchant_id: row.merchant_id, bank_change_id: row.id }),
  keyOf: (row) => `bank_change_reconcile:${row.id}`,
};

function bankChangeSteps(
  dependencies: AgentDependencies,
): instantTransfer.InstantTransferSteps<BankChangeRow, ChangeToWalletCompleted> {
  const { database, config } = dependencies;
  const key = (row: BankChangeRow) => ({ merchantId: row.merchant_id, id: row.id });
  return {
    claim: (row) => queries.bankChangeRows.claimLease(database, { ...key(row), leaseMs: config.moneyOut.leaseMs }),
    recordAttempt: (row) => queries.bankChangeRows.recordAttempt(database, key(row)),
    release: (row) => queries.bankChangeRows.releaseLease(database, key(row)),
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
    reload: async (row) => (await queries.bankChangeRows.selectByKey(database, key(row))) ?? row,
  };
}

/** Calls the gateway for a change just reserved, or takes up one left unclear (asking the gateway first). */
export function proceedBankChange(dependencies: AgentDependencies, reserved: { row: BankChangeRow; fresh: boolean }) {
  return instantTransfer.proceed(bankChangeSteps(dependencies), reserved);
}

/** `processing → completed` with `bank_change.completed`, in the caller's transaction. */
export function completeBankChange(
  transaction: Transaction,
  row: BankChangeRow,
  outcome: TransferCompleted<ChangeToWalletCompleted>,
): Promise<BankChangeRow | null> {
  return instantTransfer.recordFinal(
    transaction,
    bankChangeReconcileJob,
    () =>
      queries.completeBankChange(transaction, {
        merchantId: row.merchant_id,
        id: row.id,
        gatewayReference: outcome.gatewayReference,
        recipientName: outcome.recipientName,
        completedAt: outcome.completedAt,
      }),
    (completed) =>
      events.emit(transaction, {
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
      }),
  );
}

/** `processing → failed`: the debit reversed and `bank_change.failed`, in one transaction. */
export async function failBankChange(database: Database, row: BankChangeRow, reason: string) {
  return database.transaction((transaction) =>
    instantTransfer.recordFinal(
      transaction,
      bankChangeReconcileJob,
      () => queries.bankChangeRows.fail(transaction, { merchantId: row.merchant_id, id: row.id, reason }),
      async (failed) => {
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
      },
    ),
  );
}

export function bankChangeFailedError(row: BankChangeRow) {
  return invalidRequest(
    "bank_change_failed",
    `Change to wallet ${row.id} failed (${row.failure_reason ?? "refused"}); nothing was debited. Use a new Idempotency-Key to try again.`,
  );
}

export async function getBankChange(database: Queryable, world: World, id: string): Promise<BankChangeRow> {
  const row = await queries.bankChangeRows.select(database, world, id);
  if (row === null) {
    throw notFound(`No such change-to-wallet: ${id}.`);
  }
  return row;
}

export async function reloadBankChange(database: Queryable, row: BankChangeRow): Promise<BankChangeRow> {
  return (await queries.bankChangeRows.selectByKey(database, { merchantId: row.merchant_id, id: row.id })) ?? row;
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
  const row = await queries.bankChangeRows.selectByKey(dependencies.database, {
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
