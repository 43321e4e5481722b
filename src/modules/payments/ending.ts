import { conflict, forbidden } from "../../platform/errors.ts";
import type { EventType } from "../events/index.ts";
import { events } from "../events/index.ts";
import type { PaymentEnding } from "./dependencies.ts";
import { lateObservable, recordLatePayment } from "./late-payments.ts";
import { paymentsTotal } from "./metrics.ts";
import { type PaymentObservedPaid, paidEventData, paymentEndWriterOf } from "./payment-ends.ts";
import type * as queries from "./queries.ts";
import { current, getPaymentById } from "./reading.ts";
import type { PaymentRow } from "./schemas.ts";

/**
 * A pending payment's end (`pending → paid | expired | failed`), exactly once whoever observed it:
 * the guarded update, its event and what the hooks attach, written with the other ends of the moment
 * (`payment-ends.ts`); mockpay's chosen end for a test payment.
 */

/**
 * mockpay (the checkout's test button): a pending test payment is settled now, or expired when the
 * payer chose that outcome; a live payment is refused (403), a final one too (409). A mockpay that
 * loses the guarded update to another observer (another mockpay, the poller, the expiry) is answered
 * as if it had come after it, 409: the payer asked for an outcome that did not happen, and the
 * winner's outcome may not be the one asked for.
 */
export async function finishTestPayment(
  ending: PaymentEnding,
  paymentId: string,
  outcome: "paid" | "expired",
): Promise<PaymentRow> {
  const payment = await getPaymentById(ending.database, paymentId);
  if (payment.livemode) {
    throw forbidden("test_mode_only", "mockpay settles test payments only.");
  }
  if (payment.status !== "pending") {
    throw notPending(payment);
  }
  const ended = await writeEnd(
    ending,
    payment,
    outcome === "expired"
      ? { status: "expired", onlyWhenDue: false }
      : { status: "paid", paidAt: new Date(), payerMsisdn: null },
  );
  if (ended === null) {
    throw notPending(await current(ending.database, payment));
  }
  return ended;
}

const notPending = (payment: PaymentRow) =>
  conflict("payment_not_pending", `The payment is already ${payment.status}.`);

/**
 * `pending → paid`, exactly once whoever observed the payment paid (poller, GET, callback, mockpay);
 * the loser reads the payment as it now stands. Written with the other ends of the moment
 * (`paymentEndWriterOf`): the guarded update, then, only if it won, `payment.paid`, what the hooks
 * attach (a wallet sale completes) and the ledger movement (gateway clearing to the merchant's
 * balance, less the fee to the platform), whose postings come last: they lock the merchant's balance
 * rows until the commit, the statement's own end.
 */
export async function settlePayment(
  ending: PaymentEnding,
  payment: PaymentRow,
  observation: PaymentObservedPaid,
): Promise<PaymentRow> {
  const settled = await writeEnd(ending, payment, { status: "paid", ...observation });
  if (settled !== null) {
    return settled;
  }
  // Someone cancelled or expired it first, yet the payer paid: recorded as a late payment, never lost.
  const now = await current(ending.database, payment);
  return lateObservable(now) ? recordLatePayment(ending.database, now, observation) : now;
}

const END_EVENT_TYPES = {
  paid: "payment.paid",
  expired: "payment.expired",
  failed: "payment.failed",
  cancelled: "payment.cancelled",
} as const satisfies Record<queries.PaymentEnd["status"], EventType>;

/**
 * A pending payment's end (`outcome`), exactly once whoever observed it; a payment no longer pending
 * (or, an expiry, not yet due) is read as it now stands.
 */
async function endPayment(
  ending: PaymentEnding,
  payment: PaymentRow,
  outcome: queries.PaymentEnd,
): Promise<PaymentRow> {
  return (await writeEnd(ending, payment, outcome)) ?? current(ending.database, payment);
}

/**
 * Writes a pending payment's end with the other ends of the moment (`paymentEndWriterOf`): the
 * guarded update, then, only if it won, its event (`payment.<status>`) and what the
 * hooks attach. Counted once committed. Null when it lost: the payment was no longer pending (or, an
 * expiry, not yet due), or another end of the same moment was chosen.
 */
export async function writeEnd(
  ending: PaymentEnding,
  payment: PaymentRow,
  outcome: queries.PaymentEnd,
): Promise<PaymentRow | null> {
  const ended = await paymentEndWriterOf(
    ending.database,
    ending.paymentHooks,
  )({
    payment,
    outcome,
    event: events.prepareEvent({
      merchantId: payment.merchant_id,
      livemode: payment.livemode,
      type: END_EVENT_TYPES[outcome.status],
      data: outcome.status === "paid" ? paidEventData(payment) : unpaidEventData(payment),
    }),
  });
  if (ended !== null) {
    paymentsTotal.inc({ event: outcome.status, livemode: String(payment.livemode), currency: payment.currency });
  }
  return ended;
}

/** `pending → expired`: the event, no ledger movement. */
export async function expirePayment(
  ending: PaymentEnding,
  payment: PaymentRow,
  options: { onlyWhenDue: boolean },
): Promise<PaymentRow> {
  return endPayment(ending, payment, { status: "expired", onlyWhenDue: options.onlyWhenDue });
}

/** `pending → failed` when the gateway reports the code unusable. */
export async function failPayment(ending: PaymentEnding, payment: PaymentRow, reason: string): Promise<PaymentRow> {
  return endPayment(ending, payment, { status: "failed", failureReason: reason });
}

const unpaidEventData = (payment: PaymentRow) => ({ payment_id: payment.id, merchant_ref: payment.merchant_ref });
