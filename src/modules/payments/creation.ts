import type { FragmentSqlToken } from "slonik";
import { UniqueIntegrityConstraintViolationError } from "slonik";
import { toApiGatewayError } from "../../gateway/api-errors.ts";
import { CodeCollisionError, withFreshCodes } from "../../gateway/code-collisions.ts";
import type { PaymentGateway } from "../../gateway/wallet-gateway.ts";
import type { World } from "../../kernel/world.ts";
import type { Config } from "../../platform/config.ts";
import type { Queryable } from "../../platform/db/pool.ts";
import type { CommitWithAnswer } from "../../platform/idempotency/service.ts";
import { newId, randomSecret } from "../../platform/ids.ts";
import { currentTraceparent } from "../../platform/telemetry/trace-context.ts";
import type { MerchantRow } from "../../platform/tenant.ts";
import { gatewayOf, type PaymentDependencies } from "./dependencies.ts";
import { paymentsTotal } from "./metrics.ts";
import * as queries from "./queries.ts";
import { type CreatePaymentInput, NOT_CANCELLED, type PaymentRow } from "./schemas.ts";

/**
 * A payment's creation: prepared outside any transaction (the gateway issues its code), then written
 * pending, alone with its stored answer (`POST /v1/payments`) or in another module's statement (a
 * wallet sale's, `pendingPaymentsInsert`).
 */

/** The merchant's fee: `fee_bps` of the amount rounded half up, plus the fixed part, at most the amount. */
export function feeCents(amountCents: number, merchant: Pick<MerchantRow, "fee_bps" | "fee_fixed_cents">): number {
  const proportional = Math.floor((amountCents * merchant.fee_bps + 5000) / 10_000);
  return Math.min(amountCents, proportional + merchant.fee_fixed_cents);
}

export type PreparedPayment = Awaited<ReturnType<typeof preparePayment>>;

/**
 * Phase one of creation, outside any database transaction: the gateway issues the code (a slow
 * external call must not hold a transaction), and the QR image of the deep link is drawn. The
 * payment's times are the API's clock: the whole pending row, and so the response, is known before
 * it is written.
 */
export async function preparePayment(
  dependencies: PaymentDependencies,
  tenant: World & { merchant: MerchantRow },
  input: CreatePaymentInput,
) {
  const id = newId("pay");
  const createdAt = new Date();
  const expiresAt = new Date(createdAt.getTime() + dependencies.config.paymentCodeWindowMs);
  let issued: Awaited<ReturnType<PaymentGateway["issuePaymentCode"]>>;
  try {
    issued = await gatewayOf(dependencies.gateways, tenant.livemode).issuePaymentCode({
      paymentId: id,
      amountCents: input.amount_cents,
      currency: input.currency,
      merchantName: tenant.merchant.name,
      narration: input.narration ?? null,
      expiresAt,
    });
  } catch (error) {
    throw toApiGatewayError(error);
  }
  return {
    id,
    input,
    issued,
    feeCents: feeCents(input.amount_cents, tenant.merchant),
    reference: `PR${randomSecret().slice(0, 12).toUpperCase()}`,
    createdAt,
    expiresAt,
    firstPollAt: firstPollAtOf(dependencies.config, { created_at: createdAt, expires_at: expiresAt }),
  };
}

/** The poller's first inquiry: the schedule's first delay after creation, unless the window closes first. */
export function firstPollAtOf(config: Config, payment: Pick<PaymentRow, "created_at" | "expires_at">): Date | null {
  const firstPollAt = new Date(payment.created_at.getTime() + (config.payment.pollScheduleMs[0] ?? 2000));
  return firstPollAt < payment.expires_at ? firstPollAt : null;
}

/** The row a prepared payment becomes once written. */
export function pendingRowOf(tenant: World, prepared: PreparedPayment): PaymentRow {
  return {
    merchant_id: tenant.merchantId,
    id: prepared.id,
    livemode: tenant.livemode,
    status: "pending",
    amount_cents: prepared.input.amount_cents,
    currency: prepared.input.currency,
    fee_cents: prepared.feeCents,
    narration: prepared.input.narration ?? null,
    merchant_ref: prepared.input.merchant_ref ?? null,
    metadata: prepared.input.metadata ?? {},
    success_url: prepared.input.success_url ?? null,
    cancel_url: prepared.input.cancel_url ?? null,
    reference: prepared.reference,
    code: prepared.issued.code,
    gateway_reference: prepared.issued.gatewayReference,
    expires_at: prepared.expiresAt,
    paid_at: null,
    payer_msisdn: null,
    failure_reason: null,
    last_inquiry_at: null,
    inquiry_count: 0,
    created_at: prepared.createdAt,
    updated_at: prepared.createdAt,
    ...NOT_CANCELLED,
  };
}

