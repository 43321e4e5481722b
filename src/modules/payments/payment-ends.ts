import { batchPerTurn, writeInKeyOrder, writeTogetherOrAlone } from "../../platform/db/batch-per-turn.ts";
import type { Database } from "../../platform/db/pool.ts";
import { events } from "../events/index.ts";
import { ledger } from "../ledger/index.ts";
import { afterEndsCommitted, type EndEffects, endEffects, type PaymentHooks } from "./hooks.ts";
import { endsPerStatement } from "./metrics.ts";
import * as queries from "./queries.ts";
import type { PaymentRow } from "./schemas.ts";

/**
 * Payments' ends (paid, expired, failed) written with the other ends of their moment
 * (`paymentEndWriterOf`), and what a settlement writes besides the payment's change and what the
 * hooks attach: the `payment.paid` event's data, and the movement from gateway clearing to the
 * merchant, less the fee to the platform.
 */

export type PaymentObservedPaid = { paidAt: Date; payerMsisdn: string | null };

export function paidEventData(payment: PaymentRow): Record<string, unknown> {
  return {
    payment_id: payment.id,
    amount_cents: payment.amount_cents,
    currency: payment.currency,
    fee_cents: payment.fee_cents,
    merchant_ref: payment.merchant_ref,
    reference: payment.reference,
  };
}

/** A settlement's movement: the amount from gateway clearing to the merchant, the fee on to the platform. */
export function settlementPosting(payment: PaymentRow): ledger.PostingRequest {
  const fee = payment.fee_cents;
  return {
    merchantId: payment.merchant_id,
    livemode: payment.livemode,
    postingKey: `payment:${payment.id}:settle`,
    description: `Payment ${payment.reference}`,
    source: { type: "payment", id: payment.id },
    postings: [
      {
        account: "gateway_clearing",
        entryType: "payment",
        currency: payment.currency,
        amountCents: -payment.amount_cents,
      },
      {
        account: "merchant_available",
        entryType: "payment",
        currency: payment.currency,
        amountCents: payment.amount_cents,
      },
      ...(fee > 0
        ? [
            { account: "merchant_available", entryType: "fee", currency: payment.currency, amountCents: -fee } as const,
            { account: "platform_fees", entryType: "fee", currency: payment.currency, amountCents: fee } as const,
          ]
        : []),
    ],
  };
}

/** A pending payment's end as observed, its event made in the span of whoever observed it. */
export type EndToWrite = { payment: PaymentRow; outcome: queries.PaymentEnd; event: events.PreparedEvent };

/** Ends a payment with the others of its moment; its row as ended, or null if it was no longer pending (or not yet due). */
export type PaymentEndWriter = (end: EndToWrite) => Promise<PaymentRow | null>;

const writers = new WeakMap<Database, WeakMap<PaymentHooks, PaymentEndWriter>>();

/**
 * The process's writer of payments' ends on `database` with `hooks`: the ends of one turn of the
 * event loop (a poller's answers, an expiry pass, callbacks) in one statement, one commit and one WAL
 * flush (`queries.endPaymentsStatement`), with what the hooks attach to them (a wallet sale completed
 * or cancelled), each still guarded, so that whoever observed a payment's end first writes it and the
 * others change nothing. A statement the database refuses is written again one end per statement, so
 * only the end at fault fails (`writeTogetherOrAlone`).
 */
export function paymentEndWriterOf(database: Database, hooks: PaymentHooks): PaymentEndWriter {
  let ofDatabase = writers.get(database);
  if (ofDatabase === undefined) {
    ofDatabase = new WeakMap();
    writers.set(database, ofDatabase);
  }
  let writer = ofDatabase.get(hooks);
  if (writer === undefined) {
    writer = batchPerTurn((ends) => writeEnds(database, hooks, ends));
    ofDatabase.set(hooks, writer);
  }
  return writer;
}

async function writeEnds(
  database: Database,
  hooks: PaymentHooks,
  ends: readonly EndToWrite[],
): Promise<(PaymentRow | null | Error)[]> {
  // A payment whose end was observed twice in one moment ends once: paid if any observation says so
  // (its money moved), otherwise as first observed; the other observations lost.
  const chosenIndexOf = new Map<string, number>();
  ends.forEach((end, index) => {
    const chosen = chosenIndexOf.get(end.payment.id);
    if (chosen === undefined || (end.outcome.status === "paid" && ends[chosen]?.outcome.status !== "paid")) {
      chosenIndexOf.set(end.payment.id, index);
    }
  });
  // In key order, so that statements running side by side take the rows they share (payments,
  // balances) in the same order.
  const distinct = [...chosenIndexOf.values()].map((index) => ends[index] as EndToWrite);
  const ended = await writeInKeyOrder(
    distinct,
    ({ payment }) => ({ merchantId: payment.merchant_id, id: payment.id }),
    (ordered) => writeTogetherOrAlone(ordered, (some) => endTogether(database, hooks, some)),
  );
  const endedOf = new Map(distinct.map((end, position) => [end.payment.id, ended[position] ?? null]));
  return ends.map((end, index) =>
    chosenIndexOf.get(end.payment.id) === index ? (endedOf.get(end.payment.id) ?? null) : null,
  );
}

/**
 * One statement for distinct payments, in the order given (`writeEnds` orders them), with what the
 * hooks attach (read once for the settlements and once for the unpaid ends). An end alone is written
 * by the statement of one payment's end, which costs the database about 2 ms of CPU for a
 * settlement against 2.5 ms for the batch's statement with one (and 0.7–1.0 ms per settlement with
 * sixteen), measured on one connection.
 */
async function endTogether(
  database: Database,
  hooks: PaymentHooks,
  ends: readonly EndToWrite[],
): Promise<(PaymentRow | null)[]> {
  endsPerStatement.observe(ends.length);
  const settled = ends.filter(({ outcome }) => outcome.status === "paid").map(({ payment }) => payment);
  const unpaid = ends.filter(({ outcome }) => outcome.status !== "paid").map(({ payment }) => payment);
  const effects = [
    ...(settled.length === 0 ? [] : await endEffects(hooks, database, settled, "paid")),
    ...(unpaid.length === 0 ? [] : await endEffects(hooks, database, unpaid, "unpaid")),
  ];
  const [alone] = ends;
  const ended =
    ends.length === 1 && alone !== undefined
      ? [await endAlone(database, alone, effects)]
      : await queries.endPaymentsStatement(
          database,
          ends.map(({ payment, outcome }) => ({ merchantId: payment.merchant_id, id: payment.id, outcome })),
          {
            events: events.emitEachWhen(
              ends.map(({ payment, event }) => ({ event, subject: payment.id })),
              queries.ENDED_IN_BATCH,
            ),
            effects,
            ledger: ledger.postingCtes(
              settled.map((payment) => ledger.preparePosting(settlementPosting(payment))),
              queries.POSTING_ENDED_IN_BATCH,
            ),
          },
        );
  afterEndsCommitted(effects, new Set(ended.flatMap((payment) => (payment === null ? [] : [payment.id]))));
  return ended;
}

async function endAlone(
  database: Database,
  { payment, outcome, event }: EndToWrite,
  effects: readonly EndEffects[],
): Promise<PaymentRow | null> {
  return queries.endPaymentStatement(database, {
    merchantId: payment.merchant_id,
    id: payment.id,
    outcome,
    event: events.emitEachWhen([{ event, subject: payment.id }], () => queries.ENDED),
    effects,
    ledger:
      outcome.status === "paid"
        ? ledger.postingCtes([ledger.preparePosting(settlementPosting(payment))], queries.ENDED)
        : null,
  });
}
