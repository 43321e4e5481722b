import {
  gatewayOf,
  type TransferCompleted,
  type UtilityPaymentCompleted,
  type WalletGateways,
} from "../../gateway/wallet-gateway.ts";
import type { World } from "../../kernel/world.ts";
import type { Config } from "../../platform/config.ts";
import type { Database, Queryable, Transaction } from "../../platform/db/pool.ts";
import { invalidRequest, notFound } from "../../platform/errors.ts";
import { newId, randomSecret } from "../../platform/ids.ts";
import type { Logger } from "../../platform/telemetry/logger.ts";
import { events } from "../events/index.ts";
import type { PostingInput } from "../ledger/index.ts";
import { ledger } from "../ledger/index.ts";
import { instantTransfer } from "../money-out/index.ts";
import { type PricedUtilityPayment, priceUtilityPayment } from "./catalogue.ts";
import { reconcileUtilityPaymentJob } from "./jobs.ts";
import * as queries from "./queries.ts";
import type { CreateUtilityPaymentInput, UtilityPaymentRow } from "./schemas.ts";

/**
 * Utility payments: the merchant sells a provider's product (an electricity token, airtime, a DStv
 * month, a water bill) and pays the provider from its balance, earning the provider's commission.
 *
 * Invariants:
 * - a payment is validated against its provider's catalogue entry (account format, currency,
 *   product, amount bounds or fixed price, the shape of `additional_data`) before anything moves;
 * - one balanced ledger transaction debits the amount (to utility clearing) and the platform's fee
 *   (to platform fees) and credits the commission (from commissions), with the row; a failure
 *   reverses that transaction whole, so the balance returns exactly to where it was;
 * - it is an instant transfer (src/modules/money-out/instant-transfer.ts): keyed by the Idempotency-Key, the
 *   provider is paid at most once whatever the retries, and an unclear outcome is settled by inquiry.
 *
 * Error codes: `invalid_amount`, `invalid_currency`, `unknown_provider`, `unknown_provider_product`,
 * `invalid_destination_account`, `currency_not_supported`, `amount_out_of_range`, `amount_mismatch`,
 * `invalid_additional_data` (400); `insufficient_funds` (402); `utility_payment_failed` (400, the
 * provider refused it and the debit was reversed); `resource_missing` (404); `gateway_error` (502).
 */

export type UtilityDependencies = {
  database: Database;
  config: Config;
  gateways: WalletGateways;
  logger: Logger;
};
/** The balanced postings of a utility payment: amount and fee out of the balance, commission in. */
export function utilityPostings(
  payment: Pick<UtilityPaymentRow, "amount_cents" | "fee_cents" | "commission_cents" | "currency">,
): PostingInput[] {
  const { currency } = payment;
  return [
    { account: "merchant_available", entryType: "utility_payment", currency, amountCents: -payment.amount_cents },
    { account: "utility_clearing", entryType: "utility_payment", currency, amountCents: payment.amount_cents },
    ...(payment.fee_cents > 0
      ? ([
          { account: "merchant_available", entryType: "fee", currency, amountCents: -payment.fee_cents },
          { account: "platform_fees", entryType: "fee", currency, amountCents: payment.fee_cents },
        ] as const)
      : []),
    ...(payment.commission_cents > 0
      ? ([
          { account: "commissions", entryType: "commission", currency, amountCents: -payment.commission_cents },
          { account: "merchant_available", entryType: "commission", currency, amountCents: payment.commission_cents },
        ] as const)
      : []),
  ];
}

/** Validates and prices a payment against the catalogue (400s name the problem). */
export function price(input: CreateUtilityPaymentInput): PricedUtilityPayment {
  return priceUtilityPayment(input);
}

/**
 * Reserves a payment: the row (keyed by the Idempotency-Key) and its ledger transaction together, with
 * its reconcile job; or the payment this key already reserved (`fresh: false`). 402 writes nothing.
 */
