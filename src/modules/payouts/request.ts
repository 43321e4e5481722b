import type { World } from "../../kernel/world.ts";
import { forbidden } from "../../platform/errors.ts";
import type { CommitWithAnswer } from "../../platform/idempotency/service.ts";
import { newId, randomSecret } from "../../platform/ids.ts";
import { currentTraceparent } from "../../platform/telemetry/trace-context.ts";
import type { MerchantRow } from "../../platform/tenant.ts";
import { ledger } from "../ledger/index.ts";
import { countTransition } from "./metrics.ts";
import type * as queries from "./queries.ts";
import type { CreatePayoutInput, PayoutRow } from "./schemas.ts";

/**
 * Requesting a payout: the request debits the balance (to payouts in transit) in the statement that
 * creates the payout, due for the processor at once, and stores the request's response, so a payout
 * exists if and only if its money left the balance; a debit beyond the balance fails on the ledger's
 * row lock (402), however many run at once.
 *
 * Error codes: `invalid_amount`, `invalid_currency` (400, the schema), `payout_destination_unverified`
 * (403), `insufficient_funds` (402, `writeRequestedPayouts`).
 */

/** The verified payout wallet, or the 403 that explains why there is none. */
export function payoutDestinationOf(merchant: Pick<MerchantRow, "payout_msisdn" | "payout_verified">): string {
  if (merchant.payout_msisdn === null || !merchant.payout_verified) {
    throw forbidden(
      "payout_destination_unverified",
      "Payouts go only to a verified payout wallet, and this account has none yet; contact support to verify it.",
    );
  }
  return merchant.payout_msisdn;
}

/** A requested payout to write with its debit and its request's answer (see `writeRequestedPayouts`). */
export type PayoutToWrite = queries.PayoutToInsert & { debit: ledger.PreparedPosting };

/**
 * `POST /v1/payouts`: the debit (payouts in transit), the payout, due for the processor at once, and
 * the request's stored answer, written by `write` (the process's batching writer,
 * `batch-writers.ts`: one statement for the requests of the moment) through `commit` (the route's
 * `answeredWrite(present).commit`, which stores the answer of the payout with it): the payout exists
 * if and only if its money left the balance and its answer is stored. A debit beyond the balance
 * fails on the balance row's lock (402, nothing written); a request that lost its key to a retry
 * writes nothing. Counted once committed; returns the payout written.
 */
export async function requestPayout(
  write: (row: PayoutToWrite) => Promise<boolean>,
  tenant: World & { merchant: MerchantRow },
  input: CreatePayoutInput,
  commit: CommitWithAnswer<PayoutRow>,
): Promise<PayoutRow> {
  const destination = payoutDestinationOf(tenant.merchant);
  const id = newId("po");
  const reference = `PO${randomSecret().slice(0, 12).toUpperCase()}`;
  const debit = requestDebit(tenant, input, { id, reference });
  const now = new Date();
  const payout: PayoutRow = {
    merchant_id: tenant.merchantId,
    id,
    livemode: tenant.livemode,
    status: "requested",
    amount_cents: input.amount_cents,
    currency: input.currency,
    destination_account: destination,
    destination_name: null,
    reference,
    gateway_reference: null,
    failure_reason: null,
    reversal_reason: null,
    request_transaction_id: debit.transactionId,
    confirm_transaction_id: null,
    submit_attempts: 0,
    last_submit_attempt_at: null,
    next_attempt_at: now,
    lease_until: null,
    submitted_at: null,
    confirmed_at: null,
    failed_at: null,
    reversed_at: null,
    created_at: now,
    updated_at: now,
  };
  const traceparent = currentTraceparent();
  await commit(payout, (response) => write({ payout: { ...payout, traceparent }, debit, response }));
  countTransition(payout);
  return payout;
}

/** The request's movement: the amount from the available balance to payouts in transit. */
function requestDebit(
  world: World,
  input: CreatePayoutInput,
  payout: { id: string; reference: string },
): ledger.PreparedPosting {
  return ledger.preparePosting({
    merchantId: world.merchantId,
    livemode: world.livemode,
    postingKey: `payout:${payout.id}:request`,
    description: `Payout ${payout.reference}`,
    source: { type: "payout", id: payout.id },
    postings: [
      {
        account: "merchant_available",
        entryType: "payout",
        currency: input.currency,
        amountCents: -input.amount_cents,
      },
      { account: "payouts_in_transit", entryType: "payout", currency: input.currency, amountCents: input.amount_cents },
    ],
  });
}
