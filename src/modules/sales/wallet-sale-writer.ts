import { batchPerTurn, writeTogetherOrAlone } from "../../platform/db/batch-per-turn.ts";
import type { Queryable } from "../../platform/db/pool.ts";
import { payments } from "../payments/index.ts";
import * as queries from "./ring-up-queries.ts";

/** A pending wallet sale to write with its payment's row and its request's stored answer (null: none). */
export type WalletSaleToWrite = queries.WalletSaleToInsert & { payment: payments.PendingPaymentToInsert };

/**
 * Wallet sales with their payments and stored answers in one statement (`queries.insertWalletSales`),
 * answering per sale whether it was recorded (false: its request no longer owns its key). A statement
 * the database refused is written again sale by sale, so that one sale's failure (its payment's code
 * live elsewhere, its client_sale_id recorded concurrently) fails only its own request, with that
 * failure; any other failure fails every sale of the batch.
 */
export async function writeWalletSales(
  database: Queryable,
  rows: readonly WalletSaleToWrite[],
): Promise<(boolean | Error)[]> {
  return writeTogetherOrAlone(rows, async (some) => {
    const recorded = await queries.insertWalletSales(database, some, (owned) =>
      payments.pendingPaymentsInsert(
        some.map((row) => row.payment),
        owned,
      ),
    );
    return some.map((row) => recorded.has(row.sale.id));
  });
}

/** Writes a pending wallet sale with its payment and its idempotent response; false when its request lost its key. */
export type WalletSaleWriter = (row: WalletSaleToWrite) => Promise<boolean>;

/**
 * Writes the wallet sales rung up in one turn of the event loop, each with its payment and stored
 * response, in one statement (`writeWalletSales`): one round trip, one commit and one WAL flush for all
 * of them instead of one each, as cash sales (`cash-sale-writer.ts`) and payment creations are written.
 * Each sale is still written only if its own request owns its key; a statement the database refuses
 * is written again sale by sale, so one sale's failure fails only its own request.
 */
export function createWalletSaleWriter(database: Queryable): WalletSaleWriter {
  return batchPerTurn((rows) => writeWalletSales(database, rows));
}
