import { UniqueIntegrityConstraintViolationError } from "slonik";
import { toApiGatewayError } from "../../gateway/api-errors.ts";
import { CodeCollisionError } from "../../gateway/code-collisions.ts";
import {
  GatewayUnavailableError,
  gatewayOf,
  type WalletGateway,
  type WithdrawalCodeStatus,
} from "../../gateway/wallet-gateway.ts";
import type { World } from "../../kernel/world.ts";
import type { Config } from "../../platform/config.ts";
import type { Database, Queryable, Transaction } from "../../platform/db/pool.ts";
import { conflict, forbidden, notFound } from "../../platform/errors.ts";
import { newId, randomSecret } from "../../platform/ids.ts";
import { qrPngDataUrl } from "../../platform/qr/index.ts";
import type { PumpItem } from "../../platform/queue/due-pump.ts";
import { claimDueRows } from "../../platform/queue/due-rows.ts";
import { currentTraceparent } from "../../platform/telemetry/trace-context.ts";
import type { MerchantRow } from "../../platform/tenant.ts";
import { events } from "../events/index.ts";
import { ledger } from "../ledger/index.ts";
import type { AgentDependencies } from "./dependencies.ts";
import * as queries from "./queries.ts";
import type { CreateWithdrawalInput, WithdrawalRow } from "./schemas.ts";

/**
 * Withdrawal codes: the merchant as a cash-out agent. The gateway issues a code (and its QR is drawn);
 * the customer claims it in their wallet and the merchant hands over cash, its balance credited.
 *
 * Invariants:
 * - a withdrawal code moves money once, when redeemed: `pending → redeemed` (balance credited from
 *   gateway clearing, `withdrawal.redeemed`) or `pending → expired` (nothing moved), each by a guarded
 *   UPDATE, so a redemption racing the expiry has exactly one outcome; an expiry is decided only after
 *   a last inquiry of the gateway, so a code claimed in its last second is redeemed;
 * - test codes are claimed only through the claim hook (the sandbox never reports a claim), which
 *   acts as the network would: not after the code's expiry;
 * - pending codes are polled and expired by pumps (`claimDueWithdrawalPolls`, `claimDueWithdrawalExpiries`),
 *   as payments are: a code costs no job of its own, and two replicas never claim the same poll or
 *   expiry (`src/platform/db/due-claims.ts`).
 *
 * Error codes: `invalid_amount`, `invalid_currency` (400), `test_mode_only` (403), `resource_missing`
 * (404), `withdrawal_code_not_pending` (409), `gateway_error`, `code_generation_failed` (502).
 */

export function withdrawalDeepLinkOf(config: Config, code: string): string {
  return `${config.moneyOut.withdrawalDeepLinkPrefix}${code}`;
}

/** The QR image of a code's deep link, drawn when the code is shown (not stored). */
export function withdrawalQrPngDataUrlOf(config: Config, code: string): string {
  return qrPngDataUrl(withdrawalDeepLinkOf(config, code));
}

export type PreparedWithdrawal = Awaited<ReturnType<typeof prepareWithdrawal>>;

/** Phase one, outside any transaction: the gateway issues the code. */
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
  return { id, input, issued };
}

/**
 * Phase two, in the request's transaction: the code, with its first poll time (the poll schedule's
 * first delay, none if that is not before its expiry) and the request's trace. No job: the batch jobs
 * find it by `next_poll_at` and `expires_at`. A code still pending for another withdrawal throws
 * `CodeCollisionError`.
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
      expiresInMs: config.moneyOut.withdrawalCodeWindowMs,
      firstPollInMs: config.payment.pollScheduleMs[0] ?? 30_000,
      traceparent: currentTraceparent(),
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
  return withdrawal;
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
 * nothing, except under `force` (the expiry's last inquiry), where it throws so the expiry is tried
 * again after its backoff.
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
  return inquireClaimed(dependencies, claimed, options);
}

/** Asks the gateway about a code whose inquiry was claimed, and applies the answer. */
async function inquireClaimed(
  dependencies: AgentDependencies,
  claimed: WithdrawalRow,
  options: { force?: boolean },
): Promise<WithdrawalRow> {
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
    // Past its expiry: the network refuses the claim, and the code expires now rather than at its batch's claim.
    now = await expireWithdrawal(dependencies.database, now, { onlyWhenDue: true });
  }
  throw conflict("withdrawal_code_not_pending", `Withdrawal code ${id} is ${now.status}; it cannot be claimed.`);
}

/**
 * The gateway-poller's claim (`claimDueRows`): up to `limit` codes whose poll is due (on the
 * payments' poll schedule, none after a code's expiry), each an item that asks about it; a redeemed
 * one is credited.
 */
export async function claimDueWithdrawalPolls(
  dependencies: AgentDependencies,
  limit: number,
): Promise<readonly PumpItem[]> {
  return claimDueRows(dependencies, queries.DUE_WITHDRAWALS, "poll", limit, (withdrawal) =>
    inquireClaimed(dependencies, withdrawal, {}),
  );
}

/**
 * The code-expiry pool's claim (`claimDueRows`): up to `limit` pending codes past their expiry. One
 * last, unthrottled inquiry decides each: claimed in the last second is redeemed; otherwise the code
 * expires with nothing moved. A gateway that cannot answer leaves the code pending, claimed again
 * after its backoff: never an expiry by guesswork.
 */
export async function claimDueWithdrawalExpiries(
  dependencies: AgentDependencies,
  limit: number,
): Promise<readonly PumpItem[]> {
  return claimDueRows(dependencies, queries.DUE_WITHDRAWALS, "expiry", limit, async (withdrawal) => {
    const refreshed = await inquireClaimed(dependencies, withdrawal, { force: true });
    return refreshed.status === "pending"
      ? expireWithdrawal(dependencies.database, refreshed, { onlyWhenDue: true })
      : refreshed;
  });
}
