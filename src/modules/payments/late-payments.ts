import type { Queryable } from "../../platform/db/pool.ts";
import { events } from "../events/index.ts";
import { ledger } from "../ledger/index.ts";
import * as queries from "./late-payment-queries.ts";
import { type PaymentObservedPaid, paidEventData, settlementPosting } from "./payment-ends.ts";
import type { PaymentRow } from "./schemas.ts";

/**
 * Money that arrives for a code the platform no longer waits for (cancelled, or expired): the payer
 * paid, so it is never dropped. One statement records it exactly once, whoever observed it: the
 * guarded update (`late_paid_at` still unset) sets the payer and a refund due, and only if it won,
 * `payment.late_paid` and the same credit as a settlement (posting key `payment:<id>:settle`, unique
 * per merchant: a second credit is impossible even beside a settlement). The payment keeps its status
 * and its sale stays cancelled: the goods were not sold; the merchant refunds the payer
 * (`refund_late`). Returns the payment as it now stands (unchanged when it was recorded before).
 */
export async function recordLatePayment(
  database: Queryable,
  payment: PaymentRow,
  observation: PaymentObservedPaid,
): Promise<PaymentRow> {
  const event = events.prepareEvent({
    merchantId: payment.merchant_id,
    livemode: payment.livemode,
    type: "payment.late_paid",
    data: {
      ...paidEventData(payment),
      status: payment.status,
      paid_at: observation.paidAt.toISOString(),
      payer_msisdn: observation.payerMsisdn,
    },
  });
  const posting = ledger.preparePosting({
    ...settlementPosting(payment),
    description: `Late payment ${payment.reference}`,
  });
  const recorded = await queries.updateLatePaid(database, payment, observation, (gate) => ({
    event: events.emitEachWhen([{ event, subject: payment.id }], () => gate),
    posting: ledger.postingCtes([posting], gate),
  }));
  return recorded ?? (await queries.selectPaymentByKey(database, payment)) ?? payment;
}

/**
 * How long after its code window a cancelled payment whose void was not confirmed is still asked
 * about: a payment made in the window's last moments reaches the gateway's books a little later.
 */
const UNCONFIRMED_VOID_WATCH_MS = 60_000;

/** A cancelled payment whose code a payer may still pay: refreshing it asks the gateway (throttled). */
export function watchingUnconfirmedVoid(payment: PaymentRow): boolean {
  return (
    payment.status === "cancelled" &&
    payment.void_state === "unconfirmed" &&
    payment.late_paid_at === null &&
    Date.now() < payment.expires_at.getTime() + UNCONFIRMED_VOID_WATCH_MS
  );
}

/** Whether the payment's status leaves room for a late payment (a payer may still pay its code). */
export const lateObservable = (payment: PaymentRow): boolean =>
  (payment.status === "cancelled" || payment.status === "expired") && payment.late_paid_at === null;

/**
 * Takes a late refund: `due → wallet | cash`, once (guarded on `due`), with the refund's debit of the
 * merchant's balance when it goes back to the payer's wallet (posting key `payment:<id>:late_refund`;
 * the balance check refuses it when the balance no longer covers it). Null when already taken.
 */
export async function writeLateRefund(
  database: Queryable,
  payment: PaymentRow,
  method: "wallet" | "cash",
): Promise<PaymentRow | null> {
  return queries.updateLateRefund(
    database,
    payment,
    method,
    method === "wallet" ? (gate) => ledger.postingCtes([lateRefundPosting(payment)], gate) : null,
  );
}

/**
 * The refund's movement: the late credit undone (the merchant's net and the platform's fee back to
 * gateway clearing, which pays the payer the whole amount), so that a late payment costs the merchant
 * nothing and the balance it credited always covers it unless paid out since.
 */
function lateRefundPosting(payment: PaymentRow) {
  const settlement = settlementPosting(payment);
  return ledger.preparePosting({
    ...settlement,
    postingKey: `payment:${payment.id}:late_refund`,
    description: `Refund of late payment ${payment.reference}`,
    // Credits before debits: the database applies each to its balance in turn.
    postings: settlement.postings
      .map((posting) => ({ ...posting, amountCents: -posting.amountCents }))
      .sort((a, b) => b.amountCents - a.amountCents),
  });
}

/**
 * The wallet refund's answer: sent (the gateway's reference), or refused: flagged for cash, and the
 * refund's debit undone (posting key `payment:<id>:late_refund_undone`), as the merchant now hands
 * the money back from the drawer. Once: guarded on a wallet refund without a reference.
 */
export async function setLateRefundOutcome(
  database: Queryable,
  payment: PaymentRow,
  outcome: { method: "wallet"; reference: string } | { method: "cash" },
): Promise<PaymentRow | null> {
  return queries.updateLateRefundOutcome(
    database,
    payment,
    outcome,
    outcome.method === "cash"
      ? (gate) =>
          ledger.postingCtes(
            [
              ledger.preparePosting({
                ...settlementPosting(payment),
                postingKey: `payment:${payment.id}:late_refund_undone`,
                description: `Refund of late payment ${payment.reference} refused: to refund in cash`,
              }),
            ],
            gate,
          )
      : null,
  );
}