export async function reserveUtilityPayment(
  dependencies: UtilityDependencies,
  tenant: World,
  input: CreateUtilityPaymentInput,
  priced: PricedUtilityPayment,
  idempotencyKey: string,
): Promise<{ row: UtilityPaymentRow; fresh: boolean }> {
  const world = { ...tenant, idempotencyKey };
  return instantTransfer.reserveOnce({
    find: () => queries.utilityPaymentRows.selectByIdempotencyKey(dependencies.database, world),
    insert: () =>
      dependencies.database.transaction(async (transaction) => {
        const id = newId("utp");
        const reference = `UT${randomSecret().slice(0, 12).toUpperCase()}`;
        const amounts = {
          amount_cents: input.amount_cents,
          fee_cents: priced.feeCents,
          commission_cents: priced.commissionCents,
          currency: input.currency,
        };
        const debit = await ledger.post(transaction, {
          merchantId: tenant.merchantId,
          livemode: tenant.livemode,
          postingKey: `utility_payment:${id}:debit`,
          description: `${priced.provider.name}: ${priced.product.name} for ${input.destination_account} (${reference})`,
          source: { type: "utility_payment", id },
          postings: utilityPostings(amounts),
        });
        const inserted = await queries.insertUtilityPayment(transaction, {
          merchant_id: tenant.merchantId,
          id,
          livemode: tenant.livemode,
          idempotency_key: idempotencyKey,
          provider: priced.provider.id,
          provider_product: priced.product.code,
          ...amounts,
          destination_account: input.destination_account,
          narration: input.narration ?? null,
          additional_data: priced.additionalData,
          reference,
          debit_transaction_id: debit.transaction.id,
          leaseMs: dependencies.config.moneyOut.leaseMs,
        });
        const runAt = new Date(Date.now() + dependencies.config.moneyOut.reconcileMs);
        await instantTransfer.scheduleReconcile(transaction, reconcileJob, inserted, runAt);
        return inserted;
      }),
  });
}

/** The reconcile job of a payment, queued with its reservation and removed once it is final. */
const reconcileJob: instantTransfer.ReconcileJob<UtilityPaymentRow, typeof reconcileUtilityPaymentJob.payload> = {
  kind: reconcileUtilityPaymentJob,
  payloadOf: (row) => ({ merchant_id: row.merchant_id, utility_payment_id: row.id }),
  keyOf: (row) => `utility_payment_reconcile:${row.id}`,
};

function steps(
  dependencies: UtilityDependencies,
): instantTransfer.InstantTransferSteps<UtilityPaymentRow, UtilityPaymentCompleted> {
  const { database, config } = dependencies;
  const key = (row: UtilityPaymentRow) => ({ merchantId: row.merchant_id, id: row.id });
  const request = (row: UtilityPaymentRow) => ({
    paymentId: row.id,
    provider: row.provider,
    product: row.provider_product,
    amountCents: row.amount_cents,
    currency: row.currency,
    account: row.destination_account,
    additionalData: row.additional_data,
  });
  return {
    claim: (row) => queries.utilityPaymentRows.claimLease(database, { ...key(row), leaseMs: config.moneyOut.leaseMs }),
    recordAttempt: (row) => queries.utilityPaymentRows.recordAttempt(database, key(row)),
    release: (row) => queries.utilityPaymentRows.releaseLease(database, key(row)),
    submit: (row) =>
      gatewayOf(dependencies.gateways, row.livemode).payUtility({ ...request(row), attempt: row.attempts }),
    inquire: (row) =>
      gatewayOf(dependencies.gateways, row.livemode).inquireUtilityPayment({
        ...request(row),
        attempts: row.attempts,
        lastAttemptAt: row.last_attempt_at,
      }),
    reload: async (row) => (await queries.utilityPaymentRows.selectByKey(database, key(row))) ?? row,
  };
}

/** Pays the provider for a payment just reserved, or takes up one left unclear (asking first). */
export function proceedUtilityPayment(
  dependencies: UtilityDependencies,
  reserved: { row: UtilityPaymentRow; fresh: boolean },
) {
  return instantTransfer.proceed(steps(dependencies), reserved);
}

