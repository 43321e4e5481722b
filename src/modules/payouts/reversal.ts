import type { Database } from "../../platform/db/pool.ts";
import { conflict } from "../../platform/errors.ts";
import { events } from "../events/index.ts";
import { ledger } from "../ledger/index.ts";
import { countTransition } from "./metrics.ts";
import * as queries from "./queries.ts";
import { currentPayout, getPayoutById } from "./reading.ts";
import type { PayoutRow } from "./schemas.ts";

/**
 * An operator reverses a confirmed payout (the platform took the money back from the wallet): both
 * of its ledger transactions are reversed, so exactly its amount returns to the balance, and
 * `payout.reversed` is emitted, in one transaction. `payout_not_confirmed` (409) for any other payout.
 */
export async function reversePayout(
  database: Database,
  payoutId: string,
  options: { reason: string | null },
): Promise<PayoutRow> {
  const payout = await getPayoutById(database, payoutId);
  const reversed = await database.transaction(async (transaction) => {
    const row = await queries.markReversed(transaction, {
      merchantId: payout.merchant_id,
      id: payout.id,
      reason: options.reason,
    });
    if (row === null || row.confirm_transaction_id === null) {
      return null;
    }
    const description = `Payout ${row.reference} reversed${options.reason === null ? "" : `: ${options.reason}`}`;
    // The request's reversal first: its balances are locked in the order every payout movement takes
    // them (available, in transit, then clearing), so a payout requested meanwhile waits rather than
    // deadlocks. In transit is below zero between the two, within this transaction only.
    for (const transactionId of [row.request_transaction_id, row.confirm_transaction_id]) {
      await ledger.reverse(transaction, {
        merchantId: row.merchant_id,
        transactionId,
        description: description.slice(0, 500),
      });
    }
    await events.emit(transaction, {
      merchantId: row.merchant_id,
      livemode: row.livemode,
      type: "payout.reversed",
      data: {
        payout_id: row.id,
        amount_cents: row.amount_cents,
        currency: row.currency,
        reference: row.reference,
        reason: options.reason,
      },
    });
    return row;
  });
  if (reversed === null) {
    const now = await currentPayout(database, payout);
    throw conflict(
      "payout_not_confirmed",
      `Only a confirmed payout can be reversed; payout ${payout.id} is ${now.status}.`,
    );
  }
  countTransition(reversed);
  return reversed;
}
