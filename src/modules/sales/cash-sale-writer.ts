import { batchPerTurn } from "../../platform/db/batch-per-turn.ts";
import type { Queryable } from "../../platform/db/pool.ts";
import { type CashSaleOutcome, type CashSaleToWrite, writeCashSales } from "./service.ts";

/** Writes a cash sale with its effects and its idempotent response (see `CashSaleOutcome`). */
export type CashSaleWriter = (row: CashSaleToWrite) => Promise<CashSaleOutcome>;

/**
 * Writes the cash sales rung up in one turn of the event loop, each with its stored response,
 * `sale.completed`, stock moves and shift cash, in one statement (`writeCashSales`): one round trip,
 * one commit and one WAL flush for all of them instead of one each, as payment creations are written
 * (`payments/payment-writer.ts`). Each sale is still written only if its own request owns its key and
 * its shift is open; a statement that fails is written again sale by sale, so one sale's failure (a
 * client_sale_id recorded concurrently) fails only its own request.
 */
export function createCashSaleWriter(database: Queryable): CashSaleWriter {
  return batchPerTurn((rows) => writeCashSales(database, rows));
}