/** `processing → completed` with the receipt and `utility_payment.completed`, in the caller's transaction. */
export function completeUtilityPayment(
  transaction: Transaction,
  row: UtilityPaymentRow,
  outcome: TransferCompleted<UtilityPaymentCompleted>,
): Promise<UtilityPaymentRow | null> {
  return instantTransfer.recordFinal(
    transaction,
    reconcileJob,
    () =>
      queries.completeUtilityPayment(transaction, {
        merchantId: row.merchant_id,
        id: row.id,
        providerReference: outcome.gatewayReference,
        token: outcome.token,
        receipt: outcome.receipt,
        completedAt: outcome.completedAt,
      }),
    (completed) =>
      events.emit(transaction, {
        merchantId: completed.merchant_id,
        livemode: completed.livemode,
        type: "utility_payment.completed",
        data: {
          utility_payment_id: completed.id,
          provider: completed.provider,
          provider_product: completed.provider_product,
          amount_cents: completed.amount_cents,
          fee_cents: completed.fee_cents,
          commission_cents: completed.commission_cents,
          currency: completed.currency,
          destination_account: completed.destination_account,
          provider_reference: completed.provider_reference,
          token: completed.token,
          reference: completed.reference,
        },
      }),
  );
}

/** `processing → failed`: the whole ledger transaction reversed and `utility_payment.failed`. */
export async function failUtilityPayment(database: Database, row: UtilityPaymentRow, reason: string) {
  return database.transaction((transaction) =>
    instantTransfer.recordFinal(
      transaction,
      reconcileJob,
      () => queries.utilityPaymentRows.fail(transaction, { merchantId: row.merchant_id, id: row.id, reason }),
      async (failed) => {
        await ledger.reverse(transaction, {
          merchantId: failed.merchant_id,
          transactionId: failed.debit_transaction_id,
          description: `Utility payment ${failed.reference} failed: ${reason}`.slice(0, 500),
        });
        await events.emit(transaction, {
          merchantId: failed.merchant_id,
          livemode: failed.livemode,
          type: "utility_payment.failed",
          data: {
            utility_payment_id: failed.id,
            provider: failed.provider,
            amount_cents: failed.amount_cents,
            currency: failed.currency,
            reason,
            reference: failed.reference,
          },
        });
      },
    ),
  );
}

export function utilityPaymentFailedError(row: UtilityPaymentRow) {
  return invalidRequest(
    "utility_payment_failed",
    `Utility payment ${row.id} failed (${row.failure_reason ?? "refused"}); nothing was debited. Use a new Idempotency-Key to try again.`,
  );
}

export async function getUtilityPayment(database: Queryable, world: World, id: string): Promise<UtilityPaymentRow> {
  const row = await queries.utilityPaymentRows.select(database, world, id);
  if (row === null) {
    throw notFound(`No such utility payment: ${id}.`);
  }
  return row;
}

export async function reloadUtilityPayment(database: Queryable, row: UtilityPaymentRow): Promise<UtilityPaymentRow> {
  return (await queries.utilityPaymentRows.selectByKey(database, { merchantId: row.merchant_id, id: row.id })) ?? row;
}

/**
 * The reconcile job: a payment still `processing` a while after it was reserved is settled by asking
 * the provider; one it never received is failed and its money returned.
 */
export async function reconcileUtilityPayment(
  dependencies: UtilityDependencies,
  job: { merchantId: string; utilityPaymentId: string },
): Promise<UtilityPaymentRow | null> {
  const row = await queries.utilityPaymentRows.selectByKey(dependencies.database, {
    merchantId: job.merchantId,
    id: job.utilityPaymentId,
  });
  return instantTransfer.reconcile(dependencies.database, steps(dependencies), row, {
    complete: completeUtilityPayment,
    fail: failUtilityPayment,
    job: reconcileJob,
    name: (row) => `utility payment ${row.id}`,
  });
}