/** A pending payment to insert in another module's statement (`pendingPaymentsInsert`). */
export type PendingPaymentToInsert = queries.PendingPaymentToInsert;

/**
 * Phase two for a caller whose request is one statement (a wallet sale, `POST /v1/sales`): the
 * prepared payment's row to insert, with its first poll time and the request's trace, for
 * `pendingPaymentsInsert`. A code still live for another payment fails the caller's statement:
 * `codeCollisionOf` tells the caller, which prepares again with a fresh code (`withFreshCodes`).
 */
export function pendingPaymentOf(tenant: World, prepared: PreparedPayment): PendingPaymentToInsert {
  return {
    payment: pendingRowOf(tenant, prepared),
    firstPollAt: prepared.firstPollAt,
    traceparent: currentTraceparent(),
  };
}

/**
 * Pending payments' insert as a common table expression of the caller's statement (wallet sales'),
 * each written only when `when(paymentId)` holds, returning the ids written.
 */
export function pendingPaymentsInsert(
  rows: readonly PendingPaymentToInsert[],
  when: (paymentId: FragmentSqlToken) => FragmentSqlToken,
): FragmentSqlToken {
  return queries.insertPaymentsWhen(rows, when);
}

/**
 * The `CodeCollisionError` of a statement with `pendingPaymentsInsert`'s insert that failed because
 * `payment`'s code is still payable for another payment of its world (or, far less likely, its
 * random id or reference exists): the caller prepares it again, as `insertPendingPayments` does;
 * null for any other failure.
 */
export function codeCollisionOf(error: unknown, payment: Pick<PaymentRow, "code">): CodeCollisionError | null {
  return error instanceof UniqueIntegrityConstraintViolationError &&
    queries.PAYMENT_UNIQUE_KEYS.has(error.constraint ?? "")
    ? new CodeCollisionError(payment.code)
    : null;
}

/**
 * Creates a pending payment: prepares it and hands its row to `write`, whose result it returns; a
 * code still live for another payment is replaced by a fresh one (`withFreshCodes`).
 */
export async function createPendingPayment<T>(
  dependencies: PaymentDependencies,
  tenant: World & { merchant: MerchantRow },
  input: CreatePaymentInput,
  write: (payment: PaymentRow) => Promise<T>,
): Promise<T> {
  return withFreshCodes(dependencies.logger, async () =>
    write(pendingRowOf(tenant, await preparePayment(dependencies, tenant, input))),
  );
}

/**
 * `POST /v1/payments`: a pending payment (a fresh code when one collides), written with its stored
 * answer in one statement by `write` (the process's batching writer, `payment-writer.ts`) through
 * `commit` (the route's: the answer is made from the payment), so the row, its first poll time and the
 * answer commit in one round trip, enqueuing no job; counted once committed (a replayed answer does
 * not come through here).
 */
export async function createPayment(
  dependencies: PaymentDependencies & { write: (row: queries.PaymentToInsert) => Promise<boolean> },
  tenant: World & { merchant: MerchantRow },
  input: CreatePaymentInput,
  commit: CommitWithAnswer<PaymentRow>,
): Promise<PaymentRow> {
  const traceparent = currentTraceparent();
  const created = await createPendingPayment(dependencies, tenant, input, async (payment) => {
    await commit(payment, (response) =>
      dependencies.write({
        payment,
        response,
        firstPollAt: firstPollAtOf(dependencies.config, payment),
        traceparent,
      }),
    );
    return payment;
  });
  paymentsTotal.inc({ event: "created", livemode: String(tenant.livemode), currency: input.currency });
  return created;
}

/**
 * Inserts pending payments, each with its idempotent response when it has one; answers for each: written, not written (its request no longer
 * owns its key), or its own error. A code already payable for another payment of the world fails the
 * statement, which wrote nothing: the payments are written again one per statement, and only the
 * colliding one answers `CodeCollisionError`.
 */
export async function insertPendingPayments(
  database: Queryable,
  rows: readonly queries.PaymentToInsert[],
): Promise<(boolean | Error)[]> {
  try {
    const inserted = await queries.insertPayments(database, rows);
    return rows.map((row) => inserted.has(row.payment.id));
  } catch (error) {
    if (!(error instanceof UniqueIntegrityConstraintViolationError)) {
      throw error;
    }
    if (rows.length === 1) {
      return [new CodeCollisionError(rows[0]?.payment.code ?? "")];
    }
    const alone = await Promise.all(rows.map((row) => insertPendingPayments(database, [row])));
    return alone.flat();
  }
}
