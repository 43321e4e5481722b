import { batchPerTurn, writeTogetherOrAlone } from "../../platform/db/batch-per-turn.ts";
import type { Queryable } from "../../platform/db/pool.ts";
import { events } from "../events/index.ts";
import { shifts } from "../shifts/index.ts";
import { stock } from "../stock/index.ts";
import * as queries from "./ring-up-queries.ts";
import { saleMovesOf } from "./sale-effects.ts";

/** A cash sale to write (`writeCashSales`): its row, its request's answer and its `sale.completed`, made in the request. */
export type CashSaleToWrite = queries.CashSaleToInsert & { event: events.PreparedEvent };

/** What writing a cash sale did: recorded (false: its request had lost its key), or its shift had closed. */
export type CashSaleOutcome = { recorded: boolean; shiftOpen: boolean };

/**
 * Writes cash sales in one statement (`queries.insertCashSales`): each with its stored answer,
 * `sale.completed`, its stock moves and its cash in its shift, one round trip and one commit for all.
 * When the statement fails, it wrote nothing: the sales are then written one statement each, so that
 * a sale's own failure (a client_sale_id recorded concurrently, or by another sale of the batch) fails
 * only its own request, with that error, and the others are written once. A failure without the
 * database's answer (a lost connection: the commit's outcome unknown) fails every sale of the batch.
 */
export async function writeCashSales(
  database: Queryable,
  rows: readonly CashSaleToWrite[],
): Promise<(CashSaleOutcome | Error)[]> {
  return writeTogetherOrAlone(rows, async (some) => {
    const written = await queries.insertCashSales(database, some, cashSaleEffects(some));
    return some.map((row) => ({
      recorded: written.recorded.has(row.sale.id),
      shiftOpen: !written.shiftClosed.has(row.sale.id),
    }));
  });
}

/** The parts of `insertCashSales` that other modules write, for these sales. */
const cashSaleEffects =
  (rows: readonly CashSaleToWrite[]): queries.CashSaleEffects =>
  (recorded) => ({
    events: events.emitEachWhen(
      rows.map((row) => ({ event: row.event, subject: row.sale.id })),
      recorded,
    ),
    stockMoves: stock.salesMovesCtes(
      rows.map((row) => saleMovesOf(row.sale)),
      recorded,
    ),
    shifts: shifts.salesCashInShifts(
      rows.flatMap(({ sale }) =>
        sale.shift_id === null
          ? []
          : [
              {
                merchantId: sale.merchant_id,
                livemode: sale.livemode,
                shiftId: sale.shift_id,
                saleId: sale.id,
                currency: sale.currency,
                amountCents: sale.total_cents,
                actor: { kind: sale.actor_type, id: sale.actor_id },
              },
            ],
      ),
      recorded,
    ),
  });

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
