import { CheckIntegrityConstraintViolationError } from "slonik";
import { toApiGatewayError } from "../../gateway/api-errors.ts";
import {
  type ChangeToWalletGateway,
  GatewayUnavailableError,
  gatewayOf,
  type PaymentCodeVoid,
  type PaymentGateway,
  type TransferOutcome,
} from "../../gateway/wallet-gateway.ts";
import type { Queryable } from "../../platform/db/pool.ts";
import { conflict, insufficientFunds } from "../../platform/errors.ts";
import { setLateRefundOutcome, writeLateRefund } from "./late-payments.ts";
import type { PaymentRow } from "./schemas.ts";
import { current, type PaymentDependencies, settlePayment, writeEnd } from "./service.ts";

/**
 * Cancelling a pending payment (the till's "Cancel payment", a sale's cancel, the checkout's Cancel):
 * the gateway is asked to void the code first, outside any transaction; then the guarded end
 * `pending → cancelled` (`writeEnd`: `payment.cancelled` and the hooks' part, a wallet sale
 * cancelled with nothing moved) races any settlement in SQL, and exactly one wins. Idempotent: a
 * cancelled payment is answered as it is. A paid (or otherwise ended) payment answers 409
 * `payment_not_pending`; a gateway that says the code was paid first settles it and answers the same.
 * A gateway that cannot void (down, or unable) does not stop the cancellation: the payment is
 * cancelled with `void_state: unconfirmed`, and a payment that still arrives is a late payment.
 */
export async function cancelPayment(dependencies: PaymentDependencies, payment: PaymentRow): Promise<PaymentRow> {
  if (payment.status === "cancelled") {
    return payment;
  }
  if (payment.status !== "pending") {
    throw notCancellable(payment);
  }
  const voided = await askVoid(dependencies, payment);
  if (voided.state === "paid") {
    throw notCancellable(
      await settlePayment(dependencies, payment, { paidAt: voided.paidAt, payerMsisdn: voided.payerMsisdn }),
    );
  }
  const cancelled = await writeEnd(dependencies, payment, {
    status: "cancelled",
    voidState: voided.state === "voided" ? "voided" : "unconfirmed",
  });
  if (cancelled !== null) {
    return cancelled;
  }
  const now = await current(dependencies.database, payment);
  if (now.status === "cancelled") {
    return now;
  }
  throw notCancellable(now);
}

const notCancellable = (payment: PaymentRow) =>
  conflict("payment_not_pending", `The payment is already ${payment.status}: it can no longer be cancelled.`);

async function askVoid(dependencies: PaymentDependencies, payment: PaymentRow): Promise<PaymentCodeVoid> {
  try {
    return await gatewayOf(dependencies.gateways, payment.livemode).voidPaymentCode({
      paymentId: payment.id,
      code: payment.code,
      amountCents: payment.amount_cents,
      issuedAt: payment.created_at,
    });
  } catch (error) {
    if (!(error instanceof GatewayUnavailableError)) {
      throw error;
    }
    // The cashier must be able to change the basket now; whether the code was voided is watched
    // for (a payment that arrives is recorded as late, never lost).
    dependencies.logger.warn({ payment_id: payment.id, err: error }, "gateway void failed; cancelling unconfirmed");
    return { state: "unsupported" };
  }
}

/**
 * The one-click refund of a late payment: back to the payer's wallet when the payer is known and
 * the gateway takes the transfer, else flagged for a cash refund. The wallet refund's debit of the
 * merchant's balance is written first (guarded on `late_refund = 'due'`, so a second click moves
 * nothing; a balance too low answers 402 with nothing sent), then the transfer is sent, idempotent on
 * `lrf_<payment id>`: a retry after an unclear answer sends it again without paying twice. A transfer
 * the gateway refuses leaves the debit in place and flags the refund for cash, as the money is owed
 * to the payer either way. 409 `no_late_payment` when the payment has none.
 */
export async function refundLatePayment(dependencies: PaymentDependencies, payment: PaymentRow): Promise<PaymentRow> {
  if (payment.late_refund === null) {
    throw conflict("no_late_payment", "This payment has no late payment to refund.");
  }
  let refunding = payment;
  if (payment.late_refund === "due") {
    const method = payment.payer_msisdn === null ? "cash" : "wallet";
    refunding =
      (await takeRefund(dependencies.database, payment, method)) ?? (await current(dependencies.database, payment));
  }
  if (
    refunding.late_refund !== "wallet" ||
    refunding.late_refund_reference !== null ||
    refunding.payer_msisdn === null
  ) {
    return refunding;
  }
  const gateway: PaymentGateway & Partial<ChangeToWalletGateway> = gatewayOf(dependencies.gateways, refunding.livemode);
  let outcome: TransferOutcome<unknown>;
  try {
    // A gateway without transfers cannot send it back: the refund is flagged for cash.
    outcome =
      gateway.sendChangeToWallet === undefined
        ? { state: "rejected", reason: "the gateway takes no transfers" }
        : await gateway.sendChangeToWallet({
            transferId: `lrf_${refunding.id}`,
            amountCents: refunding.amount_cents,
            currency: refunding.currency,
            destinationMsisdn: refunding.payer_msisdn,
            narration: `Refund ${refunding.reference}`,
            attempt: 1,
          });
  } catch (error) {
    throw toApiGatewayError(error);
  }
  return (
    (await setLateRefundOutcome(
      dependencies.database,
      refunding,
      outcome.state === "completed" ? { method: "wallet", reference: outcome.gatewayReference } : { method: "cash" },
    )) ?? (await current(dependencies.database, refunding))
  );
}

async function takeRefund(database: Queryable, payment: PaymentRow, method: "wallet" | "cash") {
  try {
    return await writeLateRefund(database, payment, method);
  } catch (error) {
    if (error instanceof CheckIntegrityConstraintViolationError) {
      throw insufficientFunds("The balance no longer covers the refund; nothing was sent.");
    }
    throw error;
  }
}
