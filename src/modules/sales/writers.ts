import { oncePerDatabase } from "../../platform/db/batch-per-turn.ts";
import type { Database } from "../../platform/db/pool.ts";
import { createProductReader } from "../catalog/index.ts";
import type { PaymentWiring } from "../payments/index.ts";
import { createCashSaleWriter } from "./cash-sale-writer.ts";
import type { SaleCreationDependencies } from "./ring-up.ts";
import { createWalletSaleWriter } from "./wallet-sale-writer.ts";

/** The ring-up's hot path on a database: the batching product reader and sale writers. */
export type SaleWriters = Pick<SaleCreationDependencies, "readProducts" | "writeCashSale" | "writeWalletSale">;

/**
 * The process's sale writers on each database, for the wiring to build once (`src/wiring/modules.ts`):
 * every ring-up of the process on that database shares them, so their statements carry the sales of
 * the moment together.
 */
export function saleWritersPerDatabase(): (database: Database) => SaleWriters {
  return oncePerDatabase((database) => ({
    readProducts: createProductReader(database),
    writeCashSale: createCashSaleWriter(database),
    writeWalletSale: createWalletSaleWriter(database),
  }));
}

/** What the composition gives the sales routes: the payments' wiring and the sale writers per database. */
export type SaleWiring = PaymentWiring & { saleWriters: (database: Database) => SaleWriters };
