import { batchPerTurn } from "../../platform/db/batch-per-turn.ts";
import type { Queryable } from "../../platform/db/pool.ts";
import { type WalletSaleToWrite, writeWalletSales } from "./service.ts";

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
